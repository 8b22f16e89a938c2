"""Gin Rommé as every game package offers itself (:class:`engine.core.game.GameType`, OpenSpiel's
Game → State → observation): a round is one hand (G3–G8), a state is a :class:`HandState`, a seat
sees its :class:`View` (G9). Live play of a whole match is :class:`engine.gin.match.GinMatch`.
"""

from __future__ import annotations

from typing import Any, Final

from engine.core.game import GameType
from engine.gin.moves import Move, parse_move
from engine.gin.state import HandState
from engine.gin.view import View, view

#: What stands where Pik Dame's rules do: a hand's number in its match (G3 deals hand h from the
#: match seed and h; the match itself has no setting to choose, G2).
HandNumber = int


class Gin:
    """Gin as a :class:`GameType`: deals a hand, reads its position document, parses G8's move
    notation and tells one seat what it may know."""

    name: Final = "gin"

    def new_round(self, seed: bytes, rules: HandNumber, dealer: int) -> HandState:
        """Hand number ``rules`` of the match with ``seed``, dealt by ``dealer`` (G3, G4)."""
        return HandState.new(seed, rules, dealer)

    def from_position(self, doc: Any) -> HandState:
        return HandState.from_position(doc)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def view(self, state: HandState, seat: int) -> View:
        return view(state, seat)


GIN: Final[GameType[HandNumber, HandState, View, Move]] = Gin()

__all__ = ["GIN", "Gin", "HandNumber"]
