"""Bot tournaments: ``python -m engine tournament --rounds 2000 --seats zen,advanced,...``.

Reproducible: round ``i`` plays deal ``i // n`` (seed = SHA-256 of the tournament seed and the deal
number) with the seats rotated by ``i % n``, so every level plays every deal from every seat, and
the dealer moves one seat per deal (R2). Rounds use the daily challenge's rules (R11:
``hand_out_double`` on) unless ``--plain``. Scores are compared per round (paired differences),
which cancels most of the luck of the deal. The clock is read only to report decision times; no
decision depends on it.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.pikdame.bots import choose_move
from engine.pikdame.rules import LEVELS, RULESETS, Rules
from engine.pikdame.state import State
from engine.pikdame.view import view

MAX_MOVES = 5000  # far beyond any real round: a bot that stalls fails loudly


@dataclass
class Tally:
    """One level's results over the tournament."""

    scores: list[int] = field(default_factory=list)
    wins: int = 0
    tops: int = 0
    seats: int = 0
    decisions: int = 0
    seconds: float = 0.0
    turns: int = 0
    turn_times: list[float] = field(default_factory=list)


@dataclass
class RoundResult:
    levels: tuple[str, ...]
    scores: tuple[int, ...]
    winner: int | None
    moves: int


def deal_seed(base: str, deal: int) -> bytes:
    return hashlib.sha256(f"pikdame/tournament/{base}/{deal}".encode()).digest()


def play_round(
    seed: bytes, levels: Sequence[str], dealer: int, rules: Rules, tallies: dict[str, Tally]
) -> RoundResult:
    """One round, every seat a bot of ``levels[seat]``; decision times go to ``tallies``."""
    state = State.new_round(seed, rules, dealer)
    moves = 0
    turn_seat, turn_time = -1, 0.0
    while state.outcome is None:
        seat = state.turn
        if state.phase == "draw":  # every turn starts with draw or take (R4.1)
            if turn_seat >= 0:
                tallies[levels[turn_seat]].turn_times.append(turn_time)
            turn_seat, turn_time = seat, 0.0
        level = levels[seat]
        started = time.perf_counter()
        move = choose_move(level, view(state, seat))
        spent = time.perf_counter() - started
        tally = tallies[level]
        tally.decisions += 1
        tally.seconds += spent
        turn_time += spent
        state.push(move, seat)
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"round stalled after {moves} moves")
    if turn_seat >= 0:
        tallies[levels[turn_seat]].turn_times.append(turn_time)
    outcome = state.outcome
    return RoundResult(tuple(levels), outcome.round_scores, outcome.winner, moves)


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def run(
    rounds: int, seats: Sequence[str], base: str, rules: Rules
) -> tuple[dict[str, Tally], list[RoundResult]]:
    n = len(seats)
    tallies = {level: Tally() for level in seats}
    results = []
    for i in range(rounds):
        deal, shift = divmod(i, n)
        levels = [seats[(s - shift) % n] for s in range(n)]
        result = play_round(deal_seed(base, deal), levels, deal % n, rules, tallies)
        results.append(result)
        for seat, level in enumerate(levels):
            tally = tallies[level]
            tally.scores.append(result.scores[seat])
            tally.seats += 1
            tally.wins += result.winner == seat
            tally.tops += result.scores[seat] == max(result.scores)
    for tally in tallies.values():
        tally.turns = len(tally.turn_times)
    return tallies, results


def paired(results: Sequence[RoundResult], a: str, b: str) -> list[float]:
    """Per round: the mean score of ``a``'s seats minus that of ``b``'s seats."""
    diffs = []
    for r in results:
        sa = [s for lv, s in zip(r.levels, r.scores, strict=True) if lv == a]
        sb = [s for lv, s in zip(r.levels, r.scores, strict=True) if lv == b]
        if sa and sb:
            diffs.append(sum(sa) / len(sa) - sum(sb) / len(sb))
    return diffs


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(
    tallies: dict[str, Tally], results: Sequence[RoundResult], seats: Sequence[str]
) -> list[str]:
    lines = [
        f"{'level':<10} {'seats':>6} {'mean score':>11} {'95% CI':>9} {'win rate':>9} {'top':>6} "
        f"{'ms/decision':>12} {'turn p50 ms':>12} {'turn p99 ms':>12}"
    ]
    for level in dict.fromkeys(seats):
        t = tallies[level]
        mean, ci = mean_ci(t.scores)
        ms = 1000 * t.seconds / max(1, t.decisions)
        p50 = 1000 * percentile(t.turn_times, 0.5)
        p99 = 1000 * percentile(t.turn_times, 0.99)
        lines.append(
            f"{level:<10} {t.seats:>6} {mean:>11.1f} {'±':>2}{ci:>7.1f} "
            f"{100 * t.wins / max(1, t.seats):>8.1f}% {100 * t.tops / max(1, t.seats):>5.1f}% "
            f"{ms:>12.3f} {p50:>12.3f} {p99:>12.3f}"
        )
    lines.append(
        "win rate: rounds its seat went out (R7.1 winner); top: rounds its seat had the highest "
        "round score (ties count for each); turn = every decision of one turn"
    )
    present = list(dict.fromkeys(seats))
    for i, a in enumerate(present):
        for b in present[i + 1 :]:
            diffs = paired(results, a, b)
            mean, ci = mean_ci(diffs)
            clear = "clear of zero" if abs(mean) > ci else "NOT clear of zero"
            lines.append(
                f"paired {a} - {b}: {mean:+.1f} ± {ci:.1f} points per round "
                f"({len(diffs)} rounds, 95% CI, {clear})"
            )
    moves = [r.moves for r in results]
    lines.append(
        f"rounds {len(results)}, moves per round mean {sum(moves) / max(1, len(moves)):.1f}"
    )
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine tournament")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seats", default="zen,advanced,advanced,beginner")
    parser.add_argument("--seed", default="1", help="tournament seed (any text)")
    parser.add_argument("--plain", action="store_true", help="hand_out_double off (R7.3)")
    parser.add_argument("--rules", choices=RULESETS, default="pikdame", help="the ruleset (R12)")
    args = parser.parse_args(argv)
    seats = [s.strip() for s in args.seats.split(",")]
    if not 2 <= len(seats) <= 4 or any(s not in LEVELS for s in seats):
        parser.error(f"--seats: 2 to 4 of {', '.join(LEVELS)}")
    if args.rounds < 1:
        parser.error("--rounds: at least 1")
    if args.rules == "tausende":  # R12.7: no hand-out doubling
        rules = Rules(players=len(seats), ruleset="tausende")
    else:
        rules = Rules(players=len(seats), hand_out_double=not args.plain)
    started = time.perf_counter()
    tallies, results = run(args.rounds, seats, args.seed, rules)
    elapsed = time.perf_counter() - started
    print(
        f"tournament: {args.rounds} rounds, seats {','.join(seats)}, seed {args.seed!r}, "
        f"hand_out_double {rules.hand_out_double}"
        + (f", rules {rules.ruleset}" if rules.tausende else "")
    )
    for line in report(tallies, results, seats):
        print(line)
    print(f"wall time {elapsed:.1f} s")
    return 0
