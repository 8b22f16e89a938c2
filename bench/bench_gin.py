"""Gin Rommé engine figures: replay rate and the latencies of its hot paths.

    .venv/bin/python -m bench.bench_gin [--repeats 5]

The comparison with other implementations on the same work (OpenSpiel's C++ ``gin_rummy`` and
RLCard's game: random hands played and replayed) is ``bench.bench_gin_playouts``; this benchmark
measures our own figures only.

- record replay (moves/s): ``engine.gin.replay`` of whole-match records whose two seats are humans
  (their moves were chosen by the bots), so every move is parsed, checked and applied and every
  hand dealt from the seed;
- exact minimum deadwood of random 11-card hands, and of dense ones (11 of the 28 cards 3–9, full
  of overlapping melds), each with a cold memo: p50 / p99 / max;
- the strong bot's decisions in strong-vs-plain matches: p50 / p99 / max;
- a whole daily-style match (a human against the strong bot) replayed and verified, every bot move
  recomputed: median and p99 per match.
Writes ``bench/results/gin.md``. No test asserts a timing.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from bench.bench_engine import _median
from engine.core.rng import Stream, shuffled
from engine.gin import GinMatch, Seat, choose_move, min_deadwood, replay, to_mask, view
from engine.gin.melds import _best
from engine.gin.state import HandState

RESULTS = Path(__file__).parent / "results" / "gin.md"
COMMAND = ".venv/bin/python -m bench.bench_gin"
HUMANS = (Seat("human", name="A"), Seat("human", name="B"))
DAILY = (Seat("human", name="A"), Seat("bot", level="strong"))


def _seed(k: int | str) -> bytes:
    return hashlib.sha256(f"bench-gin/{k}".encode()).digest()


def bot_played(seed: bytes, seats: tuple[Seat, Seat]) -> dict[str, Any]:
    """A finished match whose human seats play as the bots would (seat 0 plain, seat 1 strong)."""
    match = GinMatch.start(seed, seats)
    levels = ("plain", "strong")
    while not match.finished:
        seat = match.state.turn
        match.play(choose_move(levels[seat], match.view(seat)), seat)
    return match.to_record(reveal_seed=True)


def replay_rate(records: list[dict[str, Any]], seconds: float = 2.0) -> float:
    """Moves per second over whole-record replays, repeated for ``seconds``."""
    moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for r in records:
            replay(r)
            moves += len(r["moves"])
    return moves / (time.perf_counter() - started)


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """p50, p99 and max, in milliseconds."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, (99 * len(ordered)) // 100)]
    return 1000 * statistics.median(ordered), 1000 * p99, 1000 * ordered[-1]


Samples = tuple[list[float], list[float]]  # wall-clock and CPU (thread) seconds


def timed(fn: Callable[[], object], samples: Samples) -> None:
    """Run ``fn`` once, adding its wall-clock and CPU time to ``samples``. The machine is shared
    (other processes preempt us), so wall-clock tails show the machine; CPU time shows the code."""
    w, c = time.perf_counter(), time.thread_time()
    fn()
    samples[1].append(time.thread_time() - c)
    samples[0].append(time.perf_counter() - w)


#: The 28 cards 3–9 of every suit: hands drawn from them are full of overlapping sets and runs.
DENSE = [s * 13 + r for s in range(4) for r in range(2, 9)]


def deadwood_times(n: int, deck: list[int]) -> Samples:
    """Exact minimum deadwood of ``n`` 11-card hands drawn from ``deck``, each with a cold memo
    (the search's own memo cleared before it), so every figure is a hand seen for the first time."""
    hands = [
        to_mask(deck[i] for i in shuffled(Stream(_seed(f"dw/{k}")), len(deck))[:11])
        for k in range(n)
    ]
    samples: Samples = ([], [])
    for hand in hands:
        _best.cache_clear()
        timed(partial(min_deadwood, hand), samples)
    return samples


def strong_decision_times(matches: int) -> Samples:
    samples: Samples = ([], [])
    for k in range(matches):
        match = GinMatch.start(_seed(f"dec/{k}"), HUMANS)
        levels = ("strong", "plain") if k % 2 == 0 else ("plain", "strong")
        while not match.finished:
            state: HandState = match.state
            seat = state.turn
            v = view(state, seat)
            if levels[seat] == "strong":
                timed(partial(choose_move, "strong", v), samples)
            match.play(choose_move(levels[seat], v), seat)
    return samples


def verify_times(records: list[dict[str, Any]]) -> Samples:
    samples: Samples = ([], [])
    for r in records:
        timed(partial(replay, r), samples)
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--records", type=int, default=30)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--matches", type=int, default=40)
    args = parser.parse_args(argv)

    records = [bot_played(_seed(k), HUMANS) for k in range(args.records)]
    daily = [bot_played(_seed(f"daily/{k}"), DAILY) for k in range(args.records)]
    moves = sum(len(r["moves"]) for r in records)
    columns: dict[str, Callable[[], float | None]] = {
        "Gin record replay moves/s": lambda: replay_rate(records)
    }
    runs: dict[str, list[float | None]] = {k: [] for k in columns}
    for _ in range(args.repeats):
        for name, fn in columns.items():
            runs[name].append(fn())
    med = {k: _median(v) for k, v in runs.items()}
    dw = deadwood_times(args.hands, list(range(52)))
    dense = deadwood_times(args.hands // 4, DENSE)
    dec = strong_decision_times(args.matches)
    ver = verify_times(daily)

    def fmt(x: float | None) -> str:
        return "n/a" if x is None else f"{x:,.0f}"

    lines = [
        "## Gin Rommé engine",
        "",
        f"Command: `{' '.join([COMMAND, *(argv if argv is not None else sys.argv[1:])])}`",
        f"Machine: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one core, {args.repeats} repeats; medians. "
        f"Load average after the run: {', '.join(f'{x:.1f}' for x in os.getloadavg())}.",
        f"Replay corpus: {len(records)} whole matches to 100 with two human seats whose moves "
        f"the bots chose, {moves} moves ({moves / len(records):.0f} per match); each replay "
        "deals every hand from the seed and checks every move and the hand results and totals; "
        "the corpus is replayed over and over for 2 s per run. Beside OpenSpiel and RLCard on "
        "the same work: the Gin random playouts section (`bench.bench_gin_playouts`).",
        "",
        "| figure | median | all runs |",
        "| --- | ---: | --- |",
    ]
    for name in columns:
        lines.append(f"| {name} | {fmt(med[name])} | {', '.join(fmt(r) for r in runs[name])} |")
    lines += [
        "",
        "Latencies: wall clock (what a caller waits on this shared 2-core machine, preemption "
        "included) and CPU time of the thread (the code's own cost).",
        "",
        "| figure | clock | p50 ms | p99 ms | max ms | goal |",
        "| --- | --- | ---: | ---: | ---: | --- |",
    ]
    rows = [
        (f"exact minimum deadwood, {args.hands:,} random 11-card hands", dw, 4, "p99 ≤ 0.2"),
        (f"… {args.hands // 4:,} dense hands (11 of the 3–9s)", dense, 4, "p99 ≤ 0.2"),
        (f"strong-bot decision, {len(dec[0]):,} decisions in {args.matches} matches", dec, 3,
         "p99 ≤ 5"),
        (f"whole match verified (a human vs the strong bot, every bot move recomputed), "
         f"{len(daily)} matches", ver, 1, "median ≤ 100"),
    ]  # fmt: skip
    for name, samples, digits, goal in rows:
        for clock, values in zip(("wall", "CPU"), samples, strict=True):
            p50, p99, top = percentiles(values)
            lines.append(
                f"| {name} | {clock} | {p50:.{digits}f} | {p99:.{digits}f} | {top:.{digits}f} "
                f"| {goal} |"
            )
    text = "\n".join(lines) + "\n"
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
