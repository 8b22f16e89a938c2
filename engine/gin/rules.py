"""Gin's rules as values (GIN.md G4–G7): the phases of a turn, the knock limit, the bonuses, the
wall, the bound on takes, how a hand ends, and the records of a knock and of a hand's outcome.

Both the state (``engine.gin.state``) and the position document (``engine.gin.position``) build on
them; neither is needed to read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.core.errors import FormatError
from engine.gin.cards import NAMES
from engine.gin.melds import meld_names

#: upcard: the first upcard is offered (G4); draw: draw or take (G5.1); discard: discard or knock
#: (G5.2); defend: the defender answers a knock (G6).
PHASES: Final = ("upcard", "draw", "discard", "defend")
KNOCK_LIMIT: Final = 10  # G6: declared deadwood ≤ 10
BONUS: Final = 25  # G6: gin bonus and undercut bonus
WALL: Final = 2  # G7: a discard that leaves the stock at 2 cards or fewer ends the hand drawn
ENDS: Final = ("gin", "knock", "undercut", "wall", "resign")
#: Takes from the discard pile per hand (OpenSpiel's kMaxNumDrawUpcardActions): without a bound two
#: players could pass cards back and forth through the pile for ever, since a take leaves the
#: stock as it is. After the 50th take of a hand, only ``draw`` is left.
MAX_TAKES: Final = 50


@dataclass(frozen=True)
class Knock:
    """A knock (G6): the knocker, its face-down discard (None in the other seat's view), its
    declared melds (numbered 1, 2 … in this order) and their deadwood."""

    seat: int
    card: int | None
    melds: tuple[int, ...]
    deadwood: int

    @property
    def gin(self) -> bool:
        return self.deadwood == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "card": None if self.card is None else NAMES[self.card],
            "melds": [meld_names(m) for m in self.melds],
            "deadwood": self.deadwood,
        }


@dataclass(frozen=True)
class HandOutcome:
    """How a hand ended and what each seat scored in it (G6, G7)."""

    end: str
    winner: int | None
    scores: tuple[int, int]
    deadwood: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "end": self.end,
            "winner": self.winner,
            "scores": list(self.scores),
            "deadwood": None if self.deadwood is None else list(self.deadwood),
        }

    @staticmethod
    def from_json(obj: Any) -> HandOutcome:
        ok = (
            isinstance(obj, dict)
            and set(obj) == {"end", "winner", "scores", "deadwood"}
            and obj["end"] in ENDS
            and (obj["winner"] is None or obj["winner"] in (0, 1))
            and _int_pair(obj["scores"])
            and (obj["deadwood"] is None or _int_pair(obj["deadwood"]))
        )
        if not ok:
            raise FormatError("an outcome is {end, winner, scores: [a, b], deadwood}", obj)
        dw = obj["deadwood"]
        return HandOutcome(
            obj["end"], obj["winner"], tuple(obj["scores"]), None if dw is None else tuple(dw)
        )


def _int_pair(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(type(x) is int and x >= 0 for x in v)


def card_of(knock: Knock) -> int:
    """The knock card of a full state's knock (never None outside a view)."""
    assert knock.card is not None
    return knock.card


__all__ = [
    "BONUS",
    "ENDS",
    "KNOCK_LIMIT",
    "MAX_TAKES",
    "PHASES",
    "WALL",
    "HandOutcome",
    "Knock",
    "card_of",
]
