"""What a move-by-move analysis costs and how precise it is (docs/ANALYSIS.md): a daily Pik Dame
round within 5 s and a Gin hand within 1 s on one core, with the default sampling.

    .venv/bin/python -m bench.bench_analysis [--rounds 12] [--tausende 6] [--hands 30]
                                             [--precision 4]

Corpora, all seeded: daily Pik Dame rounds (R11: three zen bots) whose player is the advanced bot
(the turn timer's logic: a fair player) or the beginner bot (a weak player, who differs from zen
far more often: the costly case); the first round of 3-seat Tausende tables (R12) with a beginner
at seat 0; hands of Gin dailies whose player is the plain bot. Each record is analysed in the
``view`` mode as the worker would (``analyse(record)``, its caches cleared first: a fresh work
horse), alternated with its verification (the replay with every bot move recomputed), the
reference in the same run. CPU time of the process (one core) and wall clock.

The precision table analyses a few records with a fixed number of samples per decision and gives
the median half-width of the 95% intervals of the judged decisions' costs and of the graph's
points: how many samples give which interval. Writes ``bench/results/analysis.md``; no test
asserts a timing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from engine.gin import analysis as gin_analysis
from engine.gin import melds as gin_melds
from engine.gin.bots import choose_move as gin_choose
from engine.gin.daily import daily_seats as gin_seats
from engine.gin.match import GinMatch
from engine.gin.replay import replay as gin_replay
from engine.pikdame import analysis as pikdame_analysis
from engine.pikdame.bots import choose_move, planner
from engine.pikdame.daily import DAILY_DEALER, DAILY_RULES, daily_seats
from engine.pikdame.game import Game
from engine.pikdame.match import Match, replay_match
from engine.pikdame.replay import replay
from engine.pikdame.rules import Rules, Seat
from engine.pikdame.view import view

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results" / "analysis.md"
COMMAND = ".venv/bin/python -m bench.bench_analysis"
PRECISION_SAMPLES = (8, 16, 32, 64)


def daily_round(k: int, level: str) -> dict[str, Any]:
    seed = hashlib.sha256(f"bench-analysis/daily/{k}".encode()).digest()
    game = Game.start(seed, DAILY_RULES, daily_seats("P"), DAILY_DEALER)
    while not game.finished:
        game.play(str(choose_move(level, view(game.state, 0))), 0)
    return game.to_record(seed)


def passive_rounds(count: int) -> list[dict[str, Any]]:
    """Issue 38's long rounds: seats 0 and 1 human and passive (they only draw and discard
    their first card by name, never take, meld or lay off), seats 2 and 3 zen; the pile grows
    past 40 cards and a round runs 60 to 130 moves. A deal whose passive seat would have to take
    from an empty stock's pile (R4.4) is skipped."""
    found: list[dict[str, Any]] = []
    k = 0
    while len(found) < count:
        seed = hashlib.sha256(f"passive/{k}".encode()).digest()
        k += 1
        seats = (Seat("human", name="A"), Seat("human", name="B"), *[Seat("bot", level="zen")] * 2)
        game = Game.start(seed, DAILY_RULES, seats, DAILY_DEALER)
        while not game.finished:
            s = game.state.turn
            if game.state.phase == "play":
                game.play(f"discard {min(game.state.hand(s), key=str)}", s)
            elif game.state.stock:
                game.play("draw", s)
            else:
                break
        if game.finished:
            found.append(game.to_record(seed))
    return found


def tausende_game(k: int) -> dict[str, Any]:
    """A 3-seat Tausende table (R12), seat 0 by the beginner, resigned after its first round."""
    counter = [0]

    def new_seed() -> bytes:
        counter[0] += 1
        return hashlib.sha256(f"bench-analysis/tausende/{k}/{counter[0]}".encode()).digest()

    rules = Rules(players=3, ruleset="tausende")
    seats = (Seat("human", name="P"), Seat("bot", level="zen"), Seat("bot", level="advanced"))
    match, _ = Match.start(rules, seats, 0, new_seed)
    while not match.finished and len(match.rounds) < 2:
        if match.awaiting_cut:
            match.play("cut 17", 0, new_seed)
            continue
        game = match.game
        assert game is not None
        match.play(str(choose_move("beginner", view(game.state, 0))), 0, new_seed)
    if not match.finished:
        match.resign(0)
    return match.to_record()


def gin_hands(count: int) -> list[tuple[dict[str, Any], int]]:
    """(record, hand number) of Gin dailies whose player is the plain bot."""
    found: list[tuple[dict[str, Any], int]] = []
    k = 0
    while len(found) < count:
        seed = hashlib.sha256(f"bench-analysis/gin/{k}".encode()).digest()
        match = GinMatch.start(seed, gin_seats("P"))
        while not match.finished:
            match.play(gin_choose("plain", match.view(0)), 0)
        record = match.to_record(reveal_seed=True)
        found += [(record, h) for h in range(1, len(record["hands"]) + 1)]
        k += 1
    return found[:count]


def cold() -> None:
    """A fresh work horse's caches: the bots' arrangement cache and Gin's meld cache."""
    planner.arrangement.cache_clear()
    gin_melds._best.cache_clear()


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """(result, CPU seconds of the process, wall seconds)."""
    cold()
    w, c = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.process_time() - c, time.perf_counter() - w


def half_widths(doc: dict[str, Any]) -> tuple[list[Fraction], list[Fraction]]:
    """The 95% intervals' half-widths of the judged costs and of the graph's points."""

    def half(interval: list[str]) -> Fraction:
        return (Fraction(interval[1]) - Fraction(interval[0])) / 2

    costs = [half(d["interval"]) for d in doc["decisions"] if d["interval"] is not None]
    points = [half(p["interval"]) for p in doc["graph"] if p["interval"] is not None]
    return costs, points


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def median(values: list[Any]) -> float:
    return float(statistics.median(values)) if values else float("nan")


class Corpus:
    """One row: each record's analysis beside its verification."""

    def __init__(self, name: str, goal: float) -> None:
        self.name = name
        self.goal = goal
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.ref_cpu: list[float] = []
        self.judged: list[int] = []
        self.decisions: list[int] = []
        self.samples: list[int] = []
        self.halves: list[Fraction] = []

    def add(self, analyse: Callable[[], dict[str, Any]], verify: Callable[[], Any]) -> None:
        doc, cpu, wall = timed(analyse)
        _, ref, _ = timed(verify)
        self.cpu.append(cpu)
        self.wall.append(wall)
        self.ref_cpu.append(ref)
        self.decisions.append(len(doc["decisions"]))
        self.judged.append(sum(1 for d in doc["decisions"] if d["same"] is None))
        self.samples += [d["samples"] for d in doc["decisions"] if d["same"] is None]
        self.halves += half_widths(doc)[0]
        sys.stderr.write(f"{self.name}: {cpu:.2f} s\n")

    def row(self) -> str:
        ratio = median(self.cpu) / median(self.ref_cpu)
        return (
            f"| {self.name} | {len(self.cpu)} | {median(self.decisions):.0f} "
            f"| {median(self.judged):.0f} | {median(self.samples):.0f} "
            f"| {median(self.halves):.1f} | {median(self.cpu):.2f} | {pct(self.cpu, 0.9):.2f} "
            f"| {max(self.cpu):.2f} | {median(self.wall):.2f} | ≤ {self.goal:g} "
            f"| {1000 * median(self.ref_cpu):.1f} | {ratio:,.0f}x |"
        )


def before_tree(rev: str, path: Path) -> Path:
    """``rev``'s whole tree (git archive; the working checkout is not touched)."""
    path.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", rev], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(path)], input=archive, check=True)
    return path


def cli_analysis(tree: Path, args: list[str], record: dict[str, Any]) -> tuple[Any, float]:
    """The document ``python -m engine [gin] analyse ARGS`` prints in ``tree``, and the CPU
    seconds of that process (its interpreter's start and imports included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        cwd=tree,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return json.loads(proc.stdout), cpu


class Compare:
    """One row of the before / after table: the same records analysed by the command line of
    both trees, one after the other."""

    def __init__(self, name: str, goal: float) -> None:
        self.name = name
        self.goal = goal
        self.cpu: dict[str, list[float]] = {"before": [], "after": []}
        self.halves: dict[str, list[Fraction]] = {"before": [], "after": []}
        self.samples: dict[str, list[int]] = {"before": [], "after": []}
        self.better = 0

    def add(self, trees: dict[str, Path], args: list[str], record: dict[str, Any]) -> None:
        for which, tree in trees.items():
            doc, cpu = cli_analysis(tree, args, record)
            self.cpu[which].append(cpu)
            self.halves[which] += half_widths(doc)[0]
            self.samples[which] += [d["samples"] for d in doc["decisions"] if d["same"] is None]
            if which == "after":
                self.better += sum(1 for d in doc["decisions"] if d.get("played_better"))
            sys.stderr.write(f"{self.name} {which}: {cpu:.2f} s\n")

    def row(self, rev: str) -> str:
        cells = []
        for which in ("before", "after"):
            cpu = self.cpu[which]
            cells.append(
                f"{median(self.samples[which]):.0f} | ± {median(self.halves[which]):.1f} "
                f"| {median(cpu):.2f} | {max(cpu):.2f}"
            )
        return (
            f"| {self.name} | {len(self.cpu['after'])} | {cells[0]} | {cells[1]} "
            f"| ≤ {self.goal:g} | {self.better} |"
        )


def _pd(record: dict[str, Any], samples: int) -> dict[str, Any]:
    return pikdame_analysis.analyse(record, samples=samples)


def _gin(record: dict[str, Any], hand: int, samples: int) -> dict[str, Any]:
    return gin_analysis.analyse(record, hand=hand, samples=samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=12, help="daily rounds per player level")
    parser.add_argument("--tausende", type=int, default=6, help="Tausende table rounds")
    parser.add_argument("--hands", type=int, default=30, help="Gin hands")
    parser.add_argument("--precision", type=int, default=4, help="records per precision row")
    parser.add_argument("--long", type=int, default=3, help="long passive rounds (issue 38)")
    parser.add_argument(
        "--before-commit",
        default=None,
        help="also analyse the records with REV's command line, in the same run",
    )
    args = parser.parse_args(argv)

    corpora: list[Corpus] = []
    dailies: dict[str, list[dict[str, Any]]] = {}
    for level, who in (("advanced", "advanced bot"), ("beginner", "beginner bot")):
        corpus = Corpus(f"Pik Dame daily round, player: {who}", 5)
        dailies[level] = [daily_round(k, level) for k in range(args.rounds)]
        for record in dailies[level]:
            corpus.add(partial(pikdame_analysis.analyse, record), partial(replay, record))
        corpora.append(corpus)
    corpus = Corpus("Tausende table round (3 seats), player: beginner bot", 5)
    for k in range(args.tausende):
        record = tausende_game(k)
        corpus.add(
            partial(pikdame_analysis.analyse, record, round=1), partial(replay_match, record)
        )
    corpora.append(corpus)
    longs = passive_rounds(args.long)
    corpus = Corpus("Pik Dame long round, two passive humans, seat 0", 10)
    for record in longs:
        corpus.add(partial(pikdame_analysis.analyse, record, 0), partial(replay, record))
    corpora.append(corpus)
    hands = gin_hands(args.hands)
    corpus = Corpus("Gin hand (daily match), player: plain bot", 1)
    for record, hand in hands:
        corpus.add(partial(gin_analysis.analyse, record, hand=hand), partial(gin_replay, record))
    corpora.append(corpus)

    compared: list[str] = []
    if args.before_commit:
        with tempfile.TemporaryDirectory() as tmp:
            trees = {"before": before_tree(args.before_commit, Path(tmp) / "before"), "after": ROOT}
            sets: list[tuple[str, float, list[tuple[list[str], dict[str, Any]]]]] = [
                (
                    "Pik Dame daily round, player: advanced bot",
                    5,
                    [(["analyse"], r) for r in dailies["advanced"]],
                ),
                (
                    "Pik Dame daily round, player: beginner bot",
                    5,
                    [(["analyse"], r) for r in dailies["beginner"]],
                ),
                (
                    "Pik Dame long round, two passive humans, seat 0",
                    10,
                    [(["analyse", "--seat", "0"], r) for r in longs],
                ),
                (
                    "Gin hand (daily match), player: plain bot",
                    1,
                    [(["gin", "analyse", "--hand", str(h)], r) for r, h in hands],
                ),
            ]
            for name, goal, jobs in sets:
                row = Compare(name, goal)
                for cli_args, record in jobs:
                    row.add(trees, cli_args, record)
                compared.append(row.row(args.before_commit))

    precision: list[str] = []
    p = args.precision
    studies: list[tuple[str, list[Callable[[int], dict[str, Any]]]]] = [
        ("Pik Dame daily round (advanced bot)", [partial(_pd, r) for r in dailies["advanced"][:p]]),
        ("Pik Dame daily round (beginner bot)", [partial(_pd, r) for r in dailies["beginner"][:p]]),
        ("Gin hand (plain bot)", [partial(_gin, r, h) for r, h in hands[: 4 * p]]),
    ]
    for name, runs in studies:
        for n in PRECISION_SAMPLES:
            costs: list[Fraction] = []
            points: list[Fraction] = []
            cpu: list[float] = []
            for run in runs:
                doc, seconds, _ = timed(partial(run, n))
                c, graph_halves = half_widths(doc)
                costs += c
                points += graph_halves
                cpu.append(seconds)
            precision.append(
                f"| {name} | {n} | {len(costs)} | ± {median(costs):.1f} "
                f"| ± {pct([float(x) for x in costs], 0.9):.1f} | ± {median(points):.1f} "
                f"| {median(cpu):.2f} |"
            )
            sys.stderr.write(precision[-1] + "\n")

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    budget_p, budget_g = pikdame_analysis.SAMPLING, gin_analysis.SAMPLING
    before_note = f" --long {args.long}"
    if args.before_commit:
        before_note += f" --before-commit {args.before_commit}"
    lines = [
        "## Move-by-move analysis (docs/ANALYSIS.md)",
        "",
        f"Command: `{COMMAND} --rounds {args.rounds} --tausende {args.tausende} "
        f"--hands {args.hands} --precision {args.precision}{before_note}`",
        f"Machine: CPython {platform.python_version()}, {platform.machine()}, the shared 2-core "
        f"machine; load average after the run: {load}. Times are the process's CPU seconds "
        "(one core) unless marked wall; every analysis starts with cold caches (a fresh work "
        "horse). Default sampling: Pik Dame a budget of "
        f"{budget_p.moves:,} units of work per round (play-out moves, a draw weighed by its "
        f"takes; {budget_p.graph} deals per graph point from half the budget, "
        f"{budget_p.least} … {budget_p.most} per judged decision, stopping once separated), Gin "
        f"{budget_g.moves:,} per hand ({budget_g.graph} per point, {budget_g.least} … "
        f"{budget_g.most}).",
        "",
        "Reference, in the same run and alternated with each analysis: the record's verification "
        "(`replay`, every bot move recomputed), what the worker already does per record.",
        "",
        "| record | n | decisions | judged | samples | ± cost (median) | p50 s | p90 s "
        "| max s | wall p50 s | goal s | replay p50 ms | analysis / replay |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: |",
        *(c.row() for c in corpora),
        "",
        "decisions: the seat's decisions per record (median); judged: those whose move differs "
        "from the analyst's (the others cost exactly 0, no sampling); samples: deals per judged "
        "decision (median over every judged decision); ± cost: the median half-width of the "
        "judged costs' 95% intervals, in round points (Pik Dame, R7) or hand-result points "
        "(Gin, G6).",
        "",
        *(
            [
                f"### Before and after, in the same run ({args.before_commit} and this tree)",
                "",
                "The same records, analysed by each tree's command line (`python -m engine "
                "[gin] analyse`, one process each: its start and imports included) one after "
                "the other. samples: deals per judged decision (median); ± cost: the judged "
                "costs' median half-width; played better: the decisions where the played move "
                "measured better than the best candidate (the after's documents say so).",
                "",
                "| record | n | before: samples | ± cost | p50 s | max s | after: samples "
                "| ± cost | p50 s | max s | goal s | played better |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
                "| ---: |",
                *compared,
                "",
            ]
            if compared
            else []
        ),
        "### How many samples give which interval",
        "",
        f"The first {args.precision} records of each Pik Dame corpus above and the first "
        f"{4 * args.precision} Gin hands, analysed with a fixed number of samples per decision "
        "(`--samples N`; graph points with as many).",
        "",
        "| record | samples | judged decisions | ± cost (median) | ± cost (p90) "
        "| ± graph point (median) | p50 s |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        *precision,
    ]
    RESULTS.write_text("\n".join(lines) + "\n")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
