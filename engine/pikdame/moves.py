"""Moves and their notation (FORMATS.md F2) as small immutable values.

``Move.parse`` checks only the notation (code ``syntax``); whether a move is legal is the state's
business (:meth:`engine.pikdame.state.State.push`). ``str(move)`` writes the canonical form.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple

from engine.core.cards import JOKER_CODE, NAMES, Card
from engine.pikdame.errors import NotationError
from engine.pikdame.melds import Meld, needs_prefix

KINDS: Final = ("draw", "take", "meld", "lay", "swap", "discard", "resign")
DRAW_PHASE_KINDS: Final = frozenset(("draw", "take"))


class Move(NamedTuple):
    """One move: ``kind`` and, as it needs, ``cards``, ``meld`` (1-based), ``end``, ``prefix``.

    A named tuple: immutable, so the parse cache can hand out one object to every caller."""

    kind: str
    cards: tuple[Card, ...] = ()
    meld: int = 0
    end: str | None = None
    prefix: str | None = None
    #: Tausende (R12.5): the seat owning the meld a ``lay`` or ``swap`` addresses (``S.N``);
    #: None is the player's own meld, F2's form.
    seat: int | None = None

    @staticmethod
    def parse(text: str) -> Move:
        """Read F2 notation; raises :class:`NotationError` (code ``syntax``) naming the input."""
        if not isinstance(text, str):
            raise NotationError(f"a move is a string, not {type(text).__name__}", text)
        return _parse(text)

    # Convenience constructors for bots and tests.
    @staticmethod
    def draw() -> Move:
        return DRAW

    @staticmethod
    def resign() -> Move:
        return RESIGN

    @staticmethod
    def discard(card: Card) -> Move:
        return Move("discard", (card,))

    @staticmethod
    def lay(card: Card, meld: int, end: str | None = None) -> Move:
        return Move("lay", (card,), meld, end if card == JOKER_CODE else None)

    @staticmethod
    def swap(meld: int, card: Card) -> Move:
        return Move("swap", (card,), meld)

    @staticmethod
    def laying(meld: Meld, kind: str = "meld") -> Move:
        """The canonical ``meld`` (or ``take``) move that lays ``meld``: its cards in stored
        order, with the prefix only where F2 needs it."""
        return Move(kind, meld.cards, 0, None, meld.prefix)

    def __str__(self) -> str:
        kind = self.kind
        if kind in ("draw", "resign", "pass"):
            return kind
        if kind == "discard":
            return f"discard {NAMES[self.cards[0]]}"
        if kind == "lay":
            text = f"lay {NAMES[self.cards[0]]} {self.target}"
            return f"{text} {self.end}" if self.end else text
        if kind == "swap":
            return f"swap {self.target} {NAMES[self.cards[0]]}"
        if kind == "swap-up":
            return f"swap-up {NAMES[self.cards[0]]}"
        cards = " ".join(NAMES[c] for c in self.cards)
        return f"{kind} {self.prefix} {cards}" if self.prefix else f"{kind} {cards}"

    @property
    def target(self) -> str:
        """The meld a lay or swap addresses: ``N`` (own meld, F2) or ``S.N`` (Tausende)."""
        return str(self.meld) if self.seat is None else f"{self.seat}.{self.meld}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


DRAW: Final = Move("draw")
RESIGN: Final = Move("resign")


def _card(token: str, text: str) -> Card:
    try:
        return Card.parse(token)
    except NotationError:
        raise NotationError(f"{text!r}: {token!r} is not a card", text) from None


def _meld_number(token: str, text: str) -> int:
    # More than 9 digits names no meld (and int() refuses over 4300 digits): syntax, not a crash.
    if not token.isdigit() or not token.isascii() or len(token.lstrip("0")) > 9 or int(token) < 1:
        raise NotationError(f"{text!r}: {token!r} is not a meld number (1, 2, 3 …)", text)
    return int(token)


@lru_cache(maxsize=8192)
def _parse(text: str) -> Move:
    tokens = text.split()
    if not tokens:
        raise NotationError("empty move", text)
    verb, args = tokens[0].lower(), tokens[1:]
    if verb in ("draw", "resign"):
        if args:
            raise NotationError(f"{text!r}: '{verb}' takes no arguments", text)
        return DRAW if verb == "draw" else RESIGN
    if verb in ("take", "meld"):
        prefix = None
        if args and args[0].lower() in ("set", "run"):
            prefix = args[0].lower()
            args = args[1:]
        if not args:
            raise NotationError(f"{text!r}: '{verb}' needs the meld's cards", text)
        cards = tuple(_card(t, text) for t in args)
        if prefix is None and needs_prefix(cards):
            raise NotationError(
                f"{text!r}: with one natural card, say 'set' or 'run' before the cards", text
            )
        return Move(verb, cards, 0, None, prefix)
    if verb == "lay":
        if len(args) not in (2, 3):
            raise NotationError(f"{text!r}: expected 'lay CARD MELD [low|high]'", text)
        card = _card(args[0], text)
        meld = _meld_number(args[1], text)
        end = None
        if len(args) == 3:
            end = args[2].lower()
            if end not in ("low", "high"):
                raise NotationError(f"{text!r}: the end is 'low' or 'high'", text)
            if card != JOKER_CODE:
                raise NotationError(f"{text!r}: only a joker is laid at a chosen end", text)
        return Move("lay", (card,), meld, end)
    if verb == "swap":
        if len(args) != 2:
            raise NotationError(f"{text!r}: expected 'swap MELD CARD'", text)
        meld = _meld_number(args[0], text)
        card = _card(args[1], text)
        if card == JOKER_CODE:
            raise NotationError(f"{text!r}: a joker is swapped for a natural card", text)
        return Move("swap", (card,), meld)
    if verb == "discard":
        if len(args) != 1:
            raise NotationError(f"{text!r}: expected 'discard CARD'", text)
        return Move("discard", (_card(args[0], text),))
    raise NotationError(f"{text!r}: unknown move {tokens[0]!r} (one of {', '.join(KINDS)})", text)
