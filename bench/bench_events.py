"""The week's tournament's standings (docs/EVENTS.md): folding one verified result in at 1,000 and
100,000 entrants × 6 deals, beside the reads.

    .venv/bin/python -m bench.bench_events [--big 100000] [--small 1000] [--folds 2000]

Fills an event through the real fold script (``service.events.store.fold``, pipelined) with every
entrant's 6 results (scores by a fixed formula over -300 … 300, no randomness), then times, one
client against a real redis-server (AOF as deployed), round trips included: the fold of one new
result (new entrants on deal 1, each once), a player's matchpoints on a deal (``deal_result``),
and the whole standings computed from the counts (``standings``, what a cached page would be
built from). Writes bench/results/events.md.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import redis

from bench.loadkit import ROOT, command_line, load_average, start_redis, write_result
from engine.core.events import EVENT_DEALS
from service.events import store

RESULT = ROOT / "bench" / "results" / "events.md"
GAME, WEEK = "pikdame", "2026-W50"
CHUNK = 5_000


def score(i: int, n: int) -> int:
    return (i * 7919 + n * 104729) % 601 - 300


def fill(client: redis.Redis[str], size: int) -> None:
    client.flushdb()
    for first in range(0, size, CHUNK):
        pipe = client.pipeline(transaction=False)
        for i in range(first, min(first + CHUNK, size)):
            for n in range(1, EVENT_DEALS + 1):
                store.fold(pipe, GAME, WEEK, f"p{i}", n, score(i, n), 1_000 + i)
        pipe.execute()


def median_us(action: Callable[[int], object], times: int) -> float:
    spent = []
    for k in range(times):
        start = time.perf_counter()
        action(k)
        spent.append(time.perf_counter() - start)
    return statistics.median(spent) * 1e6


def run(url: str, size: int, folds: int) -> dict[str, float]:
    client: redis.Redis[str] = redis.Redis.from_url(url, decode_responses=True)
    fill(client, size)
    figures = {
        "fold": median_us(
            lambda k: store.fold(client, GAME, WEEK, f"new{k}", 1, score(k, 9), 5_000_000), folds
        ),
        "deal_result": median_us(
            lambda k: store.deal_result(client, GAME, WEEK, f"p{k % size}", 1 + k % 6), folds
        ),
    }
    started = time.perf_counter()
    lines, _ = store.standings(client, GAME, WEEK)
    assert len(lines) == size
    figures["standings"] = (time.perf_counter() - started) * 1e6
    client.close()
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--big", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--folds", type=int, default=2000)
    args = parser.parse_args(argv)
    server = start_redis()
    try:
        small = run(server.url, args.small, args.folds)
        big = run(server.url, args.big, args.folds)
    finally:
        server.stop()
    lines = [
        "## The week's tournament: folding a result into the standings",
        "",
        f"`{command_line('bench.bench_events', argv)}` — load {load_average()}",
        "",
        f"Events of {args.small:,} and {args.big:,} entrants × {EVENT_DEALS} deals filled through",
        "the fold script; one client, real redis-server (AOF), round trips included. `fold` and",
        f"`deal_result` are medians of {args.folds:,} calls; `standings` (every entrant's score",
        "from the deals' counts, sorted; the work behind a cached standings page, not a",
        "per-result cost) is one run. docs/EVENTS.md.",
        "",
        f"| operation | µs at {args.small:,} | µs at {args.big:,} | ratio |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name in ("fold", "deal_result", "standings"):
        lines.append(
            f"| `{name}` | {small[name]:,.0f} | {big[name]:,.0f} | {big[name] / small[name]:.2f} |"
        )
    lines.append("")
    write_result(RESULT, lines)


if __name__ == "__main__":
    main()
