"""Service benchmark: verifications per core-hour, move latency, leaderboard reads at 1M entries.

    .venv/bin/python -m bench.bench_http [--games 30] [--entries 1000000]

Starts its own redis-server on a free port; writes bench/results/service.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import redis

from engine import ENGINE_VERSION
from service import ranking
from service.app import create_app
from tests.support.player import play_to_end
from tests.support.servers import start_redis
from worker.verify import verify

ROOT = Path(__file__).resolve().parent.parent
RESULT = ROOT / "bench" / "results" / "service.md"
SECRET = b"bench-secret"
DAY = dt.datetime.now(dt.UTC).date().isoformat()  # today: the gunicorn run uses the real clock


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.2f} ms"


def play_games(url: str, games: int) -> tuple[list[str], list[float]]:
    """Finish ``games`` attempts through the API (in-process WSGI); returns ids and move times."""
    clock = dt.datetime.combine(dt.date.fromisoformat(DAY), dt.time(12), dt.UTC)
    app = create_app(
        {
            "REDIS_URL": url,
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_NOW": lambda: clock,
            "PIKDAME_LIMITS_ENABLED": False,
        }
    )
    ids, move_times = [], []
    for i in range(games):
        client = app.test_client()
        body = client.post(f"/api/daily/{DAY}/attempts", json={"name": f"B{i}"}).get_json()
        aid = body["attempt"]["id"]

        def call(method: str, path: str, data: Any, client: Any = client) -> tuple[int, Any]:
            started = time.perf_counter()
            response = client.open(path, method=method, json=data)
            if method == "POST":
                move_times.append(time.perf_counter() - started)
            return response.status_code, response.get_json()

        play_to_end(call, aid, use_hints=i % 2 == 0)
        ids.append(aid)
    return ids, move_times


def bench_verify(client: redis.Redis[str], ids: list[str]) -> list[float]:
    times = []
    for aid in ids:
        started = time.process_time()
        assert verify(client, aid, SECRET)["status"] == "verified"
        times.append(time.process_time() - started)
    return times


def burst(url: str, *extra: str) -> float:
    """Wall time of one stock ``rq worker --burst`` run (start-up included)."""
    env = {
        **os.environ,
        "REDIS_URL": url,
        "PIKDAME_SECRET": SECRET.decode(),
        "PYTHONPATH": str(ROOT),
    }
    rq = str(Path(sys.executable).with_name("rq"))
    started = time.perf_counter()
    subprocess.run(
        [rq, "worker", "-c", "worker.settings", "--serializer", "json", "--burst", "-q", *extra],
        env=env,
        cwd=ROOT,
        check=True,
    )
    return time.perf_counter() - started


def bench_worker(
    url: str, client: redis.Redis[str], ids: list[str], *extra: str
) -> tuple[float, float, int]:
    """(start-up, per job) seconds of a stock worker: an empty burst, then one with every id
    (RQ forks a work horse per job; that cost is in the per-job figure)."""
    from service.queue import enqueue_verify, queue

    startup = burst(url, *extra)
    # copies of the finished attempts (new ids and players) give the worker enough jobs to time
    copies = []
    for i in range(max(1, 300 // len(ids))):
        for aid in ids:
            fields: dict[str | bytes, str] = {}
            fields.update(client.hgetall(f"pd:attempt:{aid}"))
            copy = f"{aid}c{i}"
            fields.update({"id": copy, "player": copy})
            client.hset(f"pd:attempt:{copy}", mapping=fields)
            copies.append(copy)
    ids = copies
    for aid in ids:
        client.hset(f"pd:attempt:{aid}", "verification", "queued")
        client.delete(f"rq:job:verify-{aid}")
    q = queue(url, "verify")
    for aid in ids:
        enqueue_verify(q, aid)
    wall = burst(url, *extra)
    done = sum(client.hget(f"pd:attempt:{a}", "verification") == "verified" for a in ids)
    assert done == len(ids), f"{done} of {len(ids)} verified"
    return startup, (wall - startup) / len(ids), len(ids)


def bench_board(client: redis.Redis[str], entries: int) -> dict[str, list[float]]:
    rng = random.Random(7)
    key = f"pd:day:{DAY}:rank"
    client.delete(key)
    pipe = client.pipeline(transaction=False)
    for i in range(entries):
        score = rng.randint(-600, 600)
        pipe.zadd(
            key, {f"m{i}": ranking.rank_key(score, rng.randint(5, 60), rng.randint(0, 80_000_000))}
        )
        if i % 10000 == 9999:
            pipe.execute()
    pipe.execute()
    times: dict[str, list[float]] = {"top 50": [], "middle page": [], "around (r=5)": []}
    for _ in range(200):
        member = f"m{rng.randrange(entries)}"
        for name, run in (
            ("top 50", lambda: ranking.day_page(client, DAY, 0, 50)),
            ("middle page", lambda: ranking.day_page(client, DAY, entries // 2, 50)),
            ("around (r=5)", lambda m=member: ranking.around(client, DAY, m, 5)),
        ):
            started = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - started)
    return times


def bench_wrk(url: str, seconds: int) -> dict[str, tuple[str, str]]:
    """Requests/s and median latency of real HTTP reads against gunicorn (2 processes ×
    4 threads), measured with wrk (2 threads, 16 connections); empty when wrk is missing."""
    import re
    import shutil
    import tempfile

    from tests.support.processes import service_env, start_web

    wrk = shutil.which("wrk")
    if wrk is None:
        return {}
    results: dict[str, tuple[str, str]] = {}
    log = Path(tempfile.mkdtemp()) / "web.log"
    web = start_web(service_env(url, SECRET.decode()), log)
    try:
        for name, path in (
            ("GET /api/daily", "/api/daily"),
            ("GET /api/leaderboard/{today}?limit=50", f"/api/leaderboard/{DAY}?limit=50"),
        ):
            out = subprocess.run(
                [wrk, "-t2", "-c16", f"-d{seconds}s", "--latency", web.base + path],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            rate = re.search(r"Requests/sec:\s+([0-9.]+)", out)
            p50 = re.search(r"50%\s+([0-9.]+\w+)", out)
            results[name] = (rate.group(1) if rate else "?", p50.group(1) if p50 else "?")
    finally:
        web.process.stop()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--entries", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    command = "python -m bench.bench_http " + " ".join(argv or sys.argv[1:])
    server = start_redis()
    try:
        client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
        ids, move_times = play_games(server.url, args.games)
        verify_times = bench_verify(client, ids)
        for aid in ids:  # undo the ranking so the worker run judges them afresh
            client.hdel(f"pd:attempt:{aid}", "verification")
        client.delete(f"pd:day:{DAY}:rank", "pd:alltime")
        for key in client.scan_iter("pd:player:*"):
            client.delete(key)
        startup, per_job, jobs = bench_worker(server.url, client, ids)
        simple = bench_worker(server.url, client, ids, "-w", "rq.worker.SimpleWorker")
        board = bench_board(client, args.entries)
        http = bench_wrk(server.url, 5)
    finally:
        server.close()
    per_verify = statistics.mean(verify_times)
    per_hour = 3600 / per_verify
    per_hour_worker = 3600 / per_job
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        "## Service (bench/bench_http.py)",
        "",
        f"Command: `{command.strip()}` · engine `{ENGINE_VERSION}` · {dt.date.today()} · "
        f"load average at the end {load} on {os.cpu_count()} cores (shared: timings are noisy)",
        "",
        "| what | figure |",
        "| --- | --- |",
        f"| games played through the API (in-process WSGI, real Redis) | {len(ids)} |",
        f"| POST move (player move + bot answers + save), median | {ms(move_times)} |",
        f"| verification (replay + rank), CPU per attempt, mean | {per_verify * 1000:.2f} ms |",
        f"| verifications per core-hour (job code alone) | {per_hour:,.0f} |",
        "| stock `rq worker --burst`: start-up / per job (fork per job included) | "
        f"{startup:.2f} s / {per_job * 1000:.1f} ms ({jobs} jobs, all verified) |",
        f"| verifications per worker-hour (fork per job included) | {per_hour_worker:,.0f} |",
        "| same with `-w rq.worker.SimpleWorker` (no fork): per job, per hour | "
        f"{simple[1] * 1000:.1f} ms, {3600 / simple[1]:,.0f} |",
        f"| leaderboard of {args.entries:,} entries: top 50, median | {ms(board['top 50'])} |",
        f"| … page of 50 in the middle, median | {ms(board['middle page'])} |",
        f"| … around one attempt (radius 5), median | {ms(board['around (r=5)'])} |",
        *(
            f"| {name} over HTTP (gunicorn 2×4, wrk -t2 -c16 -d5s): req/s, median | {rate}, {p50} |"
            for name, (rate, p50) in http.items()
        ),
        "",
        f"A million players a day at the worker rate above need about "
        f"{1_000_000 / per_hour_worker:,.1f} worker-hours, i.e. "
        f"{1_000_000 / per_hour_worker / 24:,.2f} workers busy around the clock "
        "(peaks need more; see deploy/SCALING.md).",
        "",
    ]
    RESULT.parent.mkdir(parents=True, exist_ok=True)
    RESULT.write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
