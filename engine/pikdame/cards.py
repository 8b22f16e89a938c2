"""Pik Dame's cards (RULES.md R1): what the shared card ids of ``engine.core.cards`` are worth,
how many copies of each kind the 110 cards hold, and the Q♠.

The points and copies are the classic ruleset's; Tausende (R12.1) has its own table (joker = 25,
four jokers) and would hold it beside these, keyed by the ruleset, without touching the core.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import mul
from typing import Final

from engine.core.cards import CARDS, FIRST_JOKER_ID, JOKER_CODE, NATURALS, NUM_KINDS, Counts

QUEEN_OF_SPADES_CODE: Final = 11
TOTAL_CARDS: Final = 110


def _points(code: int) -> int:
    """R1: 2–9 = 5; 10, J, Q, K = 10; A = 20; joker = 20; Q♠ = 100."""
    if code == JOKER_CODE:
        return 20
    if code == QUEEN_OF_SPADES_CODE:
        return 100
    rank = code % 13
    if rank == 0:
        return 20
    if rank >= 9:
        return 10
    return 5


POINTS: Final[tuple[int, ...]] = tuple(_points(c) for c in range(NUM_KINDS))
QUEEN_OF_SPADES: Final = CARDS[QUEEN_OF_SPADES_CODE]
#: How many copies of each kind exist in the 110 cards (R1): two of each natural, six jokers.
COPIES: Final[tuple[int, ...]] = tuple([2] * NATURALS + [TOTAL_CARDS - FIRST_JOKER_ID])

#: For each natural, the cards of its suit one rank down, one up, two down and two up on the ring
#: (R5.2: runs wrap K-A-2): its partners for a run.
RING_NEIGHBOURS: Final[tuple[tuple[int, int, int, int], ...]] = tuple(
    (
        (x // 13) * 13 + (x % 13 - 1) % 13,
        (x // 13) * 13 + (x % 13 + 1) % 13,
        (x // 13) * 13 + (x % 13 - 2) % 13,
        (x // 13) * 13 + (x % 13 + 2) % 13,
    )
    for x in range(NATURALS)
)
#: For each rank, its four naturals (one per suit): the cards of a set (R5.1).
RANK_CARDS: Final[tuple[tuple[int, int, int, int], ...]] = tuple(
    (r, r + 13, r + 26, r + 39) for r in range(13)
)

#: Tausende (R12.1): 108 cards, four jokers (ids 104 … 107), a joker worth 25.
TAUSENDE_TOTAL: Final = 108
TAUSENDE_COPIES: Final[tuple[int, ...]] = tuple([2] * NATURALS + [TAUSENDE_TOTAL - FIRST_JOKER_ID])
TAUSENDE_POINTS: Final[tuple[int, ...]] = (*POINTS[:JOKER_CODE], 25, *POINTS[JOKER_CODE + 1 :])


def points_of(cards: Iterable[int]) -> int:
    """The points of ``cards`` (R1)."""
    return sum(POINTS[c] for c in cards)


def counts_points(counts: Counts) -> int:
    """The points of a 53-slot multiset (R1): what a hand costs at the round's end (R7.1)."""
    return sum(map(mul, POINTS, counts))


__all__ = [
    "COPIES",
    "POINTS",
    "QUEEN_OF_SPADES",
    "QUEEN_OF_SPADES_CODE",
    "RANK_CARDS",
    "RING_NEIGHBOURS",
    "TAUSENDE_COPIES",
    "TAUSENDE_POINTS",
    "TAUSENDE_TOTAL",
    "TOTAL_CARDS",
    "counts_points",
    "points_of",
]
