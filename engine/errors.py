"""The engine's errors, each carrying a stable code of FORMATS.md F7.

In the style of python-chess: an error names the offending input and why, and keeps the input (and,
for an illegal move, the state it was tried in) so callers can report it without re-deriving it.
"""

from __future__ import annotations

from typing import Any, Final

#: Every stable error code of F7, in the order in which they win when several apply (the first
#: nine), followed by the codes that never compete with a move's own checks.
CODES: Final = (
    "syntax",
    "round_over",
    "wrong_phase",
    "stock_empty",
    "take_not_allowed",
    "card_not_in_hand",
    "no_such_meld",
    "invalid_meld",
    "must_keep_card",
    "not_your_turn",
    "bot_mismatch",
    "score_mismatch",
    "bad_format",
)


class PikDameError(ValueError):
    """Base class: ``code`` is one of :data:`CODES`, ``input`` what was rejected."""

    code: str = "bad_format"

    def __init__(self, message: str, input: Any = None, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.input = input
        if code is not None:
            self.code = code

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class NotationError(PikDameError):
    """Text that is not valid card or move notation (F1, F2): code ``syntax``."""

    code = "syntax"


class IllegalMoveError(PikDameError):
    """A well-formed move that the rules forbid in this state; the state is unchanged."""

    def __init__(self, code: str, message: str, move: Any, state: Any = None) -> None:
        super().__init__(message, move, code=code)
        self.move = move
        self.state = state


class FormatError(PikDameError):
    """A malformed position, record or command input (F5, F6, F7): code ``bad_format``."""

    code = "bad_format"


class ReplayError(PikDameError):
    """A game record that does not replay: an illegal move, a differing bot move, a wrong score."""

    def __init__(self, code: str, message: str, move_index: int | None, input: Any = None) -> None:
        super().__init__(message, input, code=code)
        self.move_index = move_index

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "move_index": self.move_index}
