"""Bots and meld optimisers: speed and strength, side by side in one run (the targets).

    .venv/bin/python -m bench.bench_bots [--rounds 2000] [--skip-tournament]

1. The optimiser (``engine.pikdame.optimiser.best_arrangement``) on
   15-, 25- and 40-card dealt hands and on the play-phase hands bots really hold in seeded zen
   rounds (with their own melds); how often it stayed within its budget (exact).
2. Bot turns: every decision of one turn, timed per level, in seeded 4-seat rounds (R11 rules).
3. Daily verification: daily rounds (R11: three zen bots, the player's seat played by the
   ``advanced`` turn-timer logic) written as records and verified by ``engine.replay``, which
   recomputes every bot move (F6/F7).
4. Strength: ``python -m engine tournament`` with zen, advanced, advanced, beginner, and zen
   against three advanced bots; its output is quoted verbatim.

Writes ``bench/results/bots.md``. Deals come from SHA-256 seeds: the inputs are the same each run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import Game, Rules, State
from engine.core.cards import Card
from engine.pikdame.bots import LEVELS, choose_move
from engine.pikdame.daily import daily_game
from engine.pikdame.deal import deal
from engine.pikdame.melds import Meld
from engine.pikdame.optimiser import best_arrangement
from engine.pikdame.optimiser.search import NODE_BUDGET
from engine.pikdame.version import ENGINE_VERSION
from engine.pikdame.view import view

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "bots.md"
COMMAND = ".venv/bin/python -m bench.bench_bots"
DAILY = Rules(players=4, hand_out_double=True)

Input = tuple[list[Card], list[Meld]]


def seed(label: str) -> bytes:
    return hashlib.sha256(f"bench/bots/{label}".encode()).digest()


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(x: float) -> str:
    return f"{1000 * x:.3f}"


# -- inputs --------------------------------------------------------------------------------------


def dealt_hands(n: int, size: int) -> list[Input]:
    """``size`` cards from the top of seeded deals (F3): a hand, then the stock's first cards."""
    out: list[Input] = []
    for k in range(n):
        d = deal(seed(f"hand/{size}/{k}"), 2, 0)
        ids = [*d.hands[0], *d.stock]
        out.append(([Card.from_id(i) for i in ids[:size]], []))
    return out


def bot_inputs(rounds: int) -> list[Input]:
    """The hand and own melds of every play-phase decision in seeded zen rounds (R11 rules)."""
    out: list[Input] = []
    for r in range(rounds):
        state = State.new_round(seed(f"inputs/{r}"), DAILY, r % 4)
        while state.outcome is None:
            seat = state.turn
            v = view(state, seat)
            if state.phase == "play":
                out.append((list(v.hand), list(v.melds[seat])))
            state.push(choose_move("zen", v), seat)
    return out


def take_inputs(rounds: int) -> list[Input]:
    """Hand and melds right after every legal take (R4.1: the pile's rest comes to hand) in every
    draw phase of seeded zen rounds: the biggest hands the bots weigh."""
    out: list[Input] = []
    for r in range(rounds):
        state = State.new_round(seed(f"takes/{r}"), DAILY, r % 4)
        while state.outcome is None:
            seat = state.turn
            if state.phase == "draw":
                for move in state.legal_moves(max_meld=3):
                    if move.kind == "take":
                        after = state.copy()
                        after.push(move)
                        out.append((after.hand(seat), list(after.melds[seat])))
            state.push(choose_move("zen", view(state, seat)), seat)
    return out


# -- 1. optimisers -------------------------------------------------------------------------------


@dataclass
class OptimiserRun:
    """Timings of the optimiser on one input set (CPU seconds per input) and its exactness."""

    name: str
    times: list[float]
    sizes: tuple[int, int]
    inexact: int


def time_optimiser(name: str, inputs: list[Input]) -> OptimiserRun:
    times = []
    inexact = 0
    for hand, melds in inputs:
        t0 = time.process_time()
        found = best_arrangement(hand, melds)
        times.append(time.process_time() - t0)
        inexact += not found.exact
    sizes = (min(len(h) for h, _ in inputs), max(len(h) for h, _ in inputs))
    return OptimiserRun(name, times, sizes, inexact)


# -- 2. bot turns --------------------------------------------------------------------------------


def turn_times(rounds: int) -> dict[str, list[float]]:
    """Seconds per turn (all decisions of one seat's turn) per level; seats rotate by round."""
    out: dict[str, list[float]] = {level: [] for level in LEVELS}
    base = ("zen", "advanced", "beginner", "zen")
    for r in range(rounds):
        levels = [base[(s + r) % 4] for s in range(4)]
        state = State.new_round(seed(f"turns/{r}"), DAILY, r % 4)
        current, spent = -1, 0.0
        while state.outcome is None:
            seat = state.turn
            if state.phase == "draw":
                if current >= 0:
                    out[levels[current]].append(spent)
                current, spent = seat, 0.0
            v = view(state, seat)
            t0 = time.process_time()
            move = choose_move(levels[seat], v)
            spent += time.process_time() - t0
            state.push(move, seat)
        if current >= 0:
            out[levels[current]].append(spent)
    return out


# -- 3. daily verification -----------------------------------------------------------------------


REPLAYER = """
import json, sys, time
from engine import replay
out = []
for record, seed in json.load(sys.stdin):
    t0 = time.process_time()
    replay(record, bytes.fromhex(seed))
    out.append(time.process_time() - t0)
print(json.dumps(out))
"""


def daily_records(n: int) -> list[tuple[dict[str, Any], str]]:
    """Finished daily rounds (R11) whose player seat is played by the turn-timer logic (R9)."""
    out = []
    for k in range(n):
        s = seed(f"daily/{k}")
        game: Game = daily_game(s, "bench")
        while not game.finished:
            game.autoplay_turn(0)
        out.append((game.to_record(s), s.hex()))
    return out


def time_replays(records: list[tuple[dict[str, Any], str]]) -> list[float]:
    """CPU seconds per verification, each record replayed once in a fresh process (as a worker
    meets it: no cache warmed by having played the round)."""
    done = subprocess.run(
        [sys.executable, "-c", REPLAYER],
        input=json.dumps(records),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    result: list[float] = json.loads(done.stdout)
    return result


# -- 4. tournaments ------------------------------------------------------------------------------


def tournament(rounds: int, seats: str) -> tuple[str, str]:
    cmd = ["-m", "engine", "tournament", "--rounds", str(rounds), "--seats", seats]
    done = subprocess.run(
        [sys.executable, *cmd], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return ".venv/bin/python " + " ".join(cmd), done.stdout.strip()


# -- report --------------------------------------------------------------------------------------


def level_row(output: str, level: str) -> list[str]:
    """The columns of ``level``'s row in a tournament table."""
    for line in output.splitlines():
        if line.split()[:1] == [level]:
            return line.replace("±", " ").split()
    return []


def reading(versus_advanced: str, runs: list[OptimiserRun]) -> list[str]:
    """How to read the figures above; numbers are taken from this run."""
    zen = level_row(versus_advanced, "zen")
    paired = next((x for x in versus_advanced.splitlines() if x.startswith("paired")), "")
    big = runs[-1]
    return [
        "### Reading",
        "",
        f"- Zen against three advanced bots: it goes out in {zen[4] if zen else '?'} of the "
        f"rounds (parity 25%) but has the round's top score in {zen[5] if zen else '?'} "
        f"(parity about 25%); {paired.removeprefix('paired ')}. Zen scores by what it lays and "
        "holds rather than by going out first.",
        f"- The optimiser meets p50 ≤ 1 ms on 15-card hands. On 40-card dealt hands its p99 "
        f"({ms(pct(big.times, 0.99))} ms) misses the 10 ms goal: proving that no arrangement "
        "lays one card more is an exact-cover proof, and a few such hands hit the budget "
        f"({big.inexact} of {len(big.times)} here). The hands bots really hold stay small "
        "(see the bot play-phase and after-take rows), so bot turns and verifications stay "
        "far inside their goals.",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=2000, help="tournament rounds")
    parser.add_argument("--skip-tournament", action="store_true")
    parser.add_argument("--turn-rounds", type=int, default=60)
    parser.add_argument("--daily", type=int, default=30)
    args = parser.parse_args(argv)
    command = COMMAND + (" " + " ".join(argv if argv is not None else sys.argv[1:])).rstrip()

    sets = {
        "15-card dealt hands": dealt_hands(300, 15),
        "bot play-phase hands": bot_inputs(12),
        "hands after a take": take_inputs(12),
        "25-card dealt hands": dealt_hands(100, 25),
        "40-card dealt hands": dealt_hands(60, 40),
    }
    runs = [time_optimiser(name, inputs) for name, inputs in sets.items()]
    turns = turn_times(args.turn_rounds)
    records = daily_records(args.daily)
    replays = time_replays(records)
    moves = [len(r["moves"]) for r, _ in records]

    lines = [
        "## Bots and the meld optimiser",
        "",
        f"Command: `{command}`",
        f"Machine: CPython {platform.python_version()}, {platform.machine()}, shared 2-core "
        f"machine; engine `{ENGINE_VERSION}`. Times are CPU ms of this process "
        "(`time.process_time`, so other processes' load does not count); p50/p99 are "
        "percentiles over the inputs of one run.",
        "",
        "### Meld optimiser (`engine.pikdame.optimiser.best_arrangement`)",
        "",
        f"Exact unless it outgrows its deterministic budget of {NODE_BUDGET:,} search calls; "
        "then it answers with the best arrangement a short limited discrepancy search finds "
        "(legal, flagged `exact=False`). Goals: the bots' targets.",
        "",
        "| inputs | n | cards | p50 ms | p99 ms | max ms | not exact | goal |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for run in runs:
        goal = {"15-card dealt hands": "p50 ≤ 1", "40-card dealt hands": "p99 ≤ 10"}.get(
            run.name, ""
        )
        lines.append(
            f"| {run.name} | {len(run.times)} | {run.sizes[0]}–{run.sizes[1]} "
            f"| {ms(pct(run.times, 0.5))} | {ms(pct(run.times, 0.99))} | {ms(max(run.times))} "
            f"| {run.inexact} | {goal} |"
        )
    lines += [
        "",
        "### Bot turns (every decision of one turn)",
        "",
        f"{args.turn_rounds} seeded 4-seat rounds, R11 rules, levels rotating over the seats.",
        "",
        "| level | turns | p50 ms | p99 ms | max ms | mean ms | goal |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for level in LEVELS:
        t = turns[level]
        goal = "p50 ≤ 2, p99 ≤ 15" if level == "zen" else ""
        lines.append(
            f"| {level} | {len(t)} | {ms(pct(t, 0.5))} | {ms(pct(t, 0.99))} | {ms(max(t))} "
            f"| {ms(statistics.fmean(t))} | {goal} |"
        )
    med = statistics.median(replays)
    lines += [
        "",
        "### Daily-round verification",
        "",
        f"{len(records)} daily rounds (R11: three zen bots; seat 0 played by the timer's advanced "
        f"logic), {statistics.fmean(moves):.0f} moves on average; `engine.replay` recomputes every "
        "bot move; each record replayed once in a fresh process.",
        "",
        "| median ms | p90 ms | max ms | verifications/s per core | goal |",
        "| ---: | ---: | ---: | ---: | --- |",
        f"| {ms(med)} | {ms(pct(replays, 0.9))} | {ms(max(replays))} | {1 / med:.1f} "
        "| median ≤ 100 ms |",
    ]
    if not args.skip_tournament:
        outputs = []
        for seats in ("zen,advanced,advanced,beginner", "zen,advanced,advanced,advanced"):
            cmd, out = tournament(args.rounds, seats)
            outputs.append(out)
            lines += ["", f"### Tournament: `{cmd}`", "", "```", out, "```"]
        lines += ["", *reading(outputs[1], runs)]
    RESULTS.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
