"""Gin random playouts beside OpenSpiel's C++ ``gin_rummy`` and RLCard's Python gin rummy game,
measured side by side in one run, doing the same work on every side.

    .venv/bin/python -m bench.bench_gin_playouts --ref-python var/refvenv/bin/python
        [--before-rev b9a4bd7] [--repeats 5]

The work, on every side: deal one hand from a fresh seed, then play uniformly random legal moves
for both seats until the hand is over (knocked, gin, or the wall), counting whole hands per
second. Ours: :meth:`HandState.new`, :meth:`HandState.legal_moves` (resign left out) and
:meth:`HandState.push` of the chosen move, with no view built (a playout is what an analysis or
a search does). OpenSpiel: ``new_initial_state`` and uniform random actions, its chance actions
(the deal) included, through its Python binding, as its own random playouts run. RLCard:
``GinRummyGame.init_game`` and ``step`` with a uniform choice of ``judge.get_legal_actions()``
(the game, not ``env.run``, which also builds numpy observations for learning agents). The move
sets differ by design (OpenSpiel knocks, then lays out meld by meld; we declare a knock's melds
in one move), so hands per second is the comparable figure; moves per hand are shown beside it.

Validated replay, the verifier's work, on the same kind of hands: 200 random hands are played
first (untimed) and kept as records, then replayed over and over. Ours: deal from the seed, then
:meth:`HandState.push` of every move's text (parsed, checked completely, applied). OpenSpiel: a new
state and ``apply_action_with_legality_check`` of every recorded action, deal included. RLCard's
game has no replay from a record, so it has no figure there.

With ``--before-rev``, the engine of that commit (exported by ``bench_engine.export_tree``) plays
the same hands too, so a change is measured beside what it replaced. Every side runs for the same
seconds in its own process, alternating, so that noise on the
machine hits all alike; medians over the repeats. Writes ``bench/results/gin_playouts.md``; the
interpreter with ``open_spiel`` and ``rlcard`` is a throwaway venv, never a project dependency.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

from bench.loadkit import write_result

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "gin_playouts.md"
COMMAND = ".venv/bin/python -m bench.bench_gin_playouts"
OURS_NAME = "ours (engine.gin)"

OURS = """
import hashlib, json, random, sys, time
sys.path.insert(0, sys.argv[1])
from engine.gin import HandState
seconds = float(sys.argv[2])
REPLAYED = 200
rng = random.Random(1)

def random_hand(seed, dealer):
    state = HandState.new(seed, 1, dealer)
    while state.outcome is None:
        legal = state.legal_moves()
        legal.pop()  # resign, always last
        state.push(legal[rng.randrange(len(legal))])
    return state

hands = moves = 0
t = time.perf_counter()
while time.perf_counter() - t < seconds:
    moves += len(random_hand(hashlib.sha256(b"playout/%d" % hands).digest(), hands % 2).history)
    hands += 1
elapsed = time.perf_counter() - t
records = []
for k in range(REPLAYED):
    seed = hashlib.sha256(b"replay/%d" % k).digest()
    records.append((seed, k % 2, [text for _, text in random_hand(seed, k % 2).history]))
replayed = 0
t = time.perf_counter()
while time.perf_counter() - t < seconds:
    seed, dealer, texts = records[replayed % REPLAYED]
    state = HandState.new(seed, 1, dealer)
    for text in texts:
        state.push(text)
    replayed += 1
print(json.dumps([hands / elapsed, moves / hands, replayed / (time.perf_counter() - t)]))
"""

OPENSPIEL = """
import json, random, sys, time
import pyspiel
seconds = float(sys.argv[2])
REPLAYED = 200
rng = random.Random(1)
game = pyspiel.load_game("gin_rummy")

def random_hand():
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    return s

hands = moves = 0
t = time.perf_counter()
while time.perf_counter() - t < seconds:
    s = random_hand()
    moves += sum(1 for item in s.full_history() if item.player >= 0)
    hands += 1
elapsed = time.perf_counter() - t
records = [random_hand().history() for _ in range(REPLAYED)]
replayed = 0
t = time.perf_counter()
while time.perf_counter() - t < seconds:
    s = game.new_initial_state()
    for action in records[replayed % REPLAYED]:
        s.apply_action_with_legality_check(action)
    replayed += 1
print(json.dumps([hands / elapsed, moves / hands, replayed / (time.perf_counter() - t)]))
"""

RLCARD = """
import json, random, sys, time
from rlcard.games.gin_rummy.game import GinRummyGame
seconds = float(sys.argv[2])
REPLAYED = 200
rng = random.Random(1)
game = GinRummyGame()
game.np_random.seed(1)
hands = moves = 0
t = time.perf_counter()
while time.perf_counter() - t < seconds:
    game.init_game()
    while not game.is_over():
        legal = game.judge.get_legal_actions()
        game.step(legal[rng.randrange(len(legal))])
        moves += 1
    hands += 1
elapsed = time.perf_counter() - t
print(json.dumps([hands / elapsed, moves / hands, None]))
"""


def run_side(
    python: str, code: str, seconds: float, tree: Path = ROOT
) -> tuple[float, float, float | None] | None:
    """One timed run of one side in a fresh interpreter: (playout hands/s, moves per hand,
    replayed hands/s or None), or None if that side cannot run here."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    try:
        out = subprocess.run(
            [python, "-c", code, str(tree), str(seconds)],
            capture_output=True,
            text=True,
            timeout=120 + seconds,
            check=True,
            env=env,
        )
        hands, moves, replayed = json.loads(out.stdout.strip().splitlines()[-1])
        return float(hands), float(moves), None if replayed is None else float(replayed)
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref-python", default=None, help="interpreter with open_spiel, rlcard")
    parser.add_argument("--before-rev", default=None, help="also play with this commit's engine")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)

    sides = {OURS_NAME: (sys.executable, OURS, ROOT)}
    if args.before_rev:
        from bench.bench_engine import export_tree

        tree = export_tree(args.before_rev)
        sides[f"ours before ({args.before_rev})"] = (sys.executable, OURS, tree)
    if args.ref_python:
        sides["OpenSpiel gin_rummy (C++)"] = (args.ref_python, OPENSPIEL, ROOT)
        sides["RLCard gin rummy game (Python)"] = (args.ref_python, RLCARD, ROOT)
    runs: dict[str, list[tuple[float, float, float | None]]] = {name: [] for name in sides}
    for _ in range(args.repeats):  # alternating: every side sees the same noise
        for name, (python, code, where) in sides.items():
            result = run_side(python, code, args.seconds, where)
            if result is not None:
                runs[name].append(result)

    def median(name: str, i: int) -> float | None:
        values = [v for r in runs[name] if (v := r[i]) is not None]
        return statistics.median(values) if values else None

    def fmt(x: float | None, spec: str = ",.0f") -> str:
        return "n/a" if x is None else format(x, spec)

    def ratio(mine: float | None, theirs: float | None) -> str:
        return f"{mine / theirs:.2f}x" if mine and theirs else "n/a"

    ours, ours_replay = median(OURS_NAME, 0), median(OURS_NAME, 2)
    lines = [
        "## Gin random playouts and validated replay: whole hands per second, same work on "
        "every side",
        "",
        f"Command: `{' '.join([COMMAND, *(argv if argv is not None else sys.argv[1:])])}`",
        f"Machine: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one core per side, {args.repeats} alternating repeats of "
        f"{args.seconds:g} s per side and figure, each side in its own process; medians. Load "
        f"average after the run: {', '.join(f'{x:.1f}' for x in os.getloadavg())}.",
        "Playout: a fresh deal, then uniform random legal moves for both seats until the hand "
        "ends (no views, no observations; OpenSpiel's chance actions are its deal). Replay: 200 "
        "such hands kept as records and replayed with every move checked (ours: the moves' "
        "texts pushed on the dealt state; OpenSpiel: `apply_action_with_legality_check`).",
        "",
        "| implementation | playout hands/s | moves per hand | ours / it | replayed hands/s "
        "| ours / it | all runs (playout hands/s) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for name in sides:
        hands, per, replayed = median(name, 0), median(name, 1), median(name, 2)
        mine = name == OURS_NAME
        all_runs = ", ".join(f"{r[0]:,.0f}" for r in runs[name]) or "did not run"
        lines.append(
            f"| {name} | {fmt(hands)} | {fmt(per, '.0f')} | "
            f"{'1.00x' if mine else ratio(ours, hands)} | {fmt(replayed)} | "
            f"{'1.00x' if mine else ratio(ours_replay, replayed)} | {all_runs} |"
        )
    write_result(RESULTS, [*lines, ""])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
