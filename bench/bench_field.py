"""The place in the field and league boards on a small and a 1,000,000-entry day board.

    .venv/bin/python -m bench.bench_field [--big 1000000] [--small 1000] [--reads 2000]

Fills day boards (service.dailies.ranking keys) server-side by a Lua loop, COPYs the day to the 29
days before it (the league all-time board reads 30 days), fills each day's score histogram, gives
50 league members a verified score on each of the 30 days, then times the reads each request makes
(service.habit.field.place + histogram; leagues.day_board; leagues.all_time_board) and counts the
Redis commands each sends (INFO commandstats). Writes bench/results/field.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time
from collections.abc import Callable
from typing import Any

import redis

from bench.loadkit import ROOT, command_line, load_average, start_redis, write_result
from service.common import keys
from service.dailies import ranking
from service.habit import field, leagues

RESULT = ROOT / "bench" / "results" / "field.md"
TODAY = "2026-11-30"
MEMBERS = 50
CHUNK = 20_000

# Scores spread over -300 … 300 by a fixed formula (no randomness): key = R11's rank key layout
# (score in the top bits, the rest distinct per entry).
FILL_LUA = """
local from, n, shift = tonumber(ARGV[1]), tonumber(ARGV[2]), 2 ^ 38
for first = from, n, 1000 do
  local args = {}
  for i = first, math.min(first + 999, n) do
    local s = (i * 7919) % 601 - 300
    args[#args + 1] = (s + 4096) * shift + i
    args[#args + 1] = 'a' .. i
    redis.call('HINCRBY', KEYS[2], math.floor(s / 10) * 10, 1)
  end
  redis.call('ZADD', KEYS[1], unpack(args))
end
return n
"""


def dates() -> list[str]:
    end = dt.date.fromisoformat(TODAY)
    return [(end - dt.timedelta(days=i)).isoformat() for i in range(leagues.WINDOW_DAYS)]


def fill(client: redis.Redis[str], size: int) -> str:
    """One league over 30 boards of ``size`` entries; returns its code."""
    client.flushdb()
    for first in range(1, size + 1, CHUNK):  # one short script call per chunk
        last = min(first + CHUNK - 1, size)
        client.eval(  # type: ignore[no-untyped-call]
            FILL_LUA, 2, keys.day_rank(TODAY), keys.day_histogram(TODAY), first, last
        )
    for d in dates()[1:]:
        client.copy(keys.day_rank(TODAY), keys.day_rank(d))
        client.copy(keys.day_histogram(TODAY), keys.day_histogram(d))
    code = leagues.create(client, "Bench", "p:m0", 0)
    for m in range(MEMBERS):
        owner = f"p:m{m}"
        leagues.join(client, code, owner)
        client.hset(keys.owner(owner), "name", f"M{m}")
        client.hset(
            keys.owner_days(owner, leagues.GAME),
            mapping={d: str((m * 37 + i * 11) % 601 - 300) for i, d in enumerate(dates())},
        )
    return code


def closed(date: str) -> bool:
    """Every day before the benchmark's today has closed."""
    return date < TODAY


def commands(client: redis.Redis[str]) -> int:
    stats = client.info("commandstats")
    return sum(int(v["calls"]) for k, v in stats.items() if k not in ("cmdstat_info",))


def measure(client: redis.Redis[str], reads: int, read: Callable[[], Any]) -> tuple[float, float]:
    """(median µs, Redis commands per read)."""
    read()
    before = commands(client)
    times = []
    for _ in range(reads):
        start = time.perf_counter()
        read()
        times.append((time.perf_counter() - start) * 1e6)
    per_read = (commands(client) - before) / reads
    return statistics.median(times), per_read


def run(url: str, size: int, reads: int) -> dict[str, tuple[float, float]]:
    client: redis.Redis[str] = redis.Redis.from_url(url, decode_responses=True, socket_timeout=600)
    started = time.perf_counter()
    code = fill(client, size)
    print(f"filled {size:,} × {leagues.WINDOW_DAYS} in {time.perf_counter() - started:.1f} s")
    score = 17
    return {
        "place (3 ZCOUNT/ZCARD)": measure(
            client, reads, lambda: field.place(client, TODAY, score, True)
        ),
        "histogram (HGETALL)": measure(client, reads, lambda: field.histogram(client, TODAY)),
        f"league day board ({MEMBERS} members)": measure(
            client, max(reads // 10, 20), lambda: leagues.day_board(client, code, TODAY, closed)
        ),
        f"league all-time board ({MEMBERS} × {leagues.WINDOW_DAYS} days)": measure(
            client,
            max(reads // 100, 10),
            lambda: leagues.all_time_board(client, code, TODAY, closed),
        ),
        "rank of one attempt (ZREVRANK)": measure(
            client, reads, lambda: ranking.rank_of(client, TODAY, "a777")
        ),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--big", type=int, default=1_000_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--reads", type=int, default=2000)
    args = parser.parse_args(argv)
    server = start_redis()
    try:
        small = run(server.url, args.small, args.reads)
        big = run(server.url, args.big, args.reads)
    finally:
        server.stop()
    lines = [
        "## Place in the field and league boards",
        "",
        f"`{command_line('bench.bench_field', argv)}` — load {load_average()}",
        "",
        "Median time of the reads behind one request (one client, real redis-server on this",
        "machine, round trips included) and the Redis commands each sends, on day boards of",
        f"{args.small:,} and {args.big:,} verified entries (each of the {leagues.WINDOW_DAYS}",
        "days a league's all-time board reads holds that many). The matchpoint percentage is",
        "two ZCOUNTs and a ZCARD (O(log n)); the histogram a hash of score buckets (its size is",
        "the number of buckets, never n); a league board costs O(members × days × log n) the",
        "first time a closed day is read, then its kept matchpoints (one HMGET per member) and",
        "O(members × log n) for the open day (as timed:",
        "each read is repeated, so the all-time board's 29 closed days come from what it kept).",
        "Commands count those a Lua script runs too (INFO commandstats).",
        "",
        f"| read | µs at {args.small:,} | µs at {args.big:,} | ratio | commands |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name, (us_small, calls) in small.items():
        us_big, calls_big = big[name]
        assert calls == calls_big
        lines.append(
            f"| {name} | {us_small:,.0f} | {us_big:,.0f} | {us_big / us_small:.2f}x | {calls:g} |"
        )
    write_result(RESULT, [*lines, ""])


if __name__ == "__main__":
    main()
