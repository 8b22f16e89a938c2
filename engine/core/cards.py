"""Card ids and their notation (FORMATS.md F1), shared by every game (GIN.md G1, G3).

A card is an ``int`` subclass with 53 possible values: ``suit * 13 + rank`` for naturals (suits
in the order S H D C, ranks A 2 … K as 0 … 12) and 52 for the joker (Pik Dame and Tausende only;
Gin Rommé uses the 52 naturals). Two cards of the same rank and suit are interchangeable for every
rule (R1), so games never tell the decks apart; only a deal (F3, G3) works with physical card ids.
Integer order is the canonical order of F5: by suit, then rank, jokers last. Being ints, cards hash
and sort the same on every machine. What a card is worth belongs to each game (R1, R12.1, G1).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.core.errors import NotationError

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
#: The natural card kinds (ids 0 … 51) and every kind with the joker (ids 0 … 52).
NATURALS: Final = 52
NUM_KINDS: Final = 53
JOKER_CODE: Final = 52
#: Physical card ids (F3): deck d's natural k is d * 52 + k; ids from here on are jokers.
FIRST_JOKER_ID: Final = 104
#: The most physical cards any game here deals (R1: two decks and six jokers).
MAX_CARD_IDS: Final = 110

#: A multiset of cards: how many of each of the 53 kinds (a hand, a pool, a deck's remainder).
Counts = list[int]


class Card(int):
    """One card kind: 0 … 51 naturals, 52 the joker. Use :data:`CARDS` or :meth:`parse`."""

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        return self == JOKER_CODE

    @property
    def rank(self) -> int:
        """0 (A) … 12 (K); -1 for the joker."""
        return -1 if self == JOKER_CODE else self % 13

    @property
    def suit(self) -> int:
        """0 … 3 for S H D C; -1 for the joker."""
        return -1 if self == JOKER_CODE else self // 13

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({NAMES[self]!r})"

    @staticmethod
    def parse(text: str) -> Card:
        """Read F1 notation (case-insensitive, ``10`` for ``T``, suit symbols accepted)."""
        card = _BY_NAME.get(text.upper()) if isinstance(text, str) else None
        if card is None:
            raise NotationError(f"not a card: {text!r} (expected e.g. QS, TH, 10H, 2C, X)", text)
        return card

    @staticmethod
    def from_id(card_id: int) -> Card:
        """The kind of a physical card id (F3, G3): deck = id // 52, suit, rank; 104+ jokers."""
        try:
            return _BY_ID[card_id]  # a table: every deal reads 110 ids, so this stays cheap
        except IndexError:
            return JOKER


NAMES: Final[tuple[str, ...]] = tuple(
    [RANKS[c % 13] + SUITS[c // 13] for c in range(NATURALS)] + ["X"]
)
CARDS: Final[tuple[Card, ...]] = tuple(Card(c) for c in range(NUM_KINDS))
JOKER: Final = CARDS[JOKER_CODE]
#: The kind of each physical id of two decks and their jokers (F3: 104 naturals, then jokers).
_BY_ID: Final = tuple(
    CARDS[i % NATURALS] if i < FIRST_JOKER_ID else JOKER for i in range(MAX_CARD_IDS)
)


def _names_table() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for code in range(NATURALS):
        rank, suit = RANKS[code % 13], SUITS[code // 13]
        table[rank + suit] = CARDS[code]
        if rank == "T":
            table["10" + suit] = CARDS[code]
        for symbol, letter in SUIT_SYMBOLS.items():
            if letter == suit:
                table[rank + symbol] = CARDS[code]
                if rank == "T":
                    table["10" + symbol] = CARDS[code]
    table["X"] = JOKER
    return table


_BY_NAME: Final = _names_table()


def parse_cards(tokens: list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    return tuple(card_list(tokens))


def card_list(tokens: Iterable[str]) -> list[Card]:
    """:meth:`Card.parse` of each token, in order. A stored position (a table's, read for every
    seat's stream message) spells its 110 cards canonically: those are looked up at once, and
    any other spelling goes through ``Card.parse`` (which raises on a bad one)."""
    tokens = list(tokens)
    try:
        return [_BY_NAME[t] for t in tokens]
    except (KeyError, TypeError):
        return [Card.parse(t) for t in tokens]


def counts_of(cards: Iterable[int]) -> Counts:
    """The 53-slot multiset of ``cards`` (how games hold a hand: identical cards are one kind)."""
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[c] += 1
    return counts


def cards_of(counts: Counts) -> list[Card]:
    """The cards of a 53-slot multiset in canonical order (F5)."""
    out: list[Card] = []
    for code, n in enumerate(counts):
        if n == 1:
            out.append(CARDS[code])
        elif n:
            out.extend([CARDS[code]] * n)
    return out


def held(counts: Counts) -> list[Card]:
    """Each kind present in a 53-slot multiset once, in canonical order."""
    return [CARDS[code] for code, n in enumerate(counts) if n]


__all__ = [
    "CARDS",
    "FIRST_JOKER_ID",
    "JOKER",
    "JOKER_CODE",
    "MAX_CARD_IDS",
    "NAMES",
    "NATURALS",
    "NUM_KINDS",
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "Card",
    "Counts",
    "card_list",
    "cards_of",
    "counts_of",
    "held",
    "parse_cards",
]
