"""Every game's errors, each carrying a stable code (FORMATS.md F7, GIN.md G9).

In the style of python-chess: an error names the offending input and why, and keeps the input (and,
for an illegal move, the state it was tried in) so callers can report it without re-deriving it.
"""

from __future__ import annotations

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


class ReplayError(EngineError):
    """A game record that does not replay: an illegal move, a differing bot move, a wrong score."""

    def __init__(self, code: str, message: str, move_index: int | None, input: Any = None) -> None:
        super().__init__(message, input, code=code)
        self.move_index = move_index

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "move_index": self.move_index}


__all__ = ["EngineError", "FormatError", "IllegalMoveError", "NotationError", "ReplayError"]
