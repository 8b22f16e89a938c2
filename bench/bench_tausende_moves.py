"""Tausende's ``legal_moves`` (R12): the fast implementation beside the first one (every
candidate tried with ``push`` on a copy, kept as the reference in tests/support/tausende.py),
measured side by side in one run on the same positions.

    .venv/bin/python -m bench.bench_tausende_moves [--positions 1500] [--rounds 60] [--repeats 5]

Positions come from rounds of bot and random play (2–4 seats, seeded, no random module): the
time per ``list(legal_moves())`` call (median and p99 over positions, the best of the repeats per
position), and random rounds per second (uniform legal moves with melds of 3 cards, as
bench_engine's "Tausende random rounds/s") with either implementation. Both lists are checked
equal on every position before anything is timed. Writes ``bench/results/tausende_moves.md``.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from engine.pikdame.bots import choose_move
from engine.pikdame.moves import Move
from engine.pikdame.rules import Rules
from engine.pikdame.state import State
from engine.pikdame.tausende import TausendeState
from engine.pikdame.view import view
from tests.support.tausende import legal_moves_by_trying

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "tausende_moves.md"
COMMAND = ".venv/bin/python -m bench.bench_tausende_moves"
LEVELS = ("beginner", "advanced", "zen")
Lister = Callable[[TausendeState, int | None], list[Move]]


def fast(s: TausendeState, max_meld: int | None = None) -> list[Move]:
    return list(s.legal_moves(max_meld))


IMPLEMENTATIONS: dict[str, Lister] = {
    "first (tried on a copy)": legal_moves_by_trying,
    "fast": fast,
}


def _pick(seed: bytes, i: int, n: int) -> int:
    return int.from_bytes(hashlib.sha256(seed + i.to_bytes(4, "big")).digest()[:4], "big") % n


def _round(k: int) -> tuple[bytes, TausendeState]:
    seed = hashlib.sha256(f"bench-tausende/{k}".encode()).digest()
    players = 2 + k % 3
    s = State.new_round(seed, Rules(players, ruleset="tausende"), players - 1)
    assert isinstance(s, TausendeState)
    return seed, s


def corpus(size: int) -> list[TausendeState]:
    """Positions of bot play (so seats open, meld and lay off, R12.3/R12.5) with every fourth
    move a uniformly chosen legal one."""
    positions: list[TausendeState] = []
    k = 0
    while len(positions) < size:
        seed, s = _round(k)
        i = 0
        while s.outcome is None and len(positions) < size:
            positions.append(s.copy())
            if i % 4 == 3:
                moves = [m for m in s.legal_moves() if m.kind != "resign"]
                move = moves[_pick(seed, i, len(moves))]
            else:
                move = choose_move(LEVELS[i % 3], view(s, s.turn))
            s.push(move)
            i += 1
        k += 1
    return positions


def per_call_us(positions: list[TausendeState], lister: Lister, repeats: int) -> list[float]:
    """Each position's best time of ``repeats`` calls, in microseconds."""
    times = []
    for s in positions:
        best = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            lister(s, None)
            best = min(best, time.perf_counter() - t0)
        times.append(best * 1e6)
    return times


def rounds_per_s(rounds: int, lister: Lister) -> float:
    t0 = time.perf_counter()
    for k in range(rounds):
        seed, s = _round(10_000 + k)
        i = 0
        while s.outcome is None:
            moves = [m for m in lister(s, 3) if m.kind != "resign"]
            s.push(moves[_pick(seed, i, len(moves))])
            i += 1
    return rounds / (time.perf_counter() - t0)


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    positions = corpus(args.positions)
    for s in positions:  # the same answers, or no figure at all
        assert [str(m) for m in fast(s)] == [str(m) for m in legal_moves_by_trying(s)]
        assert [str(m) for m in fast(s, 3)] == [str(m) for m in legal_moves_by_trying(s, 3)]
    calls: dict[str, list[float]] = {name: [] for name in IMPLEMENTATIONS}
    rounds: dict[str, list[float]] = {name: [] for name in IMPLEMENTATIONS}
    for _ in range(3):  # alternating, so machine noise hits both alike
        for name, lister in IMPLEMENTATIONS.items():
            calls[name].append(statistics.median(per_call_us(positions, lister, args.repeats)))
            rounds[name].append(rounds_per_s(args.rounds, lister))
    tails = {
        name: p99(per_call_us(positions, lister, 1)) for name, lister in IMPLEMENTATIONS.items()
    }
    first, new = IMPLEMENTATIONS
    rows = [
        f"| {name} | {statistics.median(calls[name]):,.1f} | {tails[name]:,.0f} | "
        f"{statistics.median(rounds[name]):,.1f} |"
        for name in IMPLEMENTATIONS
    ]
    speed_call = statistics.median(calls[first]) / statistics.median(calls[new])
    speed_rounds = statistics.median(rounds[new]) / statistics.median(rounds[first])
    text = f"""## Tausende legal_moves (R12): the fast implementation beside the first

Command: `{COMMAND} --positions {args.positions} --rounds {args.rounds} --repeats {args.repeats}`
({platform.python_implementation()} {platform.python_version()}, one process, the two
implementations alternating three times; medians of the three). {len(positions)} positions of
2–4-seat rounds of bot play with every fourth move a random legal one; both implementations'
lists checked identical on every position (with and without `max_meld=3`) before timing. "per
call" is `list(legal_moves())` (every meld size), each position's best of {args.repeats} calls;
p99 over positions of single calls; random rounds use `legal_moves(max_meld=3)`, as
bench_engine's "Tausende random rounds/s".

| implementation | per call median µs | per call p99 µs | random rounds/s |
| --- | ---: | ---: | ---: |
{chr(10).join(rows)}

The fast one: {speed_call:.1f}× faster per call, {speed_rounds:.1f}× the random rounds per second.
The first tried every candidate with `push` on a copy of the state (its history included); the
fast one applies push's own checks (R12.3–R12.8) without a copy. Equality is proved by
tests/pikdame/test_tausende_legal_moves.py, not by this benchmark.
"""
    RESULTS.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
