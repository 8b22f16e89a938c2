"""How true Gin's player's-view analysis is (issue 40 item 2; docs/ANALYSIS.md "The belief"):
its expected-result graph against the truth, turn by turn, and a weak player's measured loss
against the true gap, with the other seat's hidden cards sampled uniformly (the method before,
``analysis-3``) and from the belief (``engine.gin.belief``), in one run on the same deals.

    .venv/bin/python -m bench.bench_gin_belief [--deals 4000] [--worlds 4] [--loss 300]
                                               [--jobs 2]

The controlled test: hand 1 of seeded deals (the dealer alternating), seat 0 the analysed seat,
seat 1 the strong bot (a daily's opponent).

- **Graph.** Seat 0 is played by the plain bot. At the start of each of its turns, the graph's
  point is the mean result (seat 0's hand score minus seat 1's, G6) of ``--worlds`` deals
  sampled from seat 0's view, each played out with the analyst's move and both seats by the
  strong bot, as the analysis' graph does; the truth is the same play-out from the real state
  (the real hidden hand and stock: its mean over the deals is the mean of the true expected
  results). Per turn: the mean error (graph − truth) with its 95% interval, paired per deal.
- **Weak player's loss.** Seat 0 is a weak player: it takes and draws like the plain bot, knocks
  when it may, discards a card drawn uniformly (seeded by the deal). Its hand is analysed by
  ``analyse_hand`` with the default budget (seat 1 the strong bot), the summed cost per hand
  compared with the true gap: the strong bot's result in seat 0 on the same deal minus the
  weak player's. Also the plain bot's. CPU per analysis (one core) for both methods.

Writes ``bench/results/gin_belief.md``; no test asserts a number.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import platform
import sys
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

from bench.intervals import chunks, mean_ci
from engine.core.analysis import sample_stream
from engine.core.records import Seat
from engine.core.rng import Stream
from engine.gin import analysis as gin_analysis
from engine.gin import melds as gin_melds
from engine.gin.belief import Belief, Tracker, belief_worlds
from engine.gin.bots import choose_move
from engine.gin.bots.worlds import sample_world
from engine.gin.moves import Move
from engine.gin.state import HandState
from engine.gin.view import View, view

RESULTS = Path(__file__).parent / "results" / "gin_belief.md"
COMMAND = ".venv/bin/python -m bench.bench_gin_belief"
OPPONENT = "strong"
MAX_TURNS = 12


def deal(k: int) -> HandState:
    return HandState.new(hashlib.sha256(f"bench-gin-belief/{k}".encode()).digest(), 1, k % 2)


def play_out(state: HandState) -> int:
    while state.outcome is None:
        s = state.turn
        state.push(choose_move("strong", view(state, s)), s)
    return state.outcome.scores[0] - state.outcome.scores[1]


def uniform_worlds(v: View, belief: Belief | None, stream: Stream) -> Iterator[HandState]:
    """The method before (``analysis-3``): the other's hidden cards uniform among the unseen."""
    while True:
        yield sample_world(v, stream)


def graph_point(worlds: Iterator[HandState], v: View, count: int) -> Fraction:
    total = 0
    best = choose_move("strong", v)
    for _ in range(count):
        world = next(worlds)
        world.push(best, 0)
        total += play_out(world)
    return Fraction(total, count)


def weak_move(v: View, stream: Stream) -> Move:
    """The weak player: the plain bot's take or draw and knock, else a uniform discard."""
    move = choose_move("plain", v)
    if v.phase != "discard" or move.kind == "knock":
        return move
    cards = [c for c in range(52) if v.hand >> c & 1 and c != v.taken]
    return Move("discard", cards[stream.uniform(len(cards))])


def graph_deal(k: int, worlds_per_point: int) -> list[tuple[int, Fraction, Fraction, int]]:
    """Per turn of seat 0 (plain bot): (turn, old point, new point, truth)."""
    state = deal(k)
    tracker = Tracker(state, 0, OPPONENT)
    found = []
    turn = 0
    while state.outcome is None:
        s = state.turn
        v = view(state, s)
        if s == 0 and state.phase in ("upcard", "draw"):
            turn += 1
            public = tracker.belief()
            if turn <= MAX_TURNS and v.revealed is None:
                seed = {"view": v.to_json()}
                old = graph_point(
                    uniform_worlds(v, public, sample_stream("old", seed)), v, worlds_per_point
                )
                new = graph_point(
                    belief_worlds(v, public, sample_stream("new", seed)), v, worlds_per_point
                )
                truth_state = state.copy()
                truth_state.push(choose_move("strong", v), 0)
                found.append((turn, old, new, play_out(truth_state)))
        move = choose_move("plain" if s == 0 else OPPONENT, v)
        tracker.observe(state, s, move)
        state.push(move, s)
    return found


def hand_moves(k: int, player: str) -> tuple[list[tuple[int, str]], int]:
    state = deal(k)
    stream = Stream(hashlib.sha256(f"weak/{k}".encode()).digest())
    moves = []
    while state.outcome is None:
        s = state.turn
        v = view(state, s)
        if s == 1:
            move = choose_move(OPPONENT, v)
        elif player == "weak":
            move = weak_move(v, stream)
        else:
            move = choose_move(player, v)
        moves.append((s, str(move)))
        state.push(move, s)
    return moves, state.outcome.scores[0] - state.outcome.scores[1]


def loss_deal(k: int, players: tuple[str, ...] = ("weak", "plain")) -> dict[str, Any]:
    """Per player (weak, plain): the true gap and the summed cost by each method, with CPU."""
    _, best = hand_moves(k, "strong")
    out: dict[str, Any] = {}
    seats = [Seat("human", name="P"), Seat("bot", level=OPPONENT)]
    for player in players:
        moves, result = hand_moves(k, player)
        row: dict[str, Any] = {"gap": best - result}
        for method, worlds in (("old", uniform_worlds), ("new", belief_worlds)):
            setattr(gin_analysis, "belief_worlds", worlds)  # noqa: B010
            gin_melds._best.cache_clear()
            c = time.process_time()
            doc = gin_analysis.analyse_hand(deal(k), moves, 0, seats=seats)
            row[method] = Fraction(doc["summary"]["total_cost"])
            row[method + "_cpu"] = time.process_time() - c
        setattr(gin_analysis, "belief_worlds", belief_worlds)  # noqa: B010
        out[player] = row
    return out


def _graph_chunk(args: tuple[int, int, int]) -> list[tuple[int, Fraction, Fraction, int]]:
    start, stop, worlds = args
    rows = []
    for k in range(start, stop):
        rows += graph_deal(k, worlds)
    return rows


def _loss_chunk(args: tuple[int, int, tuple[str, ...]]) -> list[dict[str, Any]]:
    start, stop, players = args
    return [loss_deal(k, players) for k in range(start, stop)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=4000, help="deals of the graph study")
    parser.add_argument("--worlds", type=int, default=4, help="sampled deals per graph point")
    parser.add_argument("--loss", type=int, default=300, help="hands of the loss study")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--first", type=int, default=0, help="the graph study's first deal")
    parser.add_argument("--out", default=str(RESULTS), help="the result file")
    parser.add_argument("--players", default="weak,plain", help="players of the loss study")
    args = parser.parse_args(argv)
    wall = time.perf_counter()
    players = tuple(args.players.split(","))
    with multiprocessing.Pool(args.jobs) as pool:
        parts = chunks(args.deals, 8 * args.jobs, args.first)
        graph_parts = pool.map_async(_graph_chunk, [(a, b, args.worlds) for a, b in parts])
        loss_parts = pool.map_async(
            _loss_chunk,
            [(a, b, players) for a, b in chunks(args.loss, 8 * args.jobs, offset=100_000)],
        )
        graph_rows = [r for part in graph_parts.get() for r in part]
        loss_rows = [r for part in loss_parts.get() for r in part]
    wall = time.perf_counter() - wall

    lines = [
        "## Gin's player's-view analysis against the truth (issue 40 item 2)",
        "",
        f"Command: `{COMMAND} --deals {args.deals} --worlds {args.worlds} --loss {args.loss} "
        f"--jobs {args.jobs} --players {args.players} --first {args.first}`",
        f"Machine: CPython {platform.python_version()}, {platform.machine()}, the shared 2-core "
        f"machine; load average after the run: "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}; wall {wall:.0f} s.",
        "",
        "*old*: the other seat's hidden cards uniform among the cards the seat never saw "
        "(`analysis-3`); *new*: drawn from the belief given its public play "
        "(`engine.gin.belief`, `analysis-4`). Seat 1 is the strong bot; error = the graph's "
        "point minus the truth (the real hand played out by the same bots), in hand-result "
        "points (G6), mean over the deals with its 95% interval (paired per deal).",
        "",
        f"### The expected-result graph, per turn of seat 0 (the plain bot), {args.deals} deals "
        f"from deal {args.first}, "
        f"{args.worlds} sampled deals per point",
        "",
        "| turn | points | truth (mean) | old: error | new: error |",
        "| ---: | ---: | ---: | ---: | ---: |",
    ]
    for turn in range(1, MAX_TURNS + 1):
        rows = [r for r in graph_rows if r[0] == turn]
        if len(rows) < 20:
            continue
        truth = mean_ci([r[3] for r in rows])
        old = mean_ci([r[1] - r[3] for r in rows])
        new = mean_ci([r[2] - r[3] for r in rows])
        lines.append(
            f"| {turn} | {len(rows)} | {truth[0]:+.1f} | {old[0]:+.1f} ± {old[1]:.1f} "
            f"| {new[0]:+.1f} ± {new[1]:.1f} |"
        )
    lines += [
        "",
        f"### A player's measured loss, {len(loss_rows)} hands, default budget",
        "",
        "The summed cost of the analysis of the player's hand (mean per hand) against the true "
        "gap (the strong bot's result in its seat on the same deal minus the player's); CPU: "
        "one analysis (`analyse_hand`, one core, cold meld cache), median / max.",
        "",
        "| player | true gap | old: measured | ratio | new: measured | ratio "
        "| old CPU s p50 / max | new CPU s p50 / max |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for player in players if loss_rows else ():
        played = [r[player] for r in loss_rows]
        gap = mean_ci([r["gap"] for r in played])
        old = mean_ci([r["old"] for r in played])
        new = mean_ci([r["new"] for r in played])

        def cpu(method: str, played: list[dict[str, Any]] = played) -> str:
            values = sorted(r[method + "_cpu"] for r in played)
            return f"{values[len(values) // 2]:.2f} / {values[-1]:.2f}"

        lines.append(
            f"| {player} | {gap[0]:.1f} ± {gap[1]:.1f} | {old[0]:.1f} ± {old[1]:.1f} "
            f"| {old[0] / gap[0]:.2f} | {new[0]:.1f} ± {new[1]:.1f} | {new[0] / gap[0]:.2f} "
            f"| {cpu('old')} | {cpu('new')} |"
        )
    Path(args.out).write_text("\n".join(lines) + "\n")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
