"""Melds: sets and ring runs with jokers (RULES.md R5, R6), as immutable values.

A set keeps its cards in canonical order (F5). A run keeps them in ascending ring order from its low
end, so the card at position ``i`` stands for rank ``(start + i) % 13`` of the run's suit; a joker
there stands for exactly that card (R5.3, R6).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from engine.core.cards import CARDS, JOKER, JOKER_CODE, NAMES, Card
from engine.core.melds import MIN_MELD, consecutive_start, natural_count, naturals, suit_counts
from engine.pikdame.cards import POINTS
from engine.pikdame.errors import InvalidMeld as InvalidMeld  # raised here, its home is errors
from engine.pikdame.errors import NotationError

MAX_SET: Final = 8
MAX_RUN: Final = 13
_set = object.__setattr__


def needs_prefix(cards: Sequence[int]) -> bool:
    """F2: a meld with a single natural card could be a set or a run, so its notation says which."""
    return natural_count(cards) == 1


class Meld:
    """A meld on the table: ``kind`` is ``"set"`` or ``"run"``."""

    __slots__ = ("_hash", "cards", "kind", "points", "rank", "start", "suit")

    kind: str
    cards: tuple[Card, ...]
    rank: int  # a set's rank, -1 for runs
    suit: int  # a run's suit, -1 for sets
    start: int  # the rank at a run's low end, -1 for sets
    points: int
    _hash: int  # set by the first __hash__

    def __init__(self, kind: str, cards: tuple[Card, ...], rank: int, suit: int, start: int):
        _set(self, "kind", kind)
        _set(self, "cards", cards)
        _set(self, "rank", rank)
        _set(self, "suit", suit)
        _set(self, "start", start)
        _set(self, "points", sum(POINTS[c] for c in cards))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Meld is immutable (tried to set {name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Meld is immutable (tried to delete {name})")

    # -- construction --------------------------------------------------------------------------

    @staticmethod
    def build(cards: Sequence[Card], kind: str | None = None) -> Meld:
        """The meld these cards form; ``kind`` (a ``set``/``run`` prefix) may be required (F2).

        Raises :class:`NotationError` for one natural card without a prefix and
        :class:`InvalidMeld` (with the reason) for anything R5 forbids.
        """
        natural = naturals(cards)
        if kind is None:
            if len(natural) == 1:
                raise NotationError(
                    "a meld with only one natural card needs a 'set' or 'run' prefix", cards
                )
            same_rank = natural and all(c % 13 == natural[0] % 13 for c in natural)
            kind = "set" if same_rank else "run"
        if kind == "set":
            return _build_set(cards, natural)
        if kind == "run":
            return _build_run(cards, natural)
        raise NotationError(f"unknown meld kind {kind!r}", kind)

    # -- changes (each returns a new meld) ------------------------------------------------------

    def with_card(self, card: Card, end: str | None = None) -> Meld:
        """This meld with ``card`` laid on (R4.2 ``lay``); ``end`` is ``low``/``high`` for a
        joker on a run (``high`` when omitted). A natural fitting both ends of a 12-card run goes
        high (F2)."""
        if self.kind == "set":
            if len(self.cards) >= MAX_SET:
                raise InvalidMeld(f"a set holds at most {MAX_SET} cards (R5.1)", card)
            if card != JOKER_CODE:
                if card % 13 != self.rank:
                    raise InvalidMeld(f"{NAMES[card]} is not of this set's rank (R5.1)", card)
                if self._suit_count(card) >= 2:
                    raise InvalidMeld(
                        f"{NAMES[card]} would put a suit in this set three times", card
                    )
            return Meld("set", tuple(sorted((*self.cards, card))), self.rank, -1, -1)
        n = len(self.cards)
        if n >= MAX_RUN:
            raise InvalidMeld("a run holds at most 13 cards (R5.2)", card)
        if card == JOKER_CODE:
            if end == "low":
                return Meld("run", (JOKER, *self.cards), -1, self.suit, (self.start - 1) % 13)
            return Meld("run", (*self.cards, JOKER), -1, self.suit, self.start)
        if card // 13 != self.suit:
            raise InvalidMeld(f"{NAMES[card]} is not of this run's suit (R5.2)", card)
        rank = card % 13
        if rank == (self.start + n) % 13:
            return Meld("run", (*self.cards, card), -1, self.suit, self.start)
        if rank == (self.start - 1) % 13:
            return Meld("run", (card, *self.cards), -1, self.suit, rank)
        raise InvalidMeld(f"{NAMES[card]} fits neither end of this run (R5.2)", card)

    def accepts(self, card: Card) -> bool:
        """Whether ``card`` can be laid on this meld at some end (a cheap :meth:`with_card`)."""
        cards = self.cards
        if self.kind == "set":
            if len(cards) >= MAX_SET:
                return False
            return card == JOKER_CODE or (card % 13 == self.rank and self._suit_count(card) < 2)
        n = len(cards)
        if n >= MAX_RUN:
            return False
        if card == JOKER_CODE:
            return True
        rank = card % 13
        return card // 13 == self.suit and (
            rank == (self.start + n) % 13 or rank == (self.start - 1) % 13
        )

    def swappable(self, card: Card) -> bool:
        """Whether natural ``card`` can replace a joker in this meld (a cheap :meth:`with_swap`)."""
        cards = self.cards
        if JOKER_CODE not in cards or card == JOKER_CODE:
            return False
        if self.kind == "set":
            return card % 13 == self.rank and self._suit_count(card) < 2
        i = (card % 13 - self.start) % 13
        return card // 13 == self.suit and i < len(cards) and cards[i] == JOKER_CODE

    def with_swap(self, card: Card) -> Meld:
        """This meld with natural ``card`` in place of the joker that stands for it (R6)."""
        if JOKER_CODE not in self.cards:
            raise InvalidMeld("this meld holds no joker to swap (R6)", card)
        if self.kind == "set":
            if card % 13 != self.rank:
                raise InvalidMeld(f"{NAMES[card]} is not of this set's rank (R6)", card)
            if self._suit_count(card) >= 2:
                raise InvalidMeld(f"{NAMES[card]} would put a suit in this set three times", card)
            rest = list(self.cards)
            rest.remove(JOKER)
            return Meld("set", tuple(sorted((*rest, card))), self.rank, -1, -1)
        if card // 13 == self.suit:
            i = (card % 13 - self.start) % 13
            if i < len(self.cards) and self.cards[i] == JOKER_CODE:
                cards = list(self.cards)
                cards[i] = card
                return Meld("run", tuple(cards), -1, self.suit, self.start)
        raise InvalidMeld(f"no joker in this run stands for {NAMES[card]} (R6)", card)

    def joined(self, other: Meld) -> Meld:
        """A set joined with a second set of the same rank (R5.4); must stay valid."""
        cards = (*self.cards, *other.cards)
        return _build_set(cards, naturals(cards))

    def _suit_count(self, card: Card) -> int:
        suit = card // 13
        return sum(1 for c in self.cards if c != JOKER_CODE and c // 13 == suit)

    # -- reading -------------------------------------------------------------------------------

    def stands_for(self, index: int) -> Card | None:
        """The natural card position ``index`` of a run stands for (None for sets)."""
        if self.kind != "run":
            return None
        return CARDS[self.suit * 13 + (self.start + index) % 13]

    @property
    def has_joker(self) -> bool:
        return JOKER_CODE in self.cards

    @property
    def prefix(self) -> str | None:
        """The prefix F2 writes before this meld's cards: only where one natural leaves the kind
        open (:func:`needs_prefix`)."""
        return self.kind if natural_count(self.cards) == 1 else None  # needs_prefix, inline

    @property
    def room(self) -> int:
        """How many more cards this meld can take (R5.1, R5.2)."""
        return (MAX_SET if self.kind == "set" else MAX_RUN) - len(self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [NAMES[c] for c in self.cards]}

    @staticmethod
    def from_json(obj: Any) -> Meld:
        """Read F5's ``{"kind", "cards"}``; raises :class:`PikDameError` on anything wrong."""
        if not isinstance(obj, dict) or set(obj) != {"kind", "cards"}:
            raise InvalidMeld('a meld is {"kind": "set"|"run", "cards": [...]}', obj)
        kind, cards = obj["kind"], obj["cards"]
        if kind not in ("set", "run") or not isinstance(cards, list):
            raise InvalidMeld("a meld's kind is set or run, its cards a list", obj)
        return Meld.build([Card.parse(c) for c in cards], kind)

    def notation(self) -> str:
        """The meld's cards in F2 notation, with a prefix where one natural leaves it open."""
        text = " ".join(NAMES[c] for c in self.cards)
        return f"{self.prefix} {text}" if self.prefix else text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Meld) and self.kind == other.kind and self.cards == other.cards

    def __hash__(self) -> int:
        """Worked out once: the bots' and the optimiser's caches look a meld up many times."""
        try:
            return self._hash
        except AttributeError:
            value = hash((self.kind, self.cards))
            _set(self, "_hash", value)
            return value

    def __repr__(self) -> str:
        return f"Meld({self.kind} {' '.join(NAMES[c] for c in self.cards)})"


def _check_size(cards: Sequence[Card], natural: Sequence[Card], kind: str) -> None:
    """R5.1/R5.2: 3 to 8 cards in a set, 3 to 13 in a run; R5.3: at least one natural."""
    n = len(cards)
    most, rule = (MAX_SET, "R5.1") if kind == "set" else (MAX_RUN, "R5.2")
    if n < MIN_MELD or n > most:
        raise InvalidMeld(f"a {kind} has 3 to {most} cards, not {n} ({rule})", cards)
    if not natural:
        raise InvalidMeld("every meld needs at least one natural card (R5.3)", cards)


def _build_set(cards: Sequence[Card], natural: Sequence[Card]) -> Meld:
    _check_size(cards, natural, "set")
    rank = natural[0] % 13
    for c in natural:
        if c % 13 != rank:
            raise InvalidMeld("a set's cards are all of one rank (R5.1)", cards)
    if max(suit_counts(natural)) > 2:
        raise InvalidMeld("no suit may appear more than twice in a set (R5.1)", cards)
    return Meld("set", tuple(sorted(cards)), rank, -1, -1)


def _build_run(cards: Sequence[Card], natural: Sequence[Card]) -> Meld:
    _check_size(cards, natural, "run")
    n = len(cards)
    suit = natural[0] // 13
    if any(c // 13 != suit for c in natural):
        raise InvalidMeld("a run's cards are all of one suit (R5.2)", cards)
    first = next(i for i, c in enumerate(cards) if c != JOKER_CODE)
    start = (cards[first] % 13 - first) % 13
    if all(c == JOKER_CODE or c % 13 == (start + i) % 13 for i, c in enumerate(cards)):
        return Meld("run", tuple(cards), -1, suit, start)
    if len(natural) != n:
        raise InvalidMeld("a run with jokers must be written in ascending ring order (F2)", cards)
    ranks = [c % 13 for c in cards]
    if len(set(ranks)) != n:
        raise InvalidMeld("a run holds no rank twice (R5.2)", cards)
    low = consecutive_start(ranks, wrap=True)
    if low is None:
        raise InvalidMeld("a run's ranks must be consecutive on the ring (R5.2)", cards)
    start = low
    return Meld(
        "run", tuple(CARDS[suit * 13 + (start + i) % 13] for i in range(n)), -1, suit, start
    )


def melds_points(melds: Iterable[Meld]) -> int:
    return sum(m.points for m in melds)


def join_target(melds: Sequence[Meld], meld: Meld) -> int | None:
    """The index of the owner's set that a new set of the same rank joins (R5.4), or None."""
    if meld.kind != "set":
        return None
    for i, m in enumerate(melds):
        if m.kind == "set" and m.rank == meld.rank:
            return i
    return None


def joins_ok(melds: Sequence[Meld], meld: Meld) -> bool:
    """R5.4: a new set joins the owner's set of its rank and must stay valid."""
    target = join_target(melds, meld)
    if target is None:
        return True
    try:
        melds[target].joined(meld)
    except InvalidMeld:
        return False
    return True


def placed(melds: Sequence[Meld], meld: Meld) -> list[Meld]:
    """The owner's melds after laying ``meld``: a set joins the set of its rank (R5.4), anything
    else comes last; raises :class:`InvalidMeld` if the join would be invalid."""
    out = list(melds)
    target = join_target(out, meld)
    if target is None:
        out.append(meld)
    else:
        out[target] = out[target].joined(meld)
    return out
