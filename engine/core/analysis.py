"""What every game's move-by-move analysis shares (docs/ANALYSIS.md): exact means of play-out
samples with their 95% intervals, the chess-like marks, and the sampling stream.

An analysis compares, at each decision of one seat, the move it played with the strongest bot's
move from the same view, by playing both out to the end of the round (the hand) over the same
sampled deals of the unseen cards (paired samples: each deal counts once for both moves, so the
luck of the deal cancels out of the difference). Everything here is integer arithmetic: a mean is
an exact fraction, an interval's ends are decimals rounded outward to hundredths; the sampling
stream is F3's SHA-256 stream seeded from text, so the same record gives the same document on
every machine.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from engine.core.rng import Stream, shuffled

T = TypeVar("T")

#: Two-sided 95% quantiles of Student's t by degrees of freedom, in thousandths. A count between
#: two entries takes the smaller one's (the larger quantile): the interval is never too narrow.
T_975: Final = (
    (1, 12706),
    (2, 4303),
    (3, 3182),
    (4, 2776),
    (5, 2571),
    (6, 2447),
    (7, 2365),
    (8, 2306),
    (9, 2262),
    (10, 2228),
    (11, 2201),
    (12, 2179),
    (13, 2160),
    (14, 2145),
    (15, 2131),
    (16, 2120),
    (17, 2110),
    (18, 2101),
    (19, 2093),
    (20, 2086),
    (21, 2080),
    (22, 2074),
    (23, 2069),
    (24, 2064),
    (25, 2060),
    (26, 2056),
    (27, 2052),
    (28, 2048),
    (29, 2045),
    (30, 2042),
    (40, 2021),
    (60, 2000),
    (120, 1980),
)
#: The marks from the mildest to the worst (chess's ?!, ? and ??).
MARK_NAMES: Final = ("inaccuracy", "mistake", "blunder")


def gcd(a: int, b: int) -> int:
    """The greatest common divisor of ``|a|`` and ``|b|`` (Euclid; 0 for 0 and 0)."""
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    return a


def isqrt_ceil(num: int, den: int) -> int:
    """The least integer h ≥ 0 with h² ≥ num / den (num ≥ 0, den > 0), by Newton's method."""
    if num <= 0:
        return 0
    target = -(-num // den)  # ceil(num / den) ≥ num / den: a start from above
    h = target
    while True:
        nxt = (h + target // h) // 2
        if nxt >= h:
            break
        h = nxt
    while h > 0 and (h - 1) * (h - 1) * den >= num:
        h -= 1
    while h * h * den < num:
        h += 1
    return h


def exact_text(num: int, den: int) -> str:
    """An exact fraction as text: ``"7"``, ``"-35/4"`` (lowest terms, the sign in front)."""
    if den < 0:
        num, den = -num, -den
    g = gcd(num, den) or 1
    num, den = num // g, den // g
    return str(num) if den == 1 else f"{num}/{den}"


def hundredths_text(h: int) -> str:
    """``h`` hundredths as a decimal with two places: ``-305`` → ``"-3.05"``."""
    sign = "-" if h < 0 else ""
    whole, frac = divmod(abs(h), 100)
    return f"{sign}{whole}.{frac:02d}"


def t_quantile(df: int) -> int:
    """Student's t for a two-sided 95% interval with ``df`` degrees of freedom, in thousandths."""
    quantile = T_975[0][1]
    for d, t in T_975:
        if d <= df:
            quantile = t
    return quantile


@dataclass(frozen=True)
class Estimate:
    """The mean of integer samples, exact, and its 95% interval (Student's t).

    ``exact`` marks a value that is certain rather than sampled (the same move, or a real deal
    played out once): it has no interval."""

    total: int
    squares: int
    count: int
    exact: bool = False

    @staticmethod
    def of(values: Sequence[int]) -> Estimate:
        return Estimate(sum(values), sum(v * v for v in values), len(values))

    @staticmethod
    def certain(value: int) -> Estimate:
        return Estimate(value, value * value, 1, exact=True)

    @property
    def mean(self) -> tuple[int, int]:
        """(numerator, denominator) of the mean."""
        return self.total, max(self.count, 1)

    def half_width(self) -> int | None:
        """Half the interval's width in hundredths, rounded up; None when exact or a single
        sample (no spread to measure)."""
        n = self.count
        if self.exact or n < 2:
            return None
        spread = n * self.squares - self.total * self.total  # n² × the sample variance × (n−1)/n
        t = t_quantile(n - 1)
        # h² ≥ t² × spread / (n² (n−1)), with t in thousandths and h in hundredths
        return isqrt_ceil(t * t * spread, 100 * n * n * (n - 1))

    def bounds(self) -> tuple[int, int] | None:
        """The interval's ends in hundredths, rounded outward; None without an interval."""
        h = self.half_width()
        if h is None:
            return None
        num, den = self.mean
        low = (100 * num) // den - h
        high = -((-100 * num) // den) + h
        return low, high

    def mean_text(self) -> str:
        return exact_text(*self.mean)

    def interval_json(self) -> list[str] | None:
        b = self.bounds()
        return None if b is None else [hundredths_text(b[0]), hundredths_text(b[1])]

    def above_zero(self) -> bool:
        """Whether the value is clearly positive: certain and > 0, or the interval above 0."""
        b = self.bounds()
        if b is None:
            return self.total > 0
        return b[0] > 0

    def at_least(self, threshold: int) -> bool:
        """Whether the mean reaches ``threshold`` (exactly compared)."""
        num, den = self.mean
        return num >= threshold * den


@dataclass(frozen=True)
class Marks:
    """A game's thresholds for the marks, in its points (docs/ANALYSIS.md): a decision is marked
    by the worst threshold its mean cost reaches, if its cost is clearly above zero."""

    inaccuracy: int
    mistake: int
    blunder: int

    def mark(self, cost: Estimate) -> str | None:
        if not cost.above_zero():
            return None
        for name, threshold in (
            ("blunder", self.blunder),
            ("mistake", self.mistake),
            ("inaccuracy", self.inaccuracy),
        ):
            if cost.at_least(threshold):
                return name
        return None

    def to_json(self) -> dict[str, int]:
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake, "blunder": self.blunder}


def canonical_text(obj: Any) -> str:
    """JSON with sorted keys and no spaces: the same text for the same knowledge everywhere."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def sample_stream(tag: str, knowledge: Any) -> Stream:
    """F3's stream seeded by SHA-256(tag ‖ NUL ‖ the canonical text of ``knowledge``).

    ``knowledge`` is what the analysed seat knows at the decision (its view and the public
    history), never a deal's seed: so the samples, and the document, depend on nothing else."""
    text = canonical_text(knowledge).encode("ascii")
    return Stream(hashlib.sha256(tag.encode("ascii") + b"\x00" + text).digest())


def shuffle_pool(stream: Stream, pool: Sequence[T]) -> list[T]:
    """``pool`` in the order of F3's Fisher–Yates over its indices."""
    return [pool[i] for i in shuffled(stream, len(pool))] if pool else []


#: ``samples(both)``: play-outs in one sampled deal after another (the real deal once, in the
#: ``deal`` mode), each (the seat's result after the best move, after the played move when
#: ``both`` (else None), the moves both play-outs made).
Samples = Callable[[bool], Iterator[tuple[int, int | None, int]]]


@dataclass(frozen=True)
class Decision:
    """A decision of the analysed seat as the replay finds it, before any sampling: the move it
    played, the analyst's move, why the two are certainly worth the same (``same``: ``move``,
    the same move; ``turn``, the same position once the analyst finished the turn) or None, and
    how to play both out (:data:`Samples`)."""

    move_index: int
    turn: int
    phase: str
    played: str
    best: str
    same: str | None
    turn_start: bool
    samples: Samples


@dataclass(frozen=True)
class Sampling:
    """How many sampled deals each decision is played out in (docs/ANALYSIS.md).

    ``fixed``: that many for every judged decision and graph point. Otherwise a budget of
    ``moves`` play-out moves per round (hand), what its time is made of: each graph point of its
    own gets ``graph`` deals first; what is left is shared equally by the judged decisions, and
    each samples deal after deal until it has spent its share, at least ``least`` and at most
    ``most`` deals. A play-out's moves are a fact of the seat's views and the bots, so the
    shares are as deterministic as the rest; a decision late in the round, whose play-outs are
    short, gets more deals for the same time."""

    moves: int
    graph: int
    least: int
    most: int
    fixed: int | None = None

    def to_json(self) -> dict[str, int]:
        if self.fixed is not None:
            return {"fixed": self.fixed}
        return {"moves": self.moves, "graph": self.graph, "least": self.least, "most": self.most}


def evaluate(
    decisions: Sequence[Decision], sampling: Sampling, deal: bool, marks: Marks
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play every decision out: (the ``decisions`` entries, the ``graph`` points). ``deal``:
    the real deal, one play-out each, every value certain."""

    def estimate(values: list[int]) -> Estimate:
        return Estimate.certain(values[0]) if deal else Estimate.of(values)

    points: dict[int, Estimate] = {}
    spent = 0
    for i, d in enumerate(decisions):
        if d.same is not None and d.turn_start:
            count = 1 if deal else sampling.fixed or sampling.graph
            results: list[int] = []
            source = d.samples(False)
            while len(results) < count:
                best, _, moves = next(source)
                results.append(best)
                spent += moves
            points[i] = estimate(results)
    judged = sum(1 for d in decisions if d.same is None)
    share = max(0, sampling.moves - spent) // judged if judged else 0
    entries: list[dict[str, Any]] = []
    graph: list[dict[str, Any]] = []
    for i, d in enumerate(decisions):
        if d.same is not None:
            entries.append(_decision_json(d, Estimate.certain(0), None, None, marks))
        else:
            bests: list[int] = []
            playeds: list[int] = []
            used = 0
            source = d.samples(True)
            while True:
                best, played, moves = next(source)
                assert played is not None
                bests.append(best)
                playeds.append(played)
                used += moves
                n = len(bests)
                if deal or n == sampling.fixed or n >= sampling.most:
                    break
                if sampling.fixed is None and n >= sampling.least and used >= share:
                    break
            cost = estimate([b - p for b, p in zip(bests, playeds, strict=True)])
            best_value = estimate(bests)
            entries.append(_decision_json(d, cost, best_value, estimate(playeds), marks))
            if d.turn_start:
                points[i] = best_value
        if i in points:
            graph.append(point_json(d.move_index, d.turn, points[i]))
    return entries, graph


def _decision_json(
    d: Decision,
    cost: Estimate,
    best_value: Estimate | None,
    played_value: Estimate | None,
    marks: Marks,
) -> dict[str, Any]:
    """One entry of an analysis document's ``decisions`` (docs/ANALYSIS.md)."""
    expected = None
    if best_value is not None and played_value is not None:
        expected = {"best": best_value.mean_text(), "played": played_value.mean_text()}
    return {
        "move_index": d.move_index,
        "turn": d.turn,
        "phase": d.phase,
        "played": d.played,
        "best": d.best,
        "same": d.same,
        "cost": cost.mean_text(),
        "interval": cost.interval_json(),
        "samples": 0 if d.same is not None else cost.count,
        "expected": expected,
        "mark": None if d.same is not None else marks.mark(cost),
    }


def point_json(move_index: int, turn: int, value: Estimate) -> dict[str, Any]:
    """One point of an analysis document's ``graph``: the expected result at a turn's start."""
    return {
        "move_index": move_index,
        "turn": turn,
        "expected": value.mean_text(),
        "interval": value.interval_json(),
        "samples": value.count,
    }


def summary_json(decisions: Sequence[dict[str, Any]], result: int | None) -> dict[str, Any]:
    """An analysis document's ``summary``: how many decisions, marks of each kind, the summed
    cost (exact) and the seat's real result."""
    num, den = 0, 1
    for d in decisions:
        text = d["cost"]
        n, _, m = text.partition("/")
        dn = int(m) if m else 1
        num, den = num * dn + int(n) * den, den * dn
        g = gcd(num, den) or 1
        num, den = num // g, den // g
    counts = {name: sum(1 for d in decisions if d["mark"] == name) for name in MARK_NAMES}
    return {
        "decisions": len(decisions),
        "matching": sum(1 for d in decisions if d["same"] is not None),
        "inaccuracies": counts["inaccuracy"],
        "mistakes": counts["mistake"],
        "blunders": counts["blunder"],
        "total_cost": exact_text(num, den),
        "result": result,
    }


__all__ = [
    "MARK_NAMES",
    "T_975",
    "Decision",
    "Estimate",
    "Marks",
    "Samples",
    "Sampling",
    "canonical_text",
    "evaluate",
    "exact_text",
    "gcd",
    "hundredths_text",
    "isqrt_ceil",
    "point_json",
    "sample_stream",
    "shuffle_pool",
    "summary_json",
    "t_quantile",
]
