"""Gin cards and their points (GIN.md G1, G3): the 52 naturals of one deck, no jokers.

The deck, its F1 notation and its 52-bit masks are the standard deck's (``engine.core.standard``,
written once for every 52-card game); Gin adds only that its points are the usual deadwood
values (G1: A = 1, 2–10 their value, J Q K = 10).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.core.standard import (
    DEADWOOD,
    DECK_SIZE,
    NAMES,
    RANKS,
    SUITS,
    CardValues,
    card_name,
    from_mask,
    names,
    parse_card,
    rank,
    suit,
    to_mask,
)

#: G1's card values.
VALUES: Final[CardValues] = DEADWOOD
#: G1 deadwood value by id: A = 1, 2–10 their value, J Q K = 10.
POINTS: Final = VALUES.by_card
#: The points of a mask's cards (G6 deadwood values).
mask_points: Final = VALUES.mask


def points(cards: Iterable[int]) -> int:
    return sum(POINTS[c] for c in cards)


__all__ = [
    "DECK_SIZE",
    "NAMES",
    "POINTS",
    "RANKS",
    "SUITS",
    "VALUES",
    "card_name",
    "from_mask",
    "mask_points",
    "names",
    "parse_card",
    "points",
    "rank",
    "suit",
    "to_mask",
]
