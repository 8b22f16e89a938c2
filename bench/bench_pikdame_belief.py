"""How true Pik Dame's player's-view analysis is (issue 40 item 2; docs/ANALYSIS.md "The belief"):
its expected-result graph against the truth, turn by turn, with the other seats' hidden cards
dealt uniformly (the method before, ``analysis-4``) and drawn from the belief
(``engine.pikdame.belief``, ``analysis-5``), in one run on the same deals; and the CPU of a
round's analysis by both methods.

    .venv/bin/python -m bench.bench_pikdame_belief [--deals 60] [--worlds 2] [--rounds 6]
                                                   [--jobs 2]

The controlled test: seeded daily rounds (R11: four seats, dealer 3, seats 1–3 the zen bots),
seat 0 the analysed seat, played by the advanced bot.

- **Graph.** At the start of each of seat 0's turns (its draw phase), the graph's point is the
  mean result (seat 0's round score, R7) of ``--worlds`` deals sampled from seat 0's view, each
  played out with the analyst's (zen's) move and every seat by zen, as the analysis' graph does;
  the truth is the same play-out from the real state. Per turn: the mean error (graph − truth)
  with its 95% interval, paired per deal.
- **CPU.** ``analyse_round`` of seat 0's round (default budget, seats 1–3 zen) by both methods,
  one core each: p50 / max, and the filter's skipped evidence.

Writes ``bench/results/pikdame_belief.md``; no test asserts a number.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import platform
import resource
import sys
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

from bench.intervals import chunks, mean_ci
from engine.core.analysis import sample_stream
from engine.core.cards import NUM_KINDS, Counts
from engine.core.records import Seat
from engine.pikdame import analysis as pd_analysis
from engine.pikdame.analysis import learn
from engine.pikdame.belief import Tracker, belief_worlds
from engine.pikdame.bots import choose_move
from engine.pikdame.bots.worlds import sample_world
from engine.pikdame.daily import DAILY_DEALER, DAILY_RULES
from engine.pikdame.moves import Move
from engine.pikdame.rules import Rules
from engine.pikdame.state import State, deal_for
from engine.pikdame.view import View, view

RESULTS = Path(__file__).parent / "results" / "pikdame_belief.md"
COMMAND = ".venv/bin/python -m bench.bench_pikdame_belief"
PLAYER = "advanced"
OPPONENT = "zen"
MAX_TURNS = 14
BANDS = ((1, 1), (2, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 14))


#: The ruleset of the run (``--ruleset``): Pik Dame's daily rules, or Tausende's (R12) with
#: four seats and the same dealer.
RULES = {"pikdame": DAILY_RULES, "tausende": Rules(players=4, ruleset="tausende")}
_ruleset = ["pikdame"]


def deal(k: int) -> State:
    rules = RULES[_ruleset[0]]
    key = hashlib.sha256(f"bench-pikdame-belief/{k}".encode()).digest()
    if rules.tausende:
        return State.new_round(key, rules, DAILY_DEALER)
    cut = 20 + k % 60
    return State.from_deal(deal_for(key, rules, DAILY_DEALER, cut), rules, DAILY_DEALER)


def play_out(state: State) -> int:
    while state.outcome is None:
        s = state.turn
        state.push(choose_move(OPPONENT, view(state, s)), s)
    return state.outcome.round_scores[0]


def graph_point(worlds: Iterator[State], best: Move, count: int) -> Fraction:
    total = 0
    for _ in range(count):
        world = next(worlds)
        world.push(best, 0)
        total += play_out(world)
    return Fraction(total, count)


def graph_deal(k: int, count: int) -> list[tuple[int, Fraction, Fraction, int]]:
    """Per turn of seat 0: (turn, old point, new point, truth)."""
    state = deal(k)
    known: list[Counts] = [[0] * NUM_KINDS for _ in range(4)]
    tracker = Tracker(state, 0, ["human", OPPONENT, OPPONENT, OPPONENT], known)
    found = []
    turn = 0
    while state.outcome is None:
        s = state.turn
        v = view(state, s)
        move = choose_move(PLAYER if s == 0 else OPPONENT, v)
        if s == 0 and state.phase == "draw":
            turn += 1
            if turn <= MAX_TURNS:
                best = choose_move(OPPONENT, v)
                seed = {"view": v.to_json(), "history": [list(h) for h in v.history]}
                old_worlds = uniform(v, known, sample_stream("old", seed))
                belief = tracker.belief()
                new_worlds = belief_worlds(v, known, belief, sample_stream("new", seed))
                old = graph_point(old_worlds, best, count)
                new = graph_point(new_worlds, best, count)
                real = state.copy()
                real.push(best, 0)
                found.append((turn, old, new, play_out(real)))
        after = state.copy()
        after.push(move, s)
        if s != 0:
            tracker.observe(state, s, move, known)
            learn(known, state, after, s, move)
        tracker.settle(view(after, 0), known)
        state = after
    return found


def uniform(v: View, known: list[Counts], stream: Any) -> Iterator[State]:
    while True:
        yield sample_world(v, known, stream)


def round_moves(k: int) -> list[tuple[int, str]]:
    state = deal(k)
    moves = []
    while state.outcome is None:
        s = state.turn
        move = choose_move(PLAYER if s == 0 else OPPONENT, view(state, s))
        moves.append((s, str(move)))
        state.push(move, s)
    return moves


def cpu_round(k: int) -> dict[str, Any]:
    moves = round_moves(k)
    seats = [Seat("human", name="P"), *[Seat("bot", level=OPPONENT)] * 3]
    row: dict[str, Any] = {"moves": len(moves)}
    for method, on in (("old", False), ("new", True)):
        pd_analysis.BELIEF = on
        c = time.process_time()
        doc = pd_analysis.analyse_round(deal(k), moves, 0, seats=seats)
        row[method + "_cpu"] = time.process_time() - c
        row[method + "_cost"] = Fraction(doc["summary"]["total_cost"])
    pd_analysis.BELIEF = True
    start = deal(k)
    known: list[Counts] = [[0] * NUM_KINDS for _ in range(4)]
    c = time.process_time()
    tracker = Tracker(start, 0, ["human", OPPONENT, OPPONENT, OPPONENT], known)
    state = start
    for s, text in moves:
        after = state.copy()
        done = after.push(text, s)
        if s != 0:
            tracker.observe(state, s, done, known)
            learn(known, state, after, s, done)
        tracker.settle(view(after, 0), known)
        state = after
    row["filter_cpu"] = time.process_time() - c
    row["skipped"] = tracker.skipped
    row["decisions"] = tracker.decisions
    return row


def _graph_chunk(args: tuple[int, int, int, str]) -> list[tuple[int, Fraction, Fraction, int]]:
    start, stop, count, ruleset = args
    _ruleset[0] = ruleset
    rows = []
    for k in range(start, stop):
        rows += graph_deal(k, count)
    return rows


def _cpu_chunk(args: tuple[int, int, str]) -> list[dict[str, Any]]:
    _ruleset[0] = args[2]
    return [cpu_round(k) for k in range(args[0], args[1])]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=60, help="rounds of the graph study")
    parser.add_argument("--worlds", type=int, default=2, help="sampled deals per graph point")
    parser.add_argument("--rounds", type=int, default=6, help="rounds of the CPU study")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--first", type=int, default=0, help="the graph study's first deal")
    parser.add_argument("--out", default=str(RESULTS), help="the result file")
    parser.add_argument("--ruleset", default="pikdame", choices=sorted(RULES), help="R12: tausende")
    args = parser.parse_args(argv)
    wall = time.perf_counter()
    cpu0 = time.process_time()
    with multiprocessing.Pool(args.jobs) as pool:
        parts = chunks(args.deals, 4 * args.jobs, args.first)
        graph_parts = pool.map_async(
            _graph_chunk, [(a, b, args.worlds, args.ruleset) for a, b in parts]
        )
        cpu_parts = pool.map_async(
            _cpu_chunk,
            [(a, b, args.ruleset) for a, b in chunks(args.rounds, args.jobs, 100_000)],
        )
        graph_rows = [r for part in graph_parts.get() for r in part]
        cpu_rows = [r for part in cpu_parts.get() for r in part]
        pool.close()
        pool.join()
    wall = time.perf_counter() - wall
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_total = used.ru_utime + used.ru_stime + time.process_time() - cpu0
    lines = [
        f"## {'Tausende' if args.ruleset == 'tausende' else 'Pik Dame'}'s player's-view "
        "analysis against the truth (issue 40 item 2)",
        "",
        f"Command: `{COMMAND} --deals {args.deals} --worlds {args.worlds} --rounds {args.rounds} "
        f"--jobs {args.jobs} --first {args.first}"
        + (" --ruleset tausende" if args.ruleset == "tausende" else "")
        + "`",
        f"Machine: CPython {platform.python_version()}, {platform.machine()}, the shared 2-core "
        f"machine; load average after the run: "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}; wall {wall:.0f} s, "
        f"CPU {cpu_total:.0f} s.",
        "",
        "*old*: the other seats' hidden cards uniform among the cards seat 0 never saw "
        "(`analysis-4`); *new*: drawn from the belief given their public play "
        "(`engine.pikdame.belief`, `analysis-5`). Daily rounds (R11; Tausende: its rules, R12, "
        "four seats, the same dealer), seats 1–3 zen, seat 0 the "
        "advanced bot; error = the graph's point minus the truth (the real deal played out by the "
        "same bots), in round points (R7), mean over the points with its 95% interval (paired "
        "per deal: old and new share the truth).",
        "",
        f"### The expected-result graph, per turn of seat 0, {args.deals} rounds from deal "
        f"{args.first}, {args.worlds} sampled deals per point",
        "",
        "| turns | points | truth (mean) | old: error | new: error | new − old |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for lo, hi in BANDS:
        rows = [r for r in graph_rows if lo <= r[0] <= hi]
        if len(rows) < 10:
            continue
        truth = mean_ci([r[3] for r in rows])
        old = mean_ci([r[1] - r[3] for r in rows])
        new = mean_ci([r[2] - r[3] for r in rows])
        diff = mean_ci([r[2] - r[1] for r in rows])
        lines.append(
            f"| {lo}–{hi} | {len(rows)} | {truth[0]:+.1f} | {old[0]:+.1f} ± {old[1]:.1f} "
            f"| {new[0]:+.1f} ± {new[1]:.1f} | {diff[0]:+.1f} ± {diff[1]:.1f} |"
        )
    if graph_rows:
        old = mean_ci([r[1] - r[3] for r in graph_rows])
        new = mean_ci([r[2] - r[3] for r in graph_rows])
        lines.append(
            f"| all | {len(graph_rows)} | | {old[0]:+.1f} ± {old[1]:.1f} "
            f"| {new[0]:+.1f} ± {new[1]:.1f} | |"
        )
    if cpu_rows:

        def stat(key: str) -> str:
            values = sorted(r[key] for r in cpu_rows)
            return f"{values[len(values) // 2]:.2f} / {values[-1]:.2f}"

        skipped = sum(r["skipped"] for r in cpu_rows)
        decided = sum(r["decisions"] for r in cpu_rows)
        lines += [
            "",
            f"### CPU of a round's analysis (`analyse_round`, default budget, one core), "
            f"{len(cpu_rows)} rounds of {min(r['moves'] for r in cpu_rows)}–"
            f"{max(r['moves'] for r in cpu_rows)} moves",
            "",
            "| method | CPU s p50 / max | of it the filter, p50 / max |",
            "| --- | ---: | ---: |",
            f"| old (uniform) | {stat('old_cpu')} | |",
            f"| new (belief) | {stat('new_cpu')} | {stat('filter_cpu')} |",
            "",
            f"Evidence skipped by the filter (no particle nor repair agreed): {skipped} of "
            f"{decided} decisions of the other seats.",
        ]
    Path(args.out).write_text("\n".join(lines) + "\n")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
