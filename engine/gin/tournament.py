"""Gin bot tournaments: ``python -m engine gin tournament --matches 2000``.

Reproducible: match pair ``k`` plays the seed SHA-256("pikdame/gin-tournament/" ‖ base ‖ "/" ‖ k)
twice, once with ``strong`` in seat 0 and once in seat 1, so both levels play the same deals from
both seats. Each pair gives one paired difference: strong's match points minus plain's (final total
minus the opponent's), summed over the two matches; the report gives its mean with a 95% interval
(normal approximation) and the match win rate. The clock is read only to report times.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.gin.bots import LEVELS
from engine.gin.match import GinMatch, Seat

MAX_MOVES = 20_000  # far beyond any real match: a bot that stalls fails loudly


@dataclass(frozen=True)
class MatchResult:
    levels: tuple[str, str]
    totals: tuple[int, int]
    winner: int
    hands: int
    moves: int


def match_seed(base: str, k: int) -> bytes:
    return hashlib.sha256(f"pikdame/gin-tournament/{base}/{k}".encode()).digest()


def play_match(seed: bytes, levels: tuple[str, str]) -> MatchResult:
    seats = (Seat("bot", level=levels[0]), Seat("bot", level=levels[1]))
    match = GinMatch.start(seed, seats)
    if len(match.moves) > MAX_MOVES or match.winner is None:
        raise RuntimeError("match stalled")
    return MatchResult(
        levels,
        (match.totals[0], match.totals[1]),
        match.winner,
        len(match.results),
        len(match.moves),
    )


def mean_ci(values: Sequence[int]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    if n < 2:
        return (float(values[0]) if values else 0.0), 0.0
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def run(matches: int, a: str, b: str, base: str) -> list[MatchResult]:
    """``matches`` matches of ``a`` against ``b`` (rounded up to an even number: each seed is
    played twice, the seats swapped)."""
    results = []
    for k in range((matches + 1) // 2):
        seed = match_seed(base, k)
        results.append(play_match(seed, (a, b)))
        results.append(play_match(seed, (b, a)))
    return results


def report(results: Sequence[MatchResult], a: str, b: str) -> list[str]:
    def margin(r: MatchResult, level: str) -> int:
        seat = r.levels.index(level)
        return r.totals[seat] - r.totals[1 - seat]

    pairs = [margin(results[i], a) + margin(results[i + 1], a) for i in range(0, len(results), 2)]
    wins = [int(r.levels[r.winner] == a) for r in results]
    mean, ci = mean_ci(pairs)
    win_mean, win_ci = mean_ci(wins)
    clear = "clear of zero" if abs(mean) > ci else "NOT clear of zero"
    hands = sum(r.hands for r in results) / len(results)
    moves = sum(r.moves for r in results) / len(results)
    return [
        f"matches {len(results)} ({len(pairs)} seed pairs, seats swapped), "
        f"hands per match {hands:.1f}, moves per match {moves:.1f}",
        f"{a} wins {100 * win_mean:.1f}% ± {100 * win_ci:.1f}% of matches",
        f"paired {a} - {b}: {mean / 2:+.1f} ± {ci / 2:.1f} match points per match "
        f"(95% CI over {len(pairs)} pairs, {clear})",
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine gin tournament")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--levels", default="strong,plain", help="two levels: A,B (reports A-B)")
    parser.add_argument("--seed", default="1", help="tournament seed (any text)")
    args = parser.parse_args(argv)
    levels = [s.strip() for s in args.levels.split(",")]
    if len(levels) != 2 or any(s not in LEVELS for s in levels):
        parser.error(f"--levels: two of {', '.join(LEVELS)}")
    if args.matches < 2:
        parser.error("--matches: at least 2")
    started = time.perf_counter()
    results = run(args.matches, levels[0], levels[1], args.seed)
    elapsed = time.perf_counter() - started
    print(f"gin tournament: {len(results)} matches, {levels[0]} vs {levels[1]}, seed {args.seed!r}")
    for line in report(results, levels[0], levels[1]):
        print(line)
    print(f"wall time {elapsed:.1f} s")
    return 0


__all__ = ["MatchResult", "main", "match_seed", "mean_ci", "play_match", "report", "run"]
