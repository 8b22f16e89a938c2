"""Cards and their notation (FORMATS.md F1, RULES.md R1).

A card is an ``int`` subclass with 53 possible values: ``suit * 13 + rank`` for naturals (suits
in the order S H D C, ranks A 2 … K as 0 … 12) and 52 for the joker. Two cards of the same rank and
suit are interchangeable for every rule (R1), so the engine never tells the two decks apart; only
the deal (F3) works with the 110 physical card ids. Integer order is the canonical order of F5: by
suit, then rank, jokers last. Being ints, cards hash and sort the same on every machine.
"""

from __future__ import annotations

from typing import Final

from engine.errors import NotationError

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
NUM_KINDS: Final = 53
JOKER_CODE: Final = 52
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

    @property
    def points(self) -> int:
        return POINTS[self]

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
        """The kind of a physical card id 0 … 109 (F3): deck = id // 52, suit, rank; 104+ jokers."""
        if card_id >= 104:
            return JOKER
        return CARDS[card_id % 52]


POINTS: Final[tuple[int, ...]] = tuple(_points(c) for c in range(NUM_KINDS))
NAMES: Final[tuple[str, ...]] = tuple([RANKS[c % 13] + SUITS[c // 13] for c in range(52)] + ["X"])
CARDS: Final[tuple[Card, ...]] = tuple(Card(c) for c in range(NUM_KINDS))
JOKER: Final = CARDS[JOKER_CODE]
QUEEN_OF_SPADES: Final = CARDS[QUEEN_OF_SPADES_CODE]
#: How many copies of each kind exist in the 110 cards (R1): two of each natural, six jokers.
COPIES: Final[tuple[int, ...]] = tuple([2] * 52 + [6])


def _names_table() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for code in range(52):
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
    return tuple(Card.parse(t) for t in tokens)


def counts_of(cards: list[Card] | tuple[Card, ...]) -> list[int]:
    """A 53-slot multiset of ``cards`` (the engine's hand representation)."""
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[c] += 1
    return counts


def cards_of(counts: list[int]) -> list[Card]:
    """The cards of a 53-slot multiset in canonical order (F5)."""
    out: list[Card] = []
    for code, n in enumerate(counts):
        if n:
            out.extend([CARDS[code]] * n)
    return out


def points_of(cards: list[Card] | tuple[Card, ...]) -> int:
    return sum(POINTS[c] for c in cards)
