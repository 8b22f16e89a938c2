"""Meld primitives shared by the games: naturals, suits per set, consecutive ranks.

Every rummy game here melds sets (cards of one rank) and runs (consecutive cards of one suit):
Pik Dame and Tausende with jokers (RULES.md R5, R12.5), Gin Rommé without (GIN.md G6). What a
game allows on top (sizes, duplicates, wrap-around, joker limits) is the game's own rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from engine.core.cards import JOKER_CODE, Card

#: The fewest cards of a meld in every game (R5.1, R5.2, G6).
MIN_MELD: Final = 3


def naturals(cards: Iterable[Card]) -> list[Card]:
    """The cards that are not jokers, in their order."""
    return [c for c in cards if c != JOKER_CODE]


def natural_count(cards: Sequence[int]) -> int:
    """How many of ``cards`` are not jokers."""
    return len(cards) - cards.count(JOKER_CODE)


def suit_counts(cards: Iterable[int]) -> list[int]:
    """How many naturals of each suit (S H D C) ``cards`` hold."""
    per_suit = [0, 0, 0, 0]
    for c in cards:
        if c != JOKER_CODE:
            per_suit[c // 13] += 1
    return per_suit


def consecutive_start(ranks: Iterable[int], wrap: bool) -> int | None:
    """The low end of distinct ``ranks`` that follow one another, or None: on the ring
    (``wrap``: Q-K-A-2 runs, R5.2) or on the line A … K (G6). All 13 ranks start at the ace."""
    present = [False] * 13
    for r in ranks:
        present[r] = True
    n = sum(present)
    if n == 13:
        return 0
    if n == 0:
        return None
    if wrap:
        starts = [r for r in range(13) if present[r] and not present[(r - 1) % 13]]
        return starts[0] if len(starts) == 1 else None
    low = present.index(True)
    return low if all(present[low : low + n]) else None


__all__ = ["MIN_MELD", "consecutive_start", "natural_count", "naturals", "suit_counts"]
