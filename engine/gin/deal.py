"""The seeded deal of each hand (GIN.md G3), on F3's random stream.

Hand h of a match with seed S shuffles with S_h = SHA-256(S ‖ "gin/hand/" ‖ h as 4-byte big-endian),
so every hand of a match, drawn hands included, is fixed by the match seed alone.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from engine.core.errors import FormatError
from engine.core.rng import SEED_BYTES, Stream, shuffled
from engine.gin.cards import DECK_SIZE

HAND_CARDS = 10


def hand_seed(seed: bytes, hand: int) -> bytes:
    """G3: S_h = SHA-256(S ‖ "gin/hand/" ‖ h as 4-byte big-endian), h = 1, 2, 3 …"""
    if len(seed) != SEED_BYTES:
        raise FormatError("a seed is 32 bytes (G3, F3)", seed)
    if not 1 <= hand < 2**32:
        raise FormatError("a hand number is 1 … 2^32-1 (G3)", hand)
    return hashlib.sha256(seed + b"gin/hand/" + hand.to_bytes(4, "big")).digest()


@dataclass(frozen=True)
class Deal:
    """A dealt hand: both players' cards (in deal order), the upcard, the stock (top first)."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]
    upcard: int
    stock: tuple[int, ...]


def deal(seed: bytes, hand: int, dealer: int) -> Deal:
    """G3: shuffle (F3 step 1, no cut), 10 cards each one at a time, the non-dealer first; the
    21st card is the upcard; the other 31 are the stock, top first."""
    if dealer not in (0, 1):
        raise FormatError("the dealer is seat 0 or 1 (G2)", dealer)
    deck = shuffled(Stream(hand_seed(seed, hand)), DECK_SIZE)
    first = deck[0 : 2 * HAND_CARDS : 2]  # the non-dealer's cards: 1st, 3rd, 5th …
    second = deck[1 : 2 * HAND_CARDS : 2]
    hands = (second, first) if dealer == 0 else (first, second)
    return Deal((tuple(hands[0]), tuple(hands[1])), deck[2 * HAND_CARDS], tuple(deck[21:]))


__all__ = ["HAND_CARDS", "Deal", "deal", "hand_seed"]
