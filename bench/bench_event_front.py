"""The week's tournament's standings through the real front (docs/EVENTS.md, "The standings
through nginx"): the published standings of an event of 100,000 entrants × 6 deals beside nginx
serving a static file of the very same bytes, in one run, wrk on the same machine.

    .venv/bin/python -m bench.bench_event_front [--entrants 100000] [--rounds 3] [--seconds 5]

A redis-server holds this week's Pik Dame event filled through the real fold script
(``service.events.store.fold``, pipelined; scores by bench.bench_events' formula, no randomness)
with every entrant's name; gunicorn serves the app as deployed (deploy/gunicorn.conf.py), nginx
the shipped site (tests/support/front.py), and the publisher runs as deployed
(``python -m service.publish``), asking the standings every 15 s. The standings page asks its
first window (``?offset=0&limit=100``, published) without credentials and the caller's place
from ``/standings/me`` (at the app, one look-up in the place index); the whole document is
published too (API v1's read without arguments). Each published read runs right after its
reference, a static file of the same bytes (the plain answer; the gzipped answer, for a read
that asks gzip as a browser does), the figure the median of those pairs' ratios: the same work
on both sides, the bytes through loopback. A signed-in player's place (a bearer token of an
entrant) and a signed-in read of the whole document (a cookie: never published, its "you" marks
the caller, so gunicorn reads and writes the whole kept document) go to gunicorn. Writes
bench/results/event_front.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import statistics
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import redis

from bench.bench_events import score
from bench.bench_front import BROWSER, start_publisher
from bench.bench_http import service_env
from bench.loadkit import (
    ROOT,
    WrkResult,
    command_line,
    cpu_seconds,
    load_average,
    start_gunicorn,
    start_redis,
    write_result,
    wrk,
)
from engine.core.events import EVENT_DEALS, week_of
from service.dailies import store as attempts
from service.events import deals, store
from service.web.publishing import STANDINGS_S, STANDINGS_WINDOW
from tests.support.front import start_front

RESULT = ROOT / "bench" / "results" / "event_front.md"
GAME = "pikdame"
CHUNK = 5_000


@dataclass
class Target:
    name: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    published: bool = False
    runs: list[WrkResult] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    cpu_nginx: list[float] = field(default_factory=list)
    cpu_web: list[float] = field(default_factory=list)

    def median(self, attr: str) -> float:
        return float(statistics.median(float(getattr(r, attr)) for r in self.runs))


def fill(client: redis.Redis[str], week: str, size: int) -> None:
    """Every entrant's 6 verified results folded in, and their names."""
    for first in range(0, size, CHUNK):
        pipe = client.pipeline(transaction=False)
        for i in range(first, min(first + CHUNK, size)):
            for n in range(1, EVENT_DEALS + 1):
                store.fold(pipe, GAME, week, f"p{i:06d}", n, score(i, n), 1_000 + i)
            pipe.hset(deals.names_key(GAME, week), f"p{i:06d}", f"Spieler {i}")
        pipe.execute()


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[str, bytes]:
    """The answer's X-Cache-Status and body; an error answer (the app busy: a 503, a 504) as
    its status, to be asked again."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return str(response.headers.get("X-Cache-Status", "")), response.read()
    except urllib.error.HTTPError as answer:
        return str(answer.code), b""


def entrant_token(base: str, client: redis.Redis[str], week: str) -> str:
    """A bearer token whose player is one more entrant of the event (a daily attempt's token,
    its player folded in as the others): what a signed-in player's page sends to ``/me``."""
    today = dt.datetime.now(dt.UTC).date().isoformat()
    request = urllib.request.Request(
        f"{base}/api/daily/{today}/attempts",
        data=json.dumps({"name": "Bench"}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        token = str(json.loads(response.read())["token"])
    player = attempts.player_for_token(client, token)
    assert player is not None
    for n in range(1, EVENT_DEALS + 1):
        store.fold(client, GAME, week, player, n, score(7, n), 1_000)
    client.hset(deals.names_key(GAME, week), player, "Bench")
    return token


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--entrants", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--own-connections", type=int, default=2, help="for the reads that reach gunicorn"
    )
    parser.add_argument("--out", type=Path, default=RESULT)
    args = parser.parse_args(argv)

    week = week_of(dt.datetime.now(dt.UTC).date())  # the service's real clock: this week
    path = f"/api/events/{GAME}/{week}/standings"
    server = start_redis()
    client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
    started = time.perf_counter()
    fill(client, week, args.entrants)
    filled_s = time.perf_counter() - started
    env = {**service_env(server.url), "PIKDAME_PROXIES": "127.0.0.1"}
    web = start_gunicorn("service.wsgi:app", env, "/healthz")
    token = entrant_token(web.base, client, week)
    window = f"{path}?offset=0&limit={STANDINGS_WINDOW}"
    static = Path(tempfile.mkdtemp(prefix="pikdame-bench-static-"))
    front = start_front(
        web.base.removeprefix("http://"),
        "".join(
            f"        location = /bench-{name}.json {{ alias {static / f'{name}.json'}; }}\n"
            for name in ("plain", "gzip", "window", "window-gzip")
        ),
    )
    publisher = start_publisher(env, front.published)
    publisher_started = time.monotonic()
    try:
        deadline = time.monotonic() + 300  # its first refresh computes the standings
        status = ""
        while time.monotonic() < deadline and status != "PUBLISHED":
            time.sleep(0.5)
            status, plain = fetch(front.base + path)
        if status != "PUBLISHED":
            raise RuntimeError("the standings were not published")
        answer = json.loads(plain)
        assert len(answer["entries"]) == args.entrants + 1, len(answer["entries"])
        status, packed = fetch(front.base + path, BROWSER)
        assert status == "PUBLISHED" and gzip.decompress(packed) == plain
        (static / "plain.json").write_bytes(plain)
        (static / "gzip.json").write_bytes(packed)
        status, window_plain = fetch(front.base + window)
        assert status == "PUBLISHED", status
        status, window_packed = fetch(front.base + window, BROWSER)
        assert status == "PUBLISHED" and gzip.decompress(window_packed) == window_plain
        (static / "window.json").write_bytes(window_plain)
        (static / "window-gzip.json").write_bytes(window_packed)
        me = json.loads(
            fetch(front.base + path + "/me", {"Authorization": f"Bearer {token}"})[1] or b"{}"
        )
        assert (me.get("entry") or {}).get("name") == "Bench", me
        computed = time.perf_counter()
        store.standings(client, GAME, week)
        standings_s = time.perf_counter() - computed
        plain_ref = Target(
            "nginx: the same bytes as a static file", front.base + "/bench-plain.json"
        )
        gzip_ref = Target(
            "nginx: the gzipped bytes as a static file", front.base + "/bench-gzip.json"
        )
        pairs = [
            (
                Target(
                    "nginx: the window's bytes as a static file", front.base + "/bench-window.json"
                ),
                Target(
                    "nginx: the page's first window, 100 rows (published)",
                    front.base + window,
                    {},
                    True,
                ),
            ),
            (
                Target(
                    "nginx: the window's gzipped bytes as a static file",
                    front.base + "/bench-window-gzip.json",
                ),
                Target(
                    "nginx: the first window, gzip asked (published)",
                    front.base + window,
                    BROWSER,
                    True,
                ),
            ),
            (plain_ref, Target("nginx: the standings (published)", front.base + path, {}, True)),
            (
                gzip_ref,
                Target(
                    "nginx: the standings, gzip asked (published)",
                    front.base + path,
                    BROWSER,
                    True,
                ),
            ),
        ]
        own = Target(
            "nginx → gunicorn: a signed-in read of the whole standings (a cookie; not published)",
            front.base + path,
            {**BROWSER, "Cookie": "session=bench"},
        )
        place = Target(
            "nginx → gunicorn: a signed-in player's place (/standings/me, a bearer token)",
            front.base + path + "/me",
            {**BROWSER, "Authorization": f"Bearer {token}"},
        )

        def run(t: Target) -> WrkResult:
            for _ in range(40):  # answered from the publisher's file (it keeps up)
                status, _ = fetch(t.url, t.headers)
                if not t.published or status == "PUBLISHED":
                    break
                time.sleep(0.25)
            if t.published and status != "PUBLISHED":
                raise RuntimeError(f"{t.name}: not published ({status})")
            n0 = cpu_seconds(front.process.pid, tree=True)
            w0 = cpu_seconds(web.pid, tree=True)
            result = wrk(
                t.url,
                threads=args.threads,
                connections=args.own_connections if t is own else args.connections,
                seconds=args.seconds,
                headers=t.headers,
            )
            n = max(1, result.requests)
            t.runs.append(result)
            t.cpu_nginx.append((cpu_seconds(front.process.pid, tree=True) - n0) / n * 1e6)
            t.cpu_web.append((cpu_seconds(web.pid, tree=True) - w0) / n * 1e6)
            print(f"  {t.name}: {result.row()} (load {load_average()})", flush=True)
            return result

        for _ in range(args.rounds):
            for reference, target in pairs:
                before = run(reference)
                target.ratios.append(run(target).rate / before.rate)
            run(place)
            run(own)
        publisher_cpu = cpu_seconds(publisher.pid, tree=True)
        publisher_s = time.monotonic() - publisher_started
    finally:
        publisher.terminate()
        publisher.wait(timeout=30)
        front.stop()
        web.stop()
        server.stop()

    def row(t: Target, ratio: str) -> str:
        return (
            f"| {t.name} | {t.median('rate'):,.1f} | {ratio} | {t.median('p50'):.2f} | "
            f"{t.median('p99'):.2f} | {sum(r.errors for r in t.runs)} | "
            f"{statistics.median(t.cpu_nginx):,.0f} | {statistics.median(t.cpu_web):,.0f} |"
        )

    lines = [
        "## The week's tournament: the standings through nginx (bench/bench_event_front.py)",
        "",
        f"`{command_line('bench.bench_event_front', argv)}` — {args.rounds} rounds, "
        f"{args.seconds} s per target, wrk -t{args.threads} -c{args.connections}, interleaved; "
        f"load average at the end {load_average()}. An event of {args.entrants:,} entrants × "
        f"{EVENT_DEALS} deals (filled in {filled_s:.0f} s through the fold script); the API "
        f"serves the standings whole: {len(plain):,} bytes, {len(packed):,} gzipped. nginx: "
        "deploy/nginx's site as shipped under the host nginx.conf's http settings, 1 worker "
        "process; gunicorn: deploy/gunicorn.conf.py; the publisher as deployed "
        "(python -m service.publish, the standings asked every "
        f"{STANDINGS_S} s by its own process): "
        f"{publisher_cpu / publisher_s * 1000:,.0f} ms of CPU a second over the run. Computing "
        f"the standings from the deals' counts (`store.standings`, what the app does at most "
        f"once per 20 s): {standings_s:.2f} s. docs/EVENTS.md.",
        "",
        "| target | req/s | of the static file | p50 ms | p99 ms | errors | nginx CPU µs/req "
        "| gunicorn CPU µs/req |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for reference, target in pairs:
        lines.append(row(reference, "100%"))
        lines.append(row(target, f"{statistics.median(target.ratios):.0%}"))
    lines.append(row(place, "—"))
    lines.append(row(own, "—"))
    lines.append("")
    lines.append(
        "The page a player sees is the first two rows' pair and the place row: its window "
        f"published, its own place at the app. The signed-in read of the whole document ran with "
        f"{args.own_connections} connections and wrk's 10 s time-out (each answer costs gunicorn "
        "the whole document; no page asks it any more, API v1 keeps it; deploy/SCALING.md)."
    )
    lines.append("")
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
