"""Gin cards and their points (GIN.md G1, G3): the 52 naturals of one deck, no jokers.

A card is an ``int`` 0 … 51: ``suit * 13 + rank`` with suits S H D C and ranks A 2 … K (G3), so
the integer order is the canonical order (by suit, then rank) and a hand is a 52-bit mask.
Notation is FORMATS.md F1 (``10`` and the suit symbols accepted on input); the joker ``X`` does
not exist in Gin and is rejected. After the engine restructuring this folds into
``engine.core.cards``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.core.errors import NotationError

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
DECK_SIZE: Final = 52

#: F1 names by id: NAMES[11] == "QS".
NAMES: Final = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(DECK_SIZE))
#: G1 deadwood value by id: A = 1, 2–10 their value, J Q K = 10.
POINTS: Final = tuple(min(c % 13 + 1, 10) for c in range(DECK_SIZE))
_BY_NAME: Final = {name: c for c, name in enumerate(NAMES)}


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def parse_card(text: str) -> int:
    """One card in F1 notation, any case; ``10`` for ``T`` and the suit symbols accepted."""
    t = text.strip().upper()
    if len(t) >= 2 and t[-1] in SUIT_SYMBOLS:
        t = t[:-1] + SUIT_SYMBOLS[t[-1]]
    if t.startswith("10"):
        t = "T" + t[2:]
    card = _BY_NAME.get(t)
    if card is None:
        raise NotationError(f"{text!r} is not a card of the 52-card deck (G1, F1)", text)
    return card


def card_name(card: int) -> str:
    return NAMES[card]


def names(cards: Iterable[int]) -> list[str]:
    """The F1 names of ``cards`` in canonical order (suit, then rank)."""
    return [NAMES[c] for c in sorted(cards)]


def to_mask(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def from_mask(mask: int) -> list[int]:
    """The cards of a mask in canonical order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def points(cards: Iterable[int]) -> int:
    return sum(POINTS[c] for c in cards)


def mask_points(mask: int) -> int:
    return sum(POINTS[c] for c in from_mask(mask))


__all__ = [
    "DECK_SIZE",
    "NAMES",
    "POINTS",
    "RANKS",
    "SUITS",
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
