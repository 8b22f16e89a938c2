"""Pik Dame's and Tausende's engine throughput beside an earlier release, side by side in one run.

    .venv/bin/python -m bench.bench_engine [--before-rev 949ac3b] [--cpu] [--repeats 5]

Measures validated record replay (moves/s), random legal 4-seat rounds (rounds/s), deals
(deals/s) and the meld optimiser (hands/s) for our engine; with ``--before-rev`` also for the
engine of an earlier commit (its tree exported to ``var/bench-before/<rev>`` with ``git
archive``), doing the same work, so a change is compared with what it replaced. No other program
plays Pik Dame, so its previous release is its reference (Gin's references, OpenSpiel and RLCard,
are measured on Gin's own work by ``bench.bench_gin_playouts``). Every tree is measured in its own
process, the runs alternating so that machine noise hits all alike. Writes
``bench/results/engine.md``.
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

from engine import Card, Game, Rules, Seat, State, replay

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "engine.md"
COMMAND = ".venv/bin/python -m bench.bench_engine"
FIGURES = (
    "replay moves/s",
    "random rounds/s",
    "deals/s",
    "optimiser hands/s",
    "Tausende replay moves/s",
    "Tausende random rounds/s",
)
#: The clock our figures are timed with: wall time, or (``--cpu``) this process's CPU time, which
#: a machine shared with other work disturbs far less (the engine is single-threaded).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


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


def tausende_rules() -> Rules | None:
    """Tausende's rules (R12), or None for an engine from before the ruleset."""
    try:
        return Rules(players=4, ruleset="tausende")  # type: ignore[call-arg,unused-ignore]
    except TypeError:
        return None


def random_round(seed: bytes, rules: Rules | None = None) -> State:
    return play_random(State.new_round(seed, rules or Rules(players=4), dealer=3), seed)


def human_record(seed: bytes, rules: Rules | None = None) -> dict[str, Any]:
    """A finished random round written as a game record (F6) with four human seats."""
    seats = tuple(Seat("human", name=f"P{i}") for i in range(4))
    game = Game.start(seed, rules or Rules(players=4), seats, dealer=3)
    play_random(game.state, seed)
    return game.to_record(seed)


def bench_replay(records: list[dict[str, Any]]) -> float:
    moves = sum(len(r["moves"]) for r in records)
    t = CLOCK[0]()
    for r in records:
        replay(r)
    return moves / (CLOCK[0]() - t)


def bench_rounds(n: int, offset: int, rules: Rules | None = None) -> float:
    t = CLOCK[0]()
    for k in range(n):
        random_round(_seed(offset + k), rules)
    return n / (CLOCK[0]() - t)


def bench_deals(n: int) -> float:
    t = CLOCK[0]()
    for k in range(n):
        State.new_round(_seed(k), Rules(players=4), dealer=3)
    return n / (CLOCK[0]() - t)


def _median(runs: list[float | None]) -> float | None:
    values = [r for r in runs if r is not None]
    return statistics.median(values) if values else None


def bench_optimiser(n: int) -> float:
    """The meld optimiser (R4.2) on dealt hands of 15, 25 and 40 cards (the bots' hot path)."""
    import importlib

    try:  # the module of this tree; before the package refactor it was engine.optimiser
        module = importlib.import_module("engine.pikdame.optimiser")
    except ImportError:
        module = importlib.import_module("engine.optimiser")
    hands = []
    for k in range(n):
        ids = hashlib.sha256(f"bench/optimiser/{k}".encode()).digest() * 2
        hands.append(sorted(Card.from_id(ids[i] % 110) for i in range((15, 25, 40)[k % 3])))
    t = CLOCK[0]()
    for hand in hands:
        module.best_arrangement(hand, ())
    return n / (CLOCK[0]() - t)


def measure(records: int, rounds: int, repeat: int, cpu: int = 0) -> dict[str, float]:
    """One repeat of every figure for the engine this process imports (``cpu``: timed in CPU
    time)."""
    CLOCK[0] = time.process_time if cpu else time.perf_counter
    corpus = [human_record(_seed(10_000 + k)) for k in range(records)]
    figures = {
        "replay moves/s": bench_replay(corpus),
        "random rounds/s": bench_rounds(rounds, 1000 * repeat),
        "deals/s": bench_deals(500),
        "optimiser hands/s": bench_optimiser(30),
    }
    tausende = tausende_rules()
    if tausende is not None:  # R12 beside Pik Dame: the same corpus sizes, the same play
        t_corpus = [human_record(_seed(10_000 + k), tausende) for k in range(records)]
        figures["Tausende replay moves/s"] = bench_replay(t_corpus)
        figures["Tausende random rounds/s"] = bench_rounds(rounds, 1000 * repeat, tausende)
    return figures


def export_tree(rev: str) -> Path:
    """The source tree of commit ``rev`` under var/bench-before/ (git archive; made once)."""
    tree = ROOT / "var" / "bench-before" / rev
    if not (tree / "engine" / "__init__.py").exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "engine"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def measure_tree(tree: Path, records: int, rounds: int, repeat: int, cpu: bool) -> dict[str, float]:
    """:func:`measure` in a fresh interpreter whose ``engine`` is the one in ``tree``."""
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]);"
        "from bench.bench_engine import measure;"
        "print(json.dumps(measure(*map(int, sys.argv[3:]))))"
    )
    # The bench module comes from this tree (sys.argv[1]), the engine it imports from ``tree``.
    args = [str(ROOT), str(tree), str(records), str(rounds), str(repeat), str(int(cpu))]
    env = {**os.environ, "PYTHONPATH": "", "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
        env=env,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:,.0f}"


def _ratio(before: float | None, now: float | None) -> str:
    return f"{now / before:.2f}x" if before and now else "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before-rev", default=None, help="also measure this commit's engine")
    parser.add_argument("--cpu", action="store_true", help="time our figures in CPU time")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--records", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args(argv)

    trees = {"now": ROOT}
    if args.before_rev:
        trees = {f"before ({args.before_rev})": export_tree(args.before_rev), **trees}
    runs: dict[str, dict[str, list[float | None]]] = {
        label: {f: [] for f in FIGURES} for label in trees
    }
    for i in range(args.repeats):  # interleaved: every figure of every tree sees the same noise
        for label, tree in trees.items():
            measured = measure_tree(tree, args.records, args.rounds, i, args.cpu)
            for figure, value in measured.items():
                runs[label][figure].append(value)
    med = {label: {f: _median(v) for f, v in figs.items()} for label, figs in runs.items()}
    moves = sum(len(human_record(_seed(10_000 + k))["moves"]) for k in range(args.records))

    labels = list(trees)
    pair = len(labels) > 1
    header = " | ".join(f"{label} median" for label in labels)
    lines = [
        "## Engine throughput (before/after the engine's package refactor)",
        "",
        f"Command: `{' '.join([COMMAND, *(argv or sys.argv[1:])])}`",
        f"Machine: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one core, {args.repeats} interleaved repeats, each tree in its "
        f"own process, timed in {'CPU' if args.cpu else 'wall'} time; medians. "
        "Load average after the run: "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}.",
        f"Replay corpus: {args.records} random 4-seat rounds, {moves} moves "
        f"({moves / args.records:.0f} per round); each replay deals from the seed, checks every "
        "move and compares the result (`engine.replay`). Random rounds: uniform choice among "
        f"`legal_moves(max_meld=3)` (resign excluded), {args.rounds} rounds per repeat. "
        "Optimiser: `best_arrangement` on 30 dealt hands of 15, 25 and 40 cards, no own melds.",
        "",
        "Best: the fastest repeat, the figure least disturbed by other work on the machine.",
        "",
        f"| figure | {header} |"
        + (" now / before | before best | now best | now / before (best) |" if pair else ""),
        "| --- |" + " ---: |" * len(labels) + (" ---: |" * 4 if pair else ""),
    ]
    for figure in FIGURES:
        row = f"| {figure} | " + " | ".join(_fmt(med[label][figure]) for label in labels) + " |"
        if pair:
            first, last = runs[labels[0]][figure], runs[labels[-1]][figure]
            best = [max((r for r in rs if r is not None), default=None) for rs in (first, last)]
            row += f" {_ratio(med[labels[0]][figure], med[labels[-1]][figure])} |"
            row += f" {_fmt(best[0])} | {_fmt(best[1])} | {_ratio(best[0], best[1])} |"
        lines.append(row)
    lines += ["", "All runs:", ""]
    for label in labels:
        for figure in FIGURES:
            lines.append(f"- {label}, {figure}: {', '.join(_fmt(r) for r in runs[label][figure])}")
    text = "\n".join(lines) + "\n"
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(text)
    print(text)
    print(json.dumps(med), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
