"""Engine throughput beside its reference points, measured side by side in one run.

    .venv/bin/python -m bench.bench_engine [--ref-python var/refvenv/bin/python] [--repeats 5]

Measures validated record replay (moves/s), random legal 4-seat rounds (rounds/s) and deals
(deals/s) for our engine, and, given a throwaway interpreter with ``open_spiel`` and ``rlcard``,
OpenSpiel's C++ gin rummy (actions/s through its Python binding) and RLCard's pure-Python gin rummy
(random games/s), alternating the runs so that machine noise hits both alike. Writes
``bench/results/engine.md``. Never a project dependency: the references live in their own venv.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import Game, Rules, Seat, State, replay

RESULTS = Path(__file__).parent / "results" / "engine.md"
COMMAND = ".venv/bin/python -m bench.bench_engine"


def _seed(k: int) -> bytes:
    return hashlib.sha256(f"bench/{k}".encode()).digest()


def _pick(seed: bytes, i: int, n: int) -> int:
    """A deterministic 'random' index (no random module): SHA-256 of seed and step."""
    return int.from_bytes(hashlib.sha256(seed + i.to_bytes(4, "big")).digest()[:4], "big") % n


def play_random(state: State, seed: bytes) -> State:
    """Uniform random legal moves (melds of 3 cards; resign excluded) until the round ends."""
    i = 0
    while state.outcome is None:
        moves = [m for m in state.legal_moves(max_meld=3) if m.kind != "resign"]
        state.push(moves[_pick(seed, i, len(moves))])
        i += 1
    return state


def random_round(seed: bytes) -> State:
    return play_random(State.new_round(seed, Rules(players=4), dealer=3), seed)


def human_record(seed: bytes) -> dict[str, Any]:
    """A finished random round written as a game record (F6) with four human seats."""
    seats = tuple(Seat("human", name=f"P{i}") for i in range(4))
    game = Game.start(seed, Rules(players=4), seats, dealer=3)
    play_random(game.state, seed)
    return game.to_record(seed)


def bench_replay(records: list[dict[str, Any]]) -> float:
    moves = sum(len(r["moves"]) for r in records)
    t = time.perf_counter()
    for r in records:
        replay(r)
    return moves / (time.perf_counter() - t)


def bench_rounds(n: int, offset: int) -> float:
    t = time.perf_counter()
    for k in range(n):
        random_round(_seed(offset + k))
    return n / (time.perf_counter() - t)


def bench_deals(n: int) -> float:
    t = time.perf_counter()
    for k in range(n):
        State.new_round(_seed(k), Rules(players=4), dealer=3)
    return n / (time.perf_counter() - t)


OPENSPIEL = """
import time, random, pyspiel
random.seed(1)
game = pyspiel.load_game("gin_rummy")
n = 0
t = time.perf_counter()
while time.perf_counter() - t < 2.0:
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            a = random.choice([o for o, _ in s.chance_outcomes()])
        else:
            a = random.choice(s.legal_actions())
        s.apply_action(a)
        n += 1
print(n / (time.perf_counter() - t))
"""

RLCARD = """
import time, rlcard
from rlcard.agents import RandomAgent
env = rlcard.make("gin-rummy", config={"seed": 1})
env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
n = 0
t = time.perf_counter()
while time.perf_counter() - t < 2.0:
    env.run(is_training=False)
    n += 1
print(n / (time.perf_counter() - t))
"""


def _ref(python: str, code: str) -> float | None:
    try:
        out = subprocess.run(
            [python, "-c", code], capture_output=True, text=True, timeout=120, check=True
        )
        return float(out.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def _median(runs: list[float | None]) -> float | None:
    values = [r for r in runs if r is not None]
    return statistics.median(values) if values else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref-python", default=None, help="interpreter with open_spiel, rlcard")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--records", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args(argv)

    records = [human_record(_seed(10_000 + k)) for k in range(args.records)]
    moves = sum(len(r["moves"]) for r in records)
    columns: dict[str, Callable[[int], float | None]] = {
        "replay moves/s": lambda i: bench_replay(records),
        "random rounds/s": lambda i: bench_rounds(args.rounds, 1000 * i),
        "deals/s": lambda i: bench_deals(500),
    }
    if args.ref_python:
        ref = args.ref_python
        columns["OpenSpiel gin rummy actions/s"] = lambda i: _ref(ref, OPENSPIEL)
        columns["RLCard gin rummy games/s"] = lambda i: _ref(ref, RLCARD)
    runs: dict[str, list[float | None]] = {k: [] for k in columns}
    for i in range(args.repeats):  # interleaved: every figure sees the same noise
        for name, fn in columns.items():
            runs[name].append(fn(i))
    med = {k: _median(v) for k, v in runs.items()}

    def fmt(x: float | None) -> str:
        return "n/a" if x is None else f"{x:,.0f}"

    lines = [
        "## Engine throughput (issue 2)",
        "",
        f"Command: `{' '.join([COMMAND, *(argv or sys.argv[1:])])}`",
        f"Machine: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one core, {args.repeats} interleaved repeats; medians. "
        f"Load average after the run: {', '.join(f'{x:.1f}' for x in os.getloadavg())}.",
        f"Replay corpus: {len(records)} random 4-seat rounds, {moves} moves "
        f"({moves / len(records):.0f} per round); each replay deals from the seed, checks every "
        "move and compares the result (`engine.replay`). Random rounds: uniform choice among "
        f"`legal_moves(max_meld=3)` (resign excluded), {args.rounds} rounds per repeat.",
        "",
        "| figure | median | all runs |",
        "| --- | ---: | --- |",
    ]
    for name in columns:
        lines.append(f"| {name} | {fmt(med[name])} | {', '.join(fmt(r) for r in runs[name])} |")
    goals = [
        ("replay moves/s", 50_000, "OpenSpiel gin rummy actions/s"),
        ("random rounds/s", 110, "RLCard gin rummy games/s"),
    ]
    lines += ["", "| ours | goal | reference | ours / reference |", "| --- | ---: | ---: | ---: |"]
    for ours, goal, ref_name in goals:
        ref_value, ours_value = med.get(ref_name), med[ours]
        ratio = "n/a" if not ref_value or not ours_value else f"{ours_value / ref_value:.2f}x"
        lines.append(
            f"| {ours} {fmt(med[ours])} | {goal:,} | {ref_name} {fmt(ref_value)} | {ratio} |"
        )
    text = "\n".join(lines) + "\n"
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(text)
    print(text)
    print(json.dumps({k: v for k, v in med.items()}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
