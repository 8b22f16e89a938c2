"""The exact meld optimiser's interface: the arrangement that gains the most this turn (R4.2).

The page's hint and the bots ask :func:`best_arrangement`; the search itself lives in
:mod:`engine.meldsolver` (branch and bound over cards in value-by-value order, exact, checked
against a brute force over ``State.legal_moves`` in ``tests/bots``; beyond a deterministic node
budget it answers with its best legal arrangement and ``exact`` False). An earlier memoised
search of this module was exact too but slower on big hands (bench/results/bots.md has both
figures), so it gave way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.melds import Meld
from engine.meldsolver import solve
from engine.moves import Move


@dataclass(frozen=True)
class Arrangement:
    """What to lay this turn: ``moves`` can be pushed in order (meld numbers already count the
    melds laid earlier in the same arrangement, R5.4 joins keep their number); ``points`` is what
    the player's melds gain; ``gain`` the change in round score (melds up, hand down, R7.1);
    ``kept`` the cards left in hand (at least one, R4.2); ``exact`` whether it is the optimum."""

    moves: tuple[Move, ...]
    points: int
    gain: int
    kept: tuple[Card, ...]
    exact: bool = True


def best_arrangement(hand: Sequence[Card], own_melds: Sequence[Meld]) -> Arrangement:
    """The arrangement of meld/lay/swap moves on the owner's melds that gains the most round
    score from ``hand`` while keeping a card (R4.2); deterministic ties."""
    found = solve(hand, own_melds)
    kept = tuple(sorted(found.kept))
    return Arrangement(found.moves, found.points, found.gain, kept, found.exact)


__all__ = ["Arrangement", "best_arrangement"]
