"""Every exception of the engine, one class per meaning; each error carries a stable code
(FORMATS.md F7, GIN.md G9).

In the style of python-chess: an error names the offending input and why, and keeps the input (and,
for an illegal move, the state it was tried in) so callers can report it without re-deriving it.
A game adds no exception classes of its own beyond a subclass naming which game raised it (its
``errors`` module); the modules that raise these re-export them where callers have imported them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class EngineError(ValueError):
    """Base class: ``code`` is a stable code of the game's spec, ``input`` what was rejected."""

    code: str = "bad_format"

    def __init__(self, message: str, input: Any = None, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.input = input
        if code is not None:
            self.code = code

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class NotationError(EngineError):
    """Text that is not valid card or move notation (F1, F2): code ``syntax``."""

    code = "syntax"


class IllegalMoveError(EngineError):
    """A well-formed move that the rules forbid in this state; the state is unchanged."""

    def __init__(self, code: str, message: str, move: Any, state: Any = None) -> None:
        super().__init__(message, move, code=code)
        self.move = move
        self.state = state


class FormatError(EngineError):
    """A malformed position, record or command input (F5, F6, F7): code ``bad_format``."""

    code = "bad_format"


class InvalidMeld(EngineError):
    """Cards that do not form (or would not keep) a valid meld (R5, R6): code ``invalid_meld``.
    Pik Dame's melds raise it; its state turns it into the move's :class:`IllegalMoveError`."""

    code = "invalid_meld"


class Malformed(FormatError):
    """A command line's own input is malformed (F7, G9): the command exits 2 with the message
    on standard error instead of writing its output."""


class ReplayError(EngineError):
    """A game record that does not replay: an illegal move, a differing bot move, a wrong score."""

    def __init__(self, code: str, message: str, move_index: int | None, input: Any = None) -> None:
        super().__init__(message, input, code=code)
        self.move_index = move_index

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "move_index": self.move_index}


class UnknownRelease(EngineError):
    """A record names an engine version this install does not keep (code ``unknown_engine``);
    ``version`` is the one asked for, ``known`` the ones kept. Each game subclasses it, so a
    caller tells whose registry of releases (``engine.core.releases``) did not know it."""

    def __init__(self, version: object, known: Iterable[str] = ()) -> None:
        self.version = version
        self.known = tuple(sorted(known))
        super().__init__(
            f"the record was played by engine {version!r}, which this install does not keep "
            f"(released here: {', '.join(self.known)}); deploy a worker that has it",
            version,
            code="unknown_engine",
        )


class OutOfBudget(Exception):
    """A search opened more subproblems than its budget of calls allows (never a clock, so the
    answer stays deterministic): the caller answers with its fallback. Not an input error."""


__all__ = [
    "EngineError",
    "FormatError",
    "IllegalMoveError",
    "InvalidMeld",
    "Malformed",
    "NotationError",
    "OutOfBudget",
    "ReplayError",
    "UnknownRelease",
]
