"""Reads behind the real front: nginx with deploy/nginx's site in front of gunicorn,
wrk on the same machine, every target in the same run.

    .venv/bin/python -m bench.bench_front [--seconds 5] [--rounds 3] [--before-rev REV]

Public reads through nginx's micro-cache are set against nginx serving a small static file (the
ceiling of the front), as wrk asks (no compression) and as a browser asks (Accept-Encoding:
gzip); private reads (an attempt's view with its bearer token) against the bare Flask endpoint,
with and without the client's ETag (If-None-Match: 304, the game not parsed); and the public
reads straight from gunicorn as they were served before the front cached them. With
``--before-rev`` the public reads also go through that commit's nginx site and app, and its
bare endpoint and 304 run under its gunicorn.conf.py, started beside the current ones.
Targets interleave over the rounds; the figures are medians, a public read's ratio the median of
its runs' ratios to a run of its reference just before it. The published reads (today's
challenge and board, service/web/publishing.py) are read with the publisher running as
deployed, beside a second nginx with the same site and no publisher (the micro-cache's figures
for the same reads). Writes bench/results/front.md.
``--only moves`` measures moves at saturation instead: ``--players`` players with no think time
through the deployed front, straight to gunicorn, and through fronts to gunicorns with other
workers × threads (``--web-variant 2x2``), in the same run. With ``--only private`` a
``--web-variant`` adds the bare endpoint and the attempt's view under that shape too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import redis

from bench.bench_http import (
    DAY,
    SMALL_BOARD,
    MoveRun,
    before_tree,
    fill_board,
    http_json,
    move_cells,
    move_failures,
    run_moves,
    service_env,
)
from bench.loadkit import (
    ROOT,
    Redis,
    Web,
    WrkResult,
    command_line,
    cpu_seconds,
    load_average,
    start_gunicorn,
    start_redis,
    write_result,
    wrk,
)
from service.common import config
from service.web.publishing import BOARD_PAGE
from tests.support.front import Front, mend_earlier_site, start_front

RESULT = ROOT / "bench" / "results" / "front.md"
STATIC_BODY = b'{"ok":true}'  # the bare endpoint's body, as a file nginx serves itself
BROWSER: Final = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # as Chromium asks


@dataclass
class Target:
    """One URL measured by wrk; CPU per request of nginx and of gunicorn (µs)."""

    name: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    front: int = 0  # the nginx whose CPU it costs (0: the current front)
    published: bool = False  # answered from the publisher's file (checked before each run)
    ratios: list[float] = field(default_factory=list)  # of each run to its reference's run before
    runs: list[WrkResult] = field(default_factory=list)
    cpu_nginx: list[float] = field(default_factory=list)
    cpu_web: list[float] = field(default_factory=list)

    def median(self, attr: str) -> float:
        return float(statistics.median(float(getattr(r, attr)) for r in self.runs))


def start_backend() -> tuple[Redis, dict[str, str]]:
    """A redis-server holding today's small board, and the environment of a gunicorn behind the
    front (it trusts 127.0.0.1's forwarded headers and leaves the fixed headers to nginx)."""
    server = start_redis()
    client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
    fill_board(client, SMALL_BOARD)
    return server, {**service_env(server.url), "PIKDAME_PROXIES": "127.0.0.1"}


def view_etag(base: str, attempt: str, auth: dict[str, str]) -> str:
    """The attempt view's current ETag as the gunicorn at ``base`` tags it."""
    request = urllib.request.Request(f"{base}/api/attempts/{attempt}", headers=auth)
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(response.headers["ETag"])


def start_publisher(env: dict[str, str], published: Path) -> subprocess.Popen[bytes]:
    """The publisher as deployed (python -m service.publish) writing into ``published``
    (a front's directory); waits for its first second."""
    log = Path(tempfile.mkdtemp(prefix="pikdame-bench-publish-")) / "publisher.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "service.publish"],
        env={**os.environ, **env, "PIKDAME_PUBLISH_DIR": str(published)},
        cwd=ROOT,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(published.iterdir()):
        time.sleep(0.1)
    return process


def assert_published(target: Target) -> None:
    """The target is answered from a published file (the publisher keeps up)."""
    for _ in range(20):
        request = urllib.request.Request(target.url, headers=target.headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            if response.headers.get("X-Cache-Status") == "PUBLISHED":
                return
        time.sleep(0.1)
    raise RuntimeError(f"{target.name}: not answered from a published file")


def warm_up(target: Target) -> None:
    request = urllib.request.Request(target.url, headers=target.headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
    except urllib.error.HTTPError as answer:  # a 304 is what the ETag targets measure
        if answer.code != 304:
            raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=int, default=5, help="per wrk run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--before-rev", default=None, help="also read through this commit's nginx site and app"
    )
    parser.add_argument("--out", type=Path, default=RESULT)
    parser.add_argument(
        "--only",
        choices=("public", "private", "moves"),
        default=None,
        help="measure one table only (public: as wrk and as a browser asks; private: the ETag), "
        "or moves (players at saturation through the front and without it: only so)",
    )
    parser.add_argument(
        "--players",
        type=int,
        nargs="+",
        default=[8, 50],
        help="players moving at once with no think time (the moves' table)",
    )
    parser.add_argument("--move-seconds", type=int, default=10, help="per moves run")
    parser.add_argument(
        "--web-variant",
        action="append",
        default=[],
        metavar="PROCESSESxTHREADS",
        help="also move (--only moves) or read privately (--only private) through a front to a "
        "gunicorn with these workers and threads (e.g. 2x2)",
    )
    args = parser.parse_args(argv)

    server, env = start_backend()
    web = start_gunicorn("service.wsgi:app", env, "/healthz")
    bare = start_gunicorn("bench.bare_app:app", env, "/bare")
    static = Path(tempfile.mkdtemp(prefix="pikdame-bench-static-")) / "static.json"
    static.write_bytes(STATIC_BODY)
    board = f"/api/leaderboard/{DAY}?limit=50"
    # The top 50's very bytes as a static file: how much of the gap to the small file is the
    # answer's size (bytes through loopback, wrk reading them) rather than the cache.
    with urllib.request.urlopen(web.base + board, timeout=10) as response:
        sized = static.with_name("top50.json")
        sized.write_bytes(response.read())
    statics = (
        f"        location = /bench-static.json {{ alias {static}; }}\n"
        f"        location = /bench-top50.json {{ alias {sized}; }}\n"
    )
    front = start_front(web.base.removeprefix("http://"), statics)
    publisher = start_publisher(env, front.published)
    # The same site with no publisher: every read of today's challenge and board goes to the
    # micro-cache, as it did before the reads were published (and does while none runs).
    unpublished = start_front(web.base.removeprefix("http://"))
    page = f"/api/leaderboard/{DAY}?offset=0&limit={BOARD_PAGE}"  # the rankings page's first
    created = http_json(web.base, f"/api/daily/{DAY}/attempts", {"name": "Bench Reader"})
    attempt, token = created["attempt"]["id"], created["token"]
    auth = {"Authorization": f"Bearer {token}"}
    etag = view_etag(web.base, attempt, auth)
    old_web = old_front = old_bare = None
    if args.before_rev:
        tree = before_tree(
            args.before_rev, Path(tempfile.mkdtemp(prefix="pikdame-bench-")) / "b", whole=True
        )
        old_web = start_gunicorn("service.wsgi:app", env, "/healthz", root=tree)
        old_bare = start_gunicorn("bench.bare_app:app", env, "/bare", root=tree)
        mend_earlier_site(tree / "deploy" / "nginx")  # under the same host settings
        old_front = start_front(
            old_web.base.removeprefix("http://"), site=tree / "deploy" / "nginx"
        )
    bypass = unpublished.process.pid
    public = [
        Target(
            "nginx: a small static file (the front's ceiling)", front.base + "/bench-static.json"
        ),
        Target("nginx: GET /api/daily (published)", front.base + "/api/daily", published=True),
        Target("nginx: today's board, first page (published)", front.base + page, published=True),
        Target(
            "nginx, no publisher: GET /api/daily (micro-cache)",
            unpublished.base + "/api/daily",
            front=bypass,
        ),
        Target(
            "nginx, no publisher: today's board, first page (micro-cache)",
            unpublished.base + page,
            front=bypass,
        ),
        Target("nginx: top 50 (micro-cache; not published)", front.base + board),
        Target("nginx: the top 50's bytes as a static file", front.base + "/bench-top50.json"),
    ]
    browser = [
        Target(
            "nginx: a small static file, asked as a browser asks",
            front.base + "/bench-static.json",
            BROWSER,
        ),
        Target(
            "nginx: GET /api/daily, gzip asked (published)",
            front.base + "/api/daily",
            BROWSER,
            published=True,
        ),
        Target(
            "nginx: today's board, first page, gzip asked (published)",
            front.base + page,
            BROWSER,
            published=True,
        ),
        Target(
            "nginx, no publisher: GET /api/daily, gzip asked (micro-cache)",
            unpublished.base + "/api/daily",
            BROWSER,
            front=bypass,
        ),
        Target(
            "nginx, no publisher: today's board, first page, gzip asked (micro-cache)",
            unpublished.base + page,
            BROWSER,
            front=bypass,
        ),
        Target(
            "nginx: top 50, gzip asked (micro-cache; not published)", front.base + board, BROWSER
        ),
    ]
    if old_front is not None:
        label, pid = f"before ({args.before_rev}): nginx", old_front.process.pid
        public += [
            Target(f"{label}: GET /api/daily", old_front.base + "/api/daily", front=pid),
            Target(f"{label}: top 50", old_front.base + board, front=pid),
        ]
        browser += [
            Target(
                f"{label}: GET /api/daily, gzip asked",
                old_front.base + "/api/daily",
                BROWSER,
                front=pid,
            ),
            Target(f"{label}: top 50, gzip asked", old_front.base + board, BROWSER, front=pid),
        ]
    uncached = [
        Target("gunicorn: GET /api/daily (no front, as before)", web.base + "/api/daily"),
        Target("gunicorn: top 50 (no front, as before)", web.base + board),
    ]
    private = [
        Target("bare Flask endpoint (gunicorn)", bare.base + "/bare"),
        Target("gunicorn: attempt view, 200", f"{web.base}/api/attempts/{attempt}", auth),
        Target("nginx: attempt view, 200", f"{front.base}/api/attempts/{attempt}", auth),
        Target(
            "gunicorn: attempt view, 304 (If-None-Match)",
            f"{web.base}/api/attempts/{attempt}",
            {**auth, "If-None-Match": etag},
        ),
        Target(
            "nginx: attempt view, 304 (If-None-Match)",
            f"{front.base}/api/attempts/{attempt}",
            {**auth, "If-None-Match": etag},
        ),
    ]
    if old_web is not None and old_bare is not None:  # that commit's gunicorn.conf.py
        old_etag = view_etag(old_web.base, attempt, auth)
        private += [
            Target(f"before ({args.before_rev}): bare Flask endpoint", old_bare.base + "/bare"),
            Target(
                f"before ({args.before_rev}): gunicorn: attempt view, 200",
                f"{old_web.base}/api/attempts/{attempt}",
                auth,
            ),
            Target(
                f"before ({args.before_rev}): gunicorn: attempt view, 304",
                f"{old_web.base}/api/attempts/{attempt}",
                {**auth, "If-None-Match": old_etag},
            ),
        ]
    shipped = config.load(env)  # what deploy/gunicorn.conf.py reads
    # Moves at saturation: the same players through the deployed front and straight to
    # gunicorn (and through the earlier release's front): the run's log and CPU are gunicorn's.
    paths = [
        (
            f"nginx (deployed: gunicorn {shipped.web_processes} workers × "
            f"{shipped.web_threads} threads)",
            Web(web.process, front.base, web.log),
        ),
        ("gunicorn, no front", web),
    ]
    if old_front is not None and old_web is not None:
        old_path = Web(old_web.process, old_front.base, old_web.log)
        paths.append((f"before ({args.before_rev}): nginx", old_path))
    variants: list[tuple[Web, Front]] = []
    variant_bares: list[Web] = []
    for variant in args.web_variant if args.only in ("moves", "private") else []:
        processes, threads = variant.split("x")
        shape = {**env, "WEB_CONCURRENCY": processes, "PIKDAME_THREADS": threads}
        other = start_gunicorn("service.wsgi:app", shape, "/healthz")
        other_front = start_front(other.base.removeprefix("http://"))
        variants.append((other, other_front))
        label = f"gunicorn {processes} workers × {threads} threads"
        paths.append((f"nginx, {label}", Web(other.process, other_front.base, other.log)))
        if args.only == "private":  # the same reads under this shape, its own bare endpoint
            other_bare = start_gunicorn("bench.bare_app:app", shape, "/bare")
            variant_bares.append(other_bare)
            view = f"/api/attempts/{attempt}"
            private += [
                Target(f"bare Flask endpoint ({label})", other_bare.base + "/bare"),
                Target(f"{label}: attempt view, 200", other.base + view, auth),
                Target(f"nginx, {label}: attempt view, 200", other_front.base + view, auth),
            ]
    moves: dict[tuple[str, int], list[MoveRun]] = {}
    others = [w for w, _ in variants] + variant_bares
    webs = [p for p in (web, bare, old_web, old_bare, *others) if p is not None]  # one at a time
    targets = {
        None: [*public, *browser, *uncached, *private],
        "public": [*public, *browser],
        "private": private,
        "moves": [],
    }[args.only]
    # Each public read runs right after its reference (the static file asked alike), its figure
    # the median of those pairs' ratios; the private reads run once a round against theirs.
    pairs = {
        id(t): reference
        for reference, chosen in ((public[0], [*public, *uncached]), (browser[0], browser))
        for t in chosen[1:]
    }
    if args.only in (None, "public"):
        targets = [t for t in targets if t is not public[0] and t is not browser[0]]

    def run(t: Target) -> WrkResult:
        # One read first: a URL missing from the cache holds concurrent readers in
        # proxy_cache_lock, which nginx polls every 500 ms; an expired entry is served
        # stale while one background request renews it. The runs measure the steady
        # state, not the one lock wait of a URL's first second.
        warm_up(t)
        if t.published:
            assert_published(t)
        nginx_pid = t.front or front.process.pid
        n0 = cpu_seconds(nginx_pid, tree=True)
        w0 = sum(cpu_seconds(p.pid, tree=True) for p in webs)
        result = wrk(
            t.url,
            threads=args.threads,
            connections=args.connections,
            seconds=args.seconds,
            headers=t.headers,
        )
        n = max(1, result.requests)
        t.runs.append(result)
        t.cpu_nginx.append((cpu_seconds(nginx_pid, tree=True) - n0) / n * 1e6)
        web_cpu = sum(cpu_seconds(p.pid, tree=True) for p in webs) - w0
        t.cpu_web.append(web_cpu / n * 1e6)
        print(f"  {t.name}: {result.row()} (load {load_average()})", flush=True)
        return result

    moves_dir = Path(tempfile.mkdtemp(prefix="pikdame-bench-moves-"))
    publisher_started = time.monotonic()
    try:
        for _ in range(args.rounds):
            for players in args.players if args.only == "moves" else []:
                for name, path in paths:
                    moves.setdefault((name, players), []).append(
                        run_moves(
                            path,
                            f"{name} ×{players}",
                            players,
                            0,
                            args.move_seconds,
                            moves_dir,
                            server.process.pid,
                        )
                    )
            for t in targets:
                # A public read runs right after its reference, the static file asked alike:
                # the ratio of the two is the figure, not of runs a minute apart on a box
                # whose speed drifts (other tenants, the clock).
                paired = pairs.get(id(t))
                if paired is not None:
                    before = run(paired)
                    t.ratios.append(run(t).rate / before.rate)
                else:
                    run(t)
    finally:
        for process in (old_front, old_web, old_bare):
            if process is not None:
                process.stop()
        for other, other_front in variants:
            other_front.stop()
            other.stop()
        for other_bare in variant_bares:
            other_bare.stop()
        publisher_cpu = cpu_seconds(publisher.pid, tree=True)
        publisher_s = time.monotonic() - publisher_started
        publisher.terminate()
        publisher.wait(timeout=30)
        unpublished.stop()
        front.stop()
        web.stop()
        bare.stop()
        server.stop()

    ceiling, asked, flask = public[0], browser[0], private[0]

    def rows(reference: Target, chosen: list[Target]) -> list[str]:
        out = []
        for t in chosen:
            ratios = t.ratios or [
                r.rate / b.rate for r, b in zip(t.runs, reference.runs, strict=True)
            ]
            out.append(
                f"| {t.name} | {t.median('rate'):,.0f} | {statistics.median(ratios):.0%} | "
                f"{t.median('p50'):.2f} | {t.median('p99'):.2f} | "
                f"{sum(r.errors for r in t.runs)} | {statistics.median(t.cpu_nginx):,.0f} | "
                f"{statistics.median(t.cpu_web):,.0f} |"
            )
        return out

    head = [
        "| target | req/s | of reference | p50 ms | p99 ms | errors | nginx CPU µs/req "
        "| gunicorn CPU µs/req |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines = [
        "## The front: moves at saturation (bench/bench_front.py --only moves)"
        if args.only == "moves"
        else "## The front: private reads under gunicorn's shapes (bench/bench_front.py)"
        if args.only == "private" and args.web_variant
        else "## The front: nginx's micro-cache and the attempt's ETag (bench/bench_front.py)",
        "",
        f"`{command_line('bench.bench_front', argv)}` — {args.rounds} rounds, "
        + (
            "every path and number of players once a round, interleaved; "
            if args.only == "moves"
            else f"{args.seconds} s per target, wrk -t{args.threads} -c{args.connections}, "
            "interleaved; "
        )
        + f"load average at the end {load_average()}. nginx: deploy/nginx's site as shipped "
        "under the host nginx.conf's http settings (tests/support/front.py: Debian's "
        "sendfile on, tcp_nopush on, gzip on), 1 worker process; gunicorn: "
        "deploy/gunicorn.conf.py; the publisher as deployed (python -m service.publish), "
        f"{publisher_cpu / publisher_s * 1000:.1f} ms of CPU a second over the run.",
        "",
    ]
    if args.only in (None, "public"):
        lines += [
            "Public reads, against nginx serving a small static file in the same run "
            "(goal ≥ 90 %):",
            "",
            *head,
            *rows(ceiling, [t for t in (*public, *uncached) if t.runs]),
            "",
            "Public reads as a browser asks them (Accept-Encoding: gzip, deflate, br, zstd), "
            "against the same small static file asked so (goal ≥ 90 %):",
            "",
            *head,
            *rows(asked, browser),
            "",
        ]
    if args.only in (None, "private"):
        lines += [
            "Private reads, against the bare Flask endpoint in the same run (goal ≥ 50 %):",
            "",
            *head,
            *rows(flask, private),
            "",
        ]
    if args.only == "moves":
        lines += [
            "Moves at saturation: players (one wrk thread and connection each, bench/moves.lua) "
            "moving as soon as their answer arrives, each on its own daily attempts (draw, then "
            "discard a random card; the bots' turns run inside the move), "
            f"{args.move_seconds} s per run; *in the app* is the move's time in the app's own "
            "request log; *web CPU* is gunicorn's CPU per move (nginx's is apart). Goal: p99 ≤ "
            "50 ms through nginx.",
            "",
            "| path | players | moves/s | p50 ms | p90 ms | p99 ms | in the app p50 / p99 ms "
            "| web CPU µs/move | failures |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
            *(move_row(name, players, runs) for (name, players), runs in moves.items()),
            "",
        ]
    write_result(args.out, lines)
    return 0


def move_row(name: str, players: int, runs: list[MoveRun]) -> str:
    """Medians over the rounds; failures summed."""
    return f"| {name} | {players} | {move_cells(runs)} | {move_failures(runs)} |"


if __name__ == "__main__":
    raise SystemExit(main())
