"""Shuffle, cut, lucky grab and deal, exactly as FORMATS.md F3 (RULES.md R3).

Everything random comes from the shared F3 stream (``engine.core.rng``), so the same seed gives the
same deck on every machine and every Python version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.core.cards import FIRST_JOKER_ID, JOKER_CODE
from engine.core.errors import FormatError
from engine.core.rng import Stream, shuffled
from engine.pikdame.cards import QUEEN_OF_SPADES_CODE, TOTAL_CARDS

HAND_SIZE: Final = 15


def shuffle(stream: Stream) -> list[int]:
    """F3 step 1: Fisher–Yates over the card ids 0 … 109; element 0 is the top of the deck."""
    return shuffled(stream, TOTAL_CARDS)


def is_lucky(card_id: int) -> bool:
    """Q♠ (ids 11 and 63) or a joker (104 … 109): taken by the cutter at the cut point (R3)."""
    return card_id >= FIRST_JOKER_ID or card_id % 52 == QUEEN_OF_SPADES_CODE


@dataclass(frozen=True)
class Deal:
    """The outcome of F3 in physical card ids: each seat's hand, the stock top first, the cut."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    cut: int
    lucky: tuple[int, ...]  # the ids the cutter took at the cut point, in order
    face_up: int | None = None  # Tausende (R12.1): the card turned face up beside the stock


def cutter(players: int, dealer: int) -> int:
    """R2: the seat before the dealer (with two seats, the starting player)."""
    return (dealer - 1) % players


def deal(
    seed: bytes,
    players: int,
    dealer: int,
    cut: int | None = None,
    *,
    total: int = TOTAL_CARDS,
    hand_size: int = HAND_SIZE,
    tausende: bool = False,
) -> Deal:
    """Shuffle, cut (automatic when ``cut`` is None), lucky grab and deal 15 cards to each seat.

    With ``tausende`` (R12.1): F3 over ``total`` = 108 ids (jokers 104 … 107), no lucky grab,
    ``hand_size`` = 13 cards each, then the next card is turned face up; the rest is the stock."""
    if players not in (2, 3, 4):
        raise FormatError("2 to 4 players (R2)", players)
    if not 0 <= dealer < players:
        raise FormatError("the dealer is a seat (R2)", dealer)
    stream = Stream(seed)
    deck = shuffled(stream, total)
    if cut is None:
        cut = 1 + stream.uniform(total - 1)
    if not 1 <= cut <= total - 1:
        raise FormatError(f"the cut is 1 … {total - 1} (F3)", cut)
    order = deck[cut:] + deck[:cut]
    hands: list[list[int]] = [[] for _ in range(players)]
    p = 0
    while not tausende and is_lucky(order[p]):
        hands[cutter(players, dealer)].append(order[p])
        p += 1
    lucky = tuple(order[:p])
    seat = (dealer + 1) % players
    while any(len(h) < hand_size for h in hands):
        if len(hands[seat]) < hand_size:
            hands[seat].append(order[p])
            p += 1
        seat = (seat + 1) % players
    if tausende:
        face_up = order[p]
        return Deal(tuple(tuple(h) for h in hands), tuple(order[p + 1 :]), cut, lucky, face_up)
    return Deal(tuple(tuple(h) for h in hands), tuple(order[p:]), cut, lucky)


__all__ = [
    "HAND_SIZE",
    "JOKER_CODE",
    "Deal",
    "Stream",
    "cutter",
    "deal",
    "is_lucky",
    "shuffle",
]
