"""Memory: Redis bytes per attempt and per leaderboard entry; RSS of web and worker processes.

    .venv/bin/python -m bench.bench_memory [--games 40] [--entries 100000]

Plays ``--games`` daily rounds through the API (in-process app, random-discard player), then
reads ``MEMORY USAGE <key> SAMPLES 0`` (exact) of every key an attempt owns and Redis' own
``used_memory`` before and after (everything included: allocator overhead, the RQ job and its
registries). Fills a day's board with ``--entries`` ranked entries (rank + name, as the worker
writes them) for the bytes per entry. Then starts gunicorn with ``deploy/gunicorn.conf.py`` and
the stock ``rq worker``, works them a little, and reads their RSS and PSS from /proc (PSS splits
pages shared after the fork fairly: the honest per-process figure). Writes
bench/results/memory.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import statistics
import subprocess
import time
import urllib.request
from pathlib import Path

import redis

from bench.bench_verify import RQ, STOCK, play_games
from bench.loadkit import (
    ROOT,
    command_line,
    load_average,
    rss_kib,
    start_gunicorn,
    start_redis,
    write_result,
)
from engine import ENGINE_VERSION
from service.common import config, keys
from service.dailies import ranking, store
from service.dailies.queue import RESULT_TTL
from tests.support.processes import descendants

RESULT = ROOT / "bench" / "results" / "memory.md"
SECRET = "bench-secret"
DAY = dt.datetime.now(dt.UTC).date().isoformat()


def usage(client: redis.Redis[str], key: str) -> int:
    return int(client.memory_usage(key, samples=0) or 0)


def used(client: redis.Redis[str]) -> int:
    return int(client.info("memory")["used_memory"])


def all_keys(client: redis.Redis[str]) -> int:
    """Sum of MEMORY USAGE over every key: the data, without Redis' fixed overhead."""
    return sum(families(client).values())


def families(client: redis.Redis[str]) -> dict[str, int]:
    """MEMORY USAGE summed per key family (ids, tokens and players replaced by a placeholder)."""
    out: dict[str, int] = {}
    for key in client.scan_iter(count=1000):
        family = re.sub(r"[0-9a-f]{64}|p?[0-9a-f]{16}", "…", key)
        out[family] = out.get(family, 0) + usage(client, key)
    return out


def fill(client: redis.Redis[str], date: str, entries: int) -> None:
    rng = random.Random(3)
    pipe = client.pipeline(transaction=False)
    for i in range(entries):
        member = f"{rng.getrandbits(64):016x}"  # attempt ids are 16 hex digits
        key = ranking.rank_key(rng.randint(-600, 600), rng.randint(5, 60), rng.randrange(8 * 10**7))
        pipe.zadd(keys.day_rank(date), {member: key})
        pipe.hset(keys.day_names(date), member, f"Spieler {i}")
        if i % 10_000 == 9_999:
            pipe.execute()
    pipe.execute()


def http(base: str, path: str, body: dict[str, object] | None = None, token: str = "") -> object:
    request = urllib.request.Request(
        base + path, data=None if body is None else json.dumps(body).encode()
    )
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def warm_web(base: str, games: int) -> None:
    """Play ``games`` rounds and read the boards over HTTP, so every worker has served each path
    (several times: requests spread over the workers)."""
    rng = random.Random(9)
    for i in range(games):
        body = http(base, f"/api/daily/{DAY}/attempts", {"name": f"M{i}"})
        assert isinstance(body, dict)
        attempt, token = body["attempt"], body["token"]
        while attempt["status"] == "playing":
            view = attempt["view"]
            if view["phase"] == "draw":
                move = "draw" if view["can_draw"] else "resign"
            else:
                move = "discard " + rng.choice(view["hand"])
            answer = http(
                base,
                f"/api/attempts/{attempt['id']}/moves",
                {"move": move, "seq": attempt["seq"]},
                token,
            )
            assert isinstance(answer, dict)
            attempt = answer["attempt"]
        for _ in range(5):
            http(base, f"/api/leaderboard/{DAY}")
            http(base, "/api/daily")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--out", type=Path, default=RESULT)
    args = parser.parse_args(argv)
    command = command_line("bench.bench_memory", argv)
    load_start = load_average()
    server = start_redis()
    try:
        client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
        before = used(client)
        ids = play_games(server.url, args.games)
        after_play = used(client)
        keys_play = all_keys(client)
        sizes: dict[str, list[int]] = {"attempt hash (finished: state + record)": []}
        extra: dict[str, list[int]] = {
            "token → attempt": [],
            "player's slot for the day": [],
            "RQ job (queued)": [],
        }
        for aid in ids:
            attempt = store.load(client, aid)
            assert attempt is not None
            sizes["attempt hash (finished: state + record)"].append(
                usage(client, keys.attempt(aid))
            )
            extra["token → attempt"].append(usage(client, keys.token(attempt.token_hash)))
            extra["player's slot for the day"].append(
                usage(client, keys.player_day(DAY, attempt.player))
            )
            extra["RQ job (queued)"].append(usage(client, f"rq:job:verify-{aid}"))
        sizes |= extra
        game_json = [len(client.hget(keys.attempt(a), "game") or "") for a in ids]
        # ranked without accounts, as the figures have always been taken
        env = {
            **os.environ,
            "REDIS_URL": server.url,
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_RANK_ANONYMOUS": "1",
        }
        env["PYTHONPATH"] = str(ROOT)
        started = time.perf_counter()
        subprocess.run([RQ, "worker", *STOCK, "--burst", "-q"], env=env, cwd=ROOT, check=True)
        worker_s = time.perf_counter() - started
        after_verify = used(client)
        by_family = families(client)
        keys_verify = sum(by_family.values())
        lasting = sum(v for k, v in by_family.items() if k.startswith("pd:"))
        job_done = [usage(client, f"rq:job:verify-{aid}") for aid in ids]
        players = [store.load(client, a) for a in ids]
        player_hash = [usage(client, keys.player(p.player)) for p in players if p is not None]
        # a playing attempt, fresh from its start
        fresh_before = used(client)
        fresh = play_games_started(server.url, 20)
        fresh_sizes = [usage(client, keys.attempt(a)) for a in fresh]
        fresh_per = (used(client) - fresh_before) / len(fresh)

        board_date = "2000-01-01"
        board_before = used(client)
        fill(client, board_date, args.entries)
        board_used = (used(client) - board_before) / args.entries
        zset = usage(client, keys.day_rank(board_date)) / args.entries
        names = usage(client, keys.day_names(board_date)) / args.entries
        client.delete(keys.day_rank(board_date), keys.day_names(board_date))

        web = start_gunicorn(
            "service.wsgi:app",
            {**env, "PIKDAME_LIMITS_ENABLED": "1", "PIKDAME_LIMIT_ATTEMPTS": "1000 per second"},
            "/healthz",
        )
        try:
            master = web.process.popen.pid
            idle = {pid: rss_kib(pid) for pid in [master, *descendants(master)]}
            warm_web(web.base, 8)
            worked = {pid: rss_kib(pid) for pid in [master, *descendants(master)]}
        finally:
            web.stop()
        rq_log = Path(server.directory) / "rq.log"
        with rq_log.open("wb") as out:
            rq = subprocess.Popen(
                [RQ, "worker", *STOCK], env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT
            )
        try:
            time.sleep(3)
            rq_idle = rss_kib(rq.pid)
            from service.dailies.queue import enqueue_verify, queue

            q = queue(server.url, "verify")
            for aid in ids:
                client.hset(keys.attempt(aid), "verification", "queued")
                client.delete(f"rq:job:verify-{aid}")
                enqueue_verify(q, aid)
            deadline = time.monotonic() + 120
            while q.count and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(1)
            rq_worked = rss_kib(rq.pid)
        finally:
            rq.terminate()
            rq.wait(timeout=30)
    finally:
        server.stop()
    load_end = load_average()

    def med(values: list[int] | list[float]) -> str:
        return f"{statistics.median(values):,.0f}"

    n = len(ids)
    workers = [pid for pid in worked if pid != master]
    threads = config.load({"PIKDAME_SECRET": "bench"}).web_threads  # as gunicorn reads it
    lines = [
        "## Memory (bench/bench_memory.py)",
        "",
        f"Command: `{command.strip()}` · engine `{ENGINE_VERSION}` · {dt.date.today()} · "
        f"load average at the start {load_start}, at the end {load_end}.",
        "",
        f"### Redis per attempt ({n} finished daily rounds, random-discard player; "
        f"{med(game_json)} bytes of game JSON, median)",
        "",
        "| key | bytes (`MEMORY USAGE … SAMPLES 0`, median) |",
        "| --- | ---: |",
        *(f"| {name} | {med(values)} |" for name, values in sizes.items()),
        f"| RQ job after the run (kept `result_ttl` = {RESULT_TTL} s) | {med(job_done)} |",
        f"| player's all-time hash (name, days, best) | {med(player_hash)} |",
        f"| attempt hash of a round just started (playing) | {med(fresh_sizes)} |",
        "",
        "Every key's `MEMORY USAGE` summed, per attempt: "
        f"**{keys_play / n:,.0f} bytes** per finished attempt waiting for its verification; "
        f"**{keys_verify / n:,.0f} bytes** once verified and ranked (with the job's result, the "
        f"rank entry and name, the all-time entry; one stock worker took {worker_s:.1f} s). "
        f"`used_memory` growth (allocator and fixed structures included, so it is high for few "
        f"attempts): {(after_play - before) / n:,.0f} and {(after_verify - before) / n:,.0f} "
        f"bytes; {fresh_per:,.0f} bytes per attempt just started.",
        "",
        "Per key family once verified (bytes per attempt; RQ keeps a successful job and its "
        f"result for `result_ttl`, {RESULT_TTL} s, then only the `pd:` keys stay: "
        f"**{lasting / n:,.0f} bytes** per verified attempt for as long as the day is kept):",
        "",
        "| key family | bytes per attempt |",
        "| --- | ---: |",
        *(
            f"| `{family}` | {size / n:,.0f} |"
            for family, size in sorted(by_family.items(), key=lambda kv: -kv[1])
            if size / n >= 10
        ),
        "",
        f"### Redis per leaderboard entry ({args.entries:,} entries on one day)",
        "",
        f"Sorted set {zset:.0f} bytes per entry + names hash {names:.0f} bytes per entry "
        f"(`MEMORY USAGE`); `used_memory` growth {board_used:.0f} bytes per entry.",
        "",
        "### Process memory (KiB; RSS counts shared pages in full, PSS splits them)",
        "",
        "| process | idle RSS | idle PSS | after work RSS | after work PSS |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| gunicorn master (preloads app + engine) | {idle[master][0]:,} | {idle[master][1]:,} "
        f"| {worked[master][0]:,} | {worked[master][1]:,} |",
        *(
            f"| gunicorn worker {i + 1} (gthread, {threads} threads) | "
            f"{idle.get(pid, (0, 0))[0]:,} | "
            f"{idle.get(pid, (0, 0))[1]:,} | {worked[pid][0]:,} | {worked[pid][1]:,} |"
            for i, pid in enumerate(workers)
        ),
        f"| stock `rq worker` (parent; a work horse is forked per job) | {rq_idle[0]:,} | "
        f"{rq_idle[1]:,} | {rq_worked[0]:,} | {rq_worked[1]:,} |",
        "",
        "*after work*: the web after 8 rounds played over HTTP and board reads; the worker after "
        f"verifying {n} jobs.",
        "",
    ]
    write_result(args.out, lines)
    return 0


def play_games_started(url: str, games: int) -> list[str]:
    """``games`` attempts just started (no move yet), as a fresh player has them."""
    from service.app import create_app

    app = create_app(
        {
            "REDIS_URL": url,
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_LIMITS_ENABLED": False,
            "PIKDAME_RANK_ANONYMOUS": True,
        }
    )
    ids = []
    for i in range(games):
        body = app.test_client().post(f"/api/daily/{DAY}/attempts", json={"name": f"S{i}"})
        ids.append(body.get_json()["attempt"]["id"])
    return ids


if __name__ == "__main__":
    raise SystemExit(main())
