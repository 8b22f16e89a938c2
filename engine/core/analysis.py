"""What every game's move-by-move analysis shares (docs/ANALYSIS.md): exact means of play-out
samples with their 95% intervals, the chess-like marks, and the sampling stream.

An analysis compares, at each decision of one seat, the move it played with the bots' moves from
the same view (the candidates, the strongest bot's first), by playing them all out to the end of
the round (the hand) over the same sampled deals of the unseen cards (paired samples: each deal
counts once for every move, so the luck of the deal cancels out of the differences), within a
budget of work counted, never clocked (:class:`Sampling`). Everything here is integer
arithmetic: a mean is an exact fraction, an interval's ends are decimals rounded outward to
hundredths; the sampling stream is F3's SHA-256 stream seeded from text, so the same record
gives the same document on every machine.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, Self, TypeVar

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
    played out once): it has no interval. ``scale``: each sample is its integer divided by it,
    for a value that is a fraction of whole points (a table's standing, :func:`standing_of`),
    still computed in integers."""

    total: int
    squares: int
    count: int
    exact: bool = False
    scale: int = 1

    @staticmethod
    def of(values: Sequence[int], scale: int = 1) -> Estimate:
        return Estimate(sum(values), sum(v * v for v in values), len(values), scale=scale)

    @staticmethod
    def certain(value: int, scale: int = 1) -> Estimate:
        return Estimate(value, value * value, 1, exact=True, scale=scale)

    @property
    def mean(self) -> tuple[int, int]:
        """(numerator, denominator) of the mean."""
        return self.total, max(self.count, 1) * self.scale

    def half_width(self) -> int | None:
        """Half the interval's width in hundredths, rounded up; None when exact or a single
        sample (no spread to measure)."""
        n = self.count
        if self.exact or n < 2:
            return None
        spread = n * self.squares - self.total * self.total  # n² × the sample variance × (n−1)/n
        t = t_quantile(n - 1)
        # h² ≥ t² × spread / (n² (n−1) scale²), with t in thousandths and h in hundredths
        return isqrt_ceil(t * t * spread, 100 * n * n * (n - 1) * self.scale * self.scale)

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
#: ``deal`` mode), each (the seat's results, the work the deal cost). With ``both`` the results
#: are the played move's and then each candidate's (:attr:`Decision.candidates`, in order), all
#: in the same deal; without, the analyst's move's alone (a graph point). The work is the
#: play-outs' bot moves, weighted by what a move costs (each game says how): a fact of the
#: views and the bots, never of a clock.
#: One deal's results of every move played out in it: per move (result, scaled standing).
Results = tuple[tuple[int, int], ...]
Samples = Callable[[bool], Iterator[tuple[Results, int]]]

#: The version of the analysis's method (docs/ANALYSIS.md): a change that changes documents
#: (not their shape) gets a new one, and the service caches documents by it beside the engine's.
ANALYSIS_VERSION: Final = "analysis-5"


class Line(Protocol):
    """What a play-out needs of a game's state: a copy to play on, and a move pushed for a seat."""

    def copy(self) -> Self: ...

    def push(self, move: Any, seat: int) -> Any: ...


L = TypeVar("L", bound=Line)


#: What a play-out answers: the seat's result, its standing against the others (scaled by the
#: analysis' standing scale, :func:`standing_of`) and the work it took.
PlayOut = tuple[int, int, int]


def standing_of(scores: Sequence[int], seat: int) -> int:
    """The seat's standing against the others at the end of a round, times (players − 1): its
    score minus the others' mean, ``s − (Σ − s)/(n − 1)``, kept whole as ``n·s − Σ`` (the
    analysis' ``standing`` scale is n − 1). At a table played to a target this is what a round
    changes for the seat: feeding the next player a joker costs standing even when it costs the
    seat no points of its own (docs/ANALYSIS.md, issue 40)."""
    return len(scores) * scores[seat] - sum(scores)


def paired_samples(
    worlds: Iterable[L], moves: Sequence[Any], seat: int, play_out: Callable[[L], PlayOut]
) -> Iterator[tuple[Results, int]]:
    """Every move played out on the same deals, deal after deal (paired: the moves' difference is
    the decision's, not one deal's luck): per deal the results in ``moves``' order and the work
    they took (``play_out`` answers a line's result, standing and work)."""
    for world in worlds:
        work = 0
        results: list[tuple[int, int]] = []
        for move in moves:
            line = world.copy()
            line.push(move, seat)
            score, standing, more = play_out(line)
            results.append((score, standing))
            work += more
        yield tuple(results), work


def paired_choice(
    worlds: Iterable[L],
    moves: Sequence[Any],
    seat: int,
    play_out: Callable[[L], PlayOut],
    least: int,
    budget: int,
) -> int:
    """Which of ``moves`` to play (a Meister's decision, docs/ANALYSIS.md "The Meister"): each
    played out on the same deals (:func:`paired_samples`), at least ``least`` deals and until
    ``budget`` work is spent (counted, never clocked: no deal starts once it is). The first
    move (the strongest bot's, 0) unless another's paired gain over it is above 0 with 95%
    confidence; among those, the highest total gain (the earliest on a tie)."""
    gains: list[list[int]] = [[] for _ in moves[1:]]
    samples = paired_samples(worlds, moves, seat, play_out)
    spent = deals = 0
    while deals < least or spent < budget:
        results, work = next(samples)
        spent += work
        for gain, (value, _) in zip(gains, results[1:], strict=True):
            gain.append(value - results[0][0])
        deals += 1
    best, best_total = 0, 0
    for i, values in enumerate(gains, start=1):
        total = sum(values)
        if Estimate.of(values).above_zero() and total > best_total:
            best, best_total = i, total
    return best


@dataclass(frozen=True)
class Decision:
    """A decision of the analysed seat as the replay finds it, before any sampling: the move it
    played, the analyst's move, why the two are certainly worth the same (``same``: ``move``,
    the same move; ``turn``, the same position once the analyst finished the turn) or None, and
    how to play the moves out (:data:`Samples`). ``candidates``: the moves the bots choose from
    the seat's view, each once, the analyst's first (empty: the analyst's alone)."""

    move_index: int
    turn: int
    phase: str
    played: str
    best: str
    same: str | None
    turn_start: bool
    samples: Samples
    candidates: tuple[str, ...] = ()

    @property
    def moves(self) -> tuple[str, ...]:
        """The candidate moves, the analyst's first."""
        return self.candidates or (self.best,)


@dataclass(frozen=True)
class Sampling:
    """How many sampled deals each decision is played out in (docs/ANALYSIS.md).

    ``fixed``: that many for every judged decision and graph point, whatever they cost.
    Otherwise a budget of ``moves`` units of work per round (hand): play-out moves, a costly
    one counting for more (each game weighs its moves), what an analysis's time is made of. No
    deal starts once the budget is spent, whatever the round's length, so an analysis costs at
    most the budget and one deal. Under it, first every judged decision gets :data:`FLOOR`
    deals (the least that has an interval), one after the other; then every graph point of its
    own one deal, and up to ``graph`` from the first half of the budget; then the judged
    decisions share what is left, deal by deal, the one that has cost the least so far first,
    each until its cost's interval leaves 0 (the best and the played move separate) or has no
    width, after at least ``least`` deals, or it has ``most``. A decision the budget left
    without a deal is ``unjudged``. The work is as deterministic as the rest, so the deals and
    the document are."""

    moves: int
    graph: int
    least: int
    most: int
    fixed: int | None = None

    def to_json(self) -> dict[str, int]:
        if self.fixed is not None:
            return {"fixed": self.fixed}
        return {"moves": self.moves, "graph": self.graph, "least": self.least, "most": self.most}


#: The least deals a judged decision is played out in: its interval needs two.
FLOOR: Final = 2


class _Item:
    """One decision's deals so far: per line (the played move, then each candidate; a graph
    point: the analyst's move alone) its results, and the work they cost."""

    __slots__ = ("decision", "lines", "open", "source", "standings", "work")

    def __init__(self, decision: Decision, both: bool) -> None:
        self.decision = decision
        self.source = decision.samples(both)
        self.lines: list[list[int]] = []
        self.standings: list[list[int]] = []  # per line, the scaled standings (standing_of)
        self.work = 0
        self.open = True

    @property
    def count(self) -> int:
        return len(self.lines[0]) if self.lines else 0

    def deal(self) -> int:
        """Play one more deal out; the work it cost."""
        results, work = next(self.source)
        if not self.lines:
            self.lines = [[] for _ in results]
            self.standings = [[] for _ in results]
        for line, side, (value, standing) in zip(self.lines, self.standings, results, strict=True):
            line.append(value)
            side.append(standing)
        self.work += work
        return work

    def best_line(self) -> int:
        """The candidate line with the highest mean (the earliest on a tie: the analyst's)."""
        totals = [sum(line) for line in self.lines[1:]]
        return 1 + totals.index(max(totals))

    def cost(self) -> Estimate:
        """The best candidate's result minus the played move's, deal by deal (paired)."""
        best = self.lines[self.best_line()]
        return Estimate.of([b - p for b, p in zip(best, self.lines[0], strict=True)])

    def standing_cost(self, scale: int) -> Estimate:
        """The best candidate's standing minus the played move's, deal by deal (paired), the
        best chosen by the result (:meth:`best_line`)."""
        best = self.standings[self.best_line()]
        diffs = [b - p for b, p in zip(best, self.standings[0], strict=True)]
        return Estimate.of(diffs, scale)

    def settled(self, least: int) -> bool:
        """Whether more deals would tell nothing new: the cost's interval has left 0 (the best
        and the played move separate) or has no width, after ``least`` deals."""
        if self.count < least:
            return False
        b = self.cost().bounds()
        return b is not None and (b[0] > 0 or b[1] < 0 or b[0] == b[1])


def evaluate(
    decisions: Sequence[Decision],
    sampling: Sampling,
    deal: bool,
    marks: Marks,
    standing: int | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Play every decision out: (the ``decisions`` entries, the ``graph`` points, the work
    spent). ``deal``: the real deal, one play-out each, every value certain. ``standing``: the
    standing's scale (players − 1, :func:`standing_of`) where a decision's cost in the table's
    terms is wanted too (a table's round with more than two seats); each entry then carries
    ``standing``. It is read from the same play-outs: the deals and the work are the same."""
    items: list[_Item | None] = [
        _Item(d, d.same is None) if d.same is None or d.turn_start else None for d in decisions
    ]
    points = [x for x in items if x is not None and x.decision.same is not None]
    judged = [x for x in items if x is not None and x.decision.same is None]
    spent = 0
    if deal or sampling.fixed is not None:
        count = 1 if deal else sampling.fixed or 1
        for item in [*points, *judged]:
            while item.count < count:
                spent += item.deal()
    else:
        budget = sampling.moves
        for _ in range(FLOOR):  # every judged decision its interval first, while work is left
            for item in judged:
                if spent < budget:
                    spent += item.deal()
        for k in range(sampling.graph):  # then the graph, its deals past the first from half
            for item in points:
                if spent < (budget if k == 0 else budget // 2):
                    spent += item.deal()
        for item in judged:
            item.open = not item.settled(sampling.least)
        while spent < budget:
            open_items = [x for x in judged if x.open and x.count < sampling.most]
            if not open_items:
                break
            item = min(open_items, key=lambda x: x.work)  # the first of the cheapest
            spent += item.deal()
            item.open = not item.settled(sampling.least)

    def estimate(values: list[int]) -> Estimate:
        return Estimate.certain(values[0]) if deal else Estimate.of(values)

    entries: list[dict[str, Any]] = []
    graph: list[dict[str, Any]] = []
    for d, found in zip(decisions, items, strict=True):
        point: Estimate | None = None
        if d.same is not None:
            entries.append(_same_json(d))
            if standing is not None:
                entries[-1]["standing"] = {"cost": "0", "interval": None}
            if found is not None and found.count:
                point = estimate(found.lines[0])
        elif found is None or not found.count:  # the budget was spent before it got a deal
            entries.append({**_same_json(d), "same": None, "unjudged": True})
            if standing is not None:
                entries[-1]["standing"] = None
        else:
            item = found
            best = item.best_line()
            cost = item.cost()
            if deal:
                cost = Estimate.certain(cost.total)
            values = [estimate(line) for line in item.lines]
            entries.append(_decision_json(d, d.moves[best - 1], cost, values, marks))
            if standing is not None:
                side = item.standing_cost(standing)
                if deal:
                    side = Estimate.certain(side.total, standing)
                entries[-1]["standing"] = {
                    "cost": side.mean_text(),
                    "interval": side.interval_json(),
                }
            point = values[1]  # the analyst's move's: the seat's result with it playing on
        if point is not None and d.turn_start:
            graph.append(point_json(d.move_index, d.turn, point))
    return entries, graph, spent


def _same_json(d: Decision) -> dict[str, Any]:
    """The entry of a decision certainly worth the analyst's move: cost exactly 0."""
    return {
        "move_index": d.move_index,
        "turn": d.turn,
        "phase": d.phase,
        "played": d.played,
        "best": d.best,
        "same": d.same,
        "cost": "0",
        "interval": None,
        "samples": 0,
        "expected": None,
        "mark": None,
        "played_better": False,
        "candidates": None,
        "unjudged": False,
    }


def _decision_json(
    d: Decision, best: str, cost: Estimate, values: Sequence[Estimate], marks: Marks
) -> dict[str, Any]:
    """One judged entry of an analysis document's ``decisions`` (docs/ANALYSIS.md): ``best``
    is the candidate measured best, ``values`` the played move's and each candidate's."""
    top = values[1 + d.moves.index(best)]
    return {
        "move_index": d.move_index,
        "turn": d.turn,
        "phase": d.phase,
        "played": d.played,
        "best": best,
        "same": None,
        "cost": cost.mean_text(),
        "interval": cost.interval_json(),
        "samples": cost.count,
        "expected": {"best": top.mean_text(), "played": values[0].mean_text()},
        "mark": marks.mark(cost),
        "played_better": cost.total < 0,
        "candidates": [
            {"move": move, "expected": value.mean_text()}
            for move, value in zip(d.moves, values[1:], strict=True)
        ],
        "unjudged": False,
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
    counts = {name: sum(1 for d in decisions if d["mark"] == name) for name in MARK_NAMES}
    standing = _standing_total(decisions)
    return {
        "decisions": len(decisions),
        "matching": sum(1 for d in decisions if d["same"] is not None),
        "inaccuracies": counts["inaccuracy"],
        "mistakes": counts["mistake"],
        "blunders": counts["blunder"],
        "total_cost": exact_sum(d["cost"] for d in decisions),
        "result": result,
        **({} if standing is None else {"total_standing": standing}),
    }


def _standing_total(decisions: Sequence[dict[str, Any]]) -> str | None:
    """The summed standing cost (exact) of an analysis with standings; None without."""
    if not decisions or "standing" not in decisions[0]:
        return None
    return exact_sum(d["standing"]["cost"] for d in decisions if d["standing"] is not None)


def exact_sum(texts: Iterable[str]) -> str:
    """The exact sum of fractions written by :func:`exact_text`."""
    num, den = 0, 1
    for text in texts:
        n, _, m = text.partition("/")
        dn = int(m) if m else 1
        num, den = num * dn + int(n) * den, den * dn
        g = gcd(num, den) or 1
        num, den = num // g, den // g
    return exact_text(num, den)


__all__ = [
    "ANALYSIS_VERSION",
    "FLOOR",
    "MARK_NAMES",
    "T_975",
    "Decision",
    "Estimate",
    "Marks",
    "PlayOut",
    "Results",
    "Samples",
    "Sampling",
    "canonical_text",
    "evaluate",
    "exact_sum",
    "exact_text",
    "gcd",
    "hundredths_text",
    "isqrt_ceil",
    "paired_choice",
    "point_json",
    "sample_stream",
    "shuffle_pool",
    "standing_of",
    "summary_json",
    "t_quantile",
]
