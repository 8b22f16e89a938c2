"""Duplicate scoring against the field, by brute force from raw scores (docs/EVENTS.md,
"Scoring"): the reference the incremental store (``store.py``) is tested against, and the
definition of the tie-breaks. Pure: handed the results, it reads nothing.

Per deal a player's matchpoints are the others on that deal they beat plus half those they tied,
as a percentage of the others who played it (50 % alone on a deal: no one to compare with); the
event's score is the mean of those percentages over the event's deals. Only players who finished
every deal stand in the standings, ordered by score (higher first), then by the number of deals
on which they had the field's top score (ties for the top count), then by the earlier finish of
their last deal, then by player id (so the order is total and deterministic)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: A player's results: deal number (1 …) -> (score, the result's finish in ms since the epoch).
Results = Mapping[int, tuple[int, int]]


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings: ``score`` the exact mean percentage (0 … 100)."""

    player: str
    score: Fraction
    tops: int
    finished: int

    def order(self) -> tuple[Fraction, int, int, str]:
        """The sort key: the tie-breaks of the module's docstring, in order."""
        return (-self.score, -self.tops, self.finished, self.player)


def percentage(score: int, others: Sequence[int]) -> Fraction:
    """Matchpoints on one deal as a percentage of the others who played it."""
    if not others:
        return Fraction(50)
    beaten = sum(1 for other in others if other < score)
    tied = sum(1 for other in others if other == score)
    return Fraction(100 * (2 * beaten + tied), 2 * len(others))


def standings(field: Mapping[str, Results], deals: int) -> tuple[list[Standing], dict[str, int]]:
    """The standings of the players who finished all ``deals``, best first, and the others
    (incomplete: player -> deals finished)."""
    lines = []
    incomplete = {}
    for player, mine in field.items():
        if len(mine) < deals:
            incomplete[player] = len(mine)
            continue
        total = Fraction(0)
        tops = 0
        for deal, (score, _) in mine.items():
            others = [r[deal][0] for p, r in field.items() if p != player and deal in r]
            total += percentage(score, others)
            tops += all(other <= score for other in others)
        finished = max(at for _, at in mine.values())
        lines.append(Standing(player, total / deals, tops, finished))
    return sorted(lines, key=Standing.order), incomplete
