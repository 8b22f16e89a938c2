"""The shape every game package follows, in the spirit of OpenSpiel's Game → State → observation.

A game (Pik Dame, Gin Rommé …) offers a :class:`GameType`: it deals a state from a seed and its
rules (F3, G3), parses a move from notation (F2, G8), reads a state from its position document
(F5, G9), and tells one seat what it may know (R10, G9). A :class:`GameState` knows whose turn it
is, lists and applies legal moves (``push`` validates and raises an
:class:`~engine.core.errors.EngineError` with a stable code, changing nothing), and writes its
position document. A :class:`SeatView` is the only input of bots, API responses and pages, so
hidden cards cannot leak by construction.

These are typing protocols: a game conforms by shape, checked by mypy where the game declares its
:class:`GameType` (its state must be a :class:`GameState`, its view a :class:`SeatView`), and by
tests/pikdame/test_game_shape.py and tests/gin/test_game_shape_gin.py. The engine's games are
registered by name in ``engine.games``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

MoveT = TypeVar("MoveT")
MoveT_co = TypeVar("MoveT_co", covariant=True)
RulesT = TypeVar("RulesT", contravariant=True)
StateT = TypeVar("StateT", bound="GameState[Any]")
ViewT = TypeVar("ViewT", bound="SeatView", covariant=True)


class Move(Protocol):
    """A move: written back in canonical notation by ``str``."""

    def __str__(self) -> str: ...


class GameState(Protocol[MoveT]):
    """A full state, hidden cards included: never handed to a seat (see :class:`SeatView`)."""

    @property
    def players(self) -> int: ...

    @property
    def turn(self) -> int: ...

    @property
    def finished(self) -> bool:
        """Whether the round (the hand) is over: no move is legal any more."""
        ...

    def legal_moves(self) -> Iterable[MoveT]:
        """Every legal move of the seat to move, each in canonical form (a game may yield them
        lazily, as Pik Dame does, or list them, as Gin does)."""
        ...

    def push(self, move: MoveT | str, seat: int | None = None) -> MoveT:
        """Validate and apply ``move`` (by ``seat``, default the seat to move); returns it in
        canonical form. Raises an ``EngineError`` with a stable code, changing nothing."""
        ...

    def to_position(self) -> dict[str, Any]: ...


class SeatView(Protocol):
    """What one seat may know of a state (R10, G9)."""

    @property
    def seat(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


class GameType(Protocol[RulesT, StateT, ViewT, MoveT_co]):
    """A game: its name, and how its states begin, read, move and are seen. ``RulesT`` is what
    chooses a round's deal besides the seed and the dealer: Pik Dame's rules (players, ruleset),
    Gin's hand number in its match."""

    @property
    def name(self) -> str: ...

    def new_round(self, seed: bytes, rules: RulesT, dealer: int) -> StateT: ...

    def from_position(self, doc: Any) -> StateT: ...

    def parse_move(self, text: str) -> MoveT_co: ...

    def view(self, state: StateT, seat: int) -> ViewT: ...


__all__ = ["GameState", "GameType", "Move", "SeatView"]
