"""The standard 52-card deck as ints and 52-bit masks, for the games that deal one deck without
jokers (Gin Rommé, GIN.md G1, G3; any other 52-card rummy written here).

A card is an ``int`` 0 … 51, the id of :class:`engine.core.cards.Card` (``suit * 13 + rank``,
suits S H D C, ranks A 2 … K), so the integer order is the canonical order (by suit, then rank)
and a hand is a 52-bit mask. Notation is F1 (``engine.core.cards``); the joker ``X`` is no card
of this deck. What a card counts as deadwood is a game's rule: a game names its values per rank
(:class:`CardValues`); :data:`DEADWOOD_VALUES` are the usual ones (G1: A = 1, 2–10 their value,
J Q K = 10).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Final

from engine.core.cards import NAMES as CARD_NAMES
from engine.core.cards import NATURALS, RANKS, SUITS, Card
from engine.core.errors import NotationError

DECK_SIZE: Final = NATURALS
#: Every card of the deck as a mask, and the 13 ranks of one suit.
FULL_DECK: Final = (1 << DECK_SIZE) - 1
SUIT_BITS: Final = 0x1FFF

#: F1 names by id, the 52 naturals only: NAMES[11] == "QS".
NAMES: Final = CARD_NAMES[:DECK_SIZE]
#: The usual deadwood value of each rank A … K (G1): A = 1, 2–10 their value, J Q K = 10.
DEADWOOD_VALUES: Final = tuple(min(r + 1, 10) for r in range(13))


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def parse_card(text: str) -> int:
    """One card in F1 notation (``Card.parse``: any case, ``10`` for ``T``, suit symbols),
    surrounding blanks ignored; the joker is no card of this deck (G1)."""
    try:
        card = Card.parse(text.strip())
    except NotationError:
        card = None
    if card is None or card.is_joker:
        raise NotationError(f"{text!r} is not a card of the 52-card deck (G1, F1)", text)
    return int(card)


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


#: Per suit, indexed by the suit's 13-bit part of a mask: its ranks (0 … 12, ascending) and its
#: cards. Lookups four at a time replace a bit loop on the playouts' hottest path.
SUIT_RANKS: Final = tuple(tuple(r for r in range(13) if bits >> r & 1) for bits in range(1 << 13))
_SUIT_CARDS: Final = tuple(
    tuple(tuple(s * 13 + r for r in ranks) for ranks in SUIT_RANKS) for s in range(4)
)


def from_mask(mask: int) -> list[int]:
    """The cards of a mask in canonical order."""
    spades, hearts, diamonds, clubs = _SUIT_CARDS
    return [
        *spades[mask & 0x1FFF],
        *hearts[mask >> 13 & 0x1FFF],
        *diamonds[mask >> 26 & 0x1FFF],
        *clubs[mask >> 39 & 0x1FFF],
    ]


def _mask_counter(by_rank: tuple[int, ...]) -> Callable[[int], int]:
    """The points of a mask's cards, read per suit from a table of all 8192 rank sets."""
    table = tuple(sum(by_rank[r] for r in ranks) for ranks in SUIT_RANKS)

    def mask_points(mask: int) -> int:
        return (
            table[mask & 0x1FFF]
            + table[mask >> 13 & 0x1FFF]
            + table[mask >> 26 & 0x1FFF]
            + table[mask >> 39 & 0x1FFF]
        )

    return mask_points


@dataclass(frozen=True)
class CardValues:
    """What each card counts, a game's rule given per rank A … K: ``by_card`` per card id,
    ``mask`` the points of a mask's cards (a plain function, for the hot paths)."""

    by_rank: tuple[int, ...]
    by_card: tuple[int, ...] = field(init=False, repr=False, compare=False)
    mask: Callable[[int], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.by_rank) != 13 or any(type(v) is not int or v < 0 for v in self.by_rank):
            raise ValueError(f"one value of at least 0 per rank A … K: {self.by_rank!r}")
        object.__setattr__(self, "by_card", tuple(self.by_rank[c % 13] for c in range(DECK_SIZE)))
        object.__setattr__(self, "mask", _mask_counter(self.by_rank))

    def of(self, cards: Iterable[int]) -> int:
        by_card = self.by_card
        return sum(by_card[c] for c in cards)


#: The usual deadwood values (G1) as a :class:`CardValues`.
DEADWOOD: Final = CardValues(DEADWOOD_VALUES)


__all__ = [
    "DEADWOOD",
    "DEADWOOD_VALUES",
    "DECK_SIZE",
    "FULL_DECK",
    "NAMES",
    "RANKS",
    "SUITS",
    "SUIT_BITS",
    "SUIT_RANKS",
    "CardValues",
    "card_name",
    "from_mask",
    "names",
    "parse_card",
    "rank",
    "suit",
    "to_mask",
]
