"""Pik Dame's stable error codes (FORMATS.md F7); the error classes live in ``engine.core.errors``.

In the style of python-chess: an error names the offending input and why, and keeps the input (and,
for an illegal move, the state it was tried in) so callers can report it without re-deriving it.
"""

from __future__ import annotations

from typing import Final

from engine.core.errors import (
    EngineError,
    FormatError,
    IllegalMoveError,
    NotationError,
    ReplayError,
)

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

#: Tausende's further codes (R12, docs/TAUSENDE.md), where none of F7's fits: checked after
#: ``wrong_phase`` (``not_opened``) and after ``card_not_in_hand`` (``queen_kept``).
TAUSENDE_CODES: Final = ("not_opened", "queen_kept", "pass_not_allowed")

#: Pik Dame's name for the shared base class (every game's errors derive from it).
PikDameError = EngineError

__all__ = [
    "CODES",
    "TAUSENDE_CODES",
    "EngineError",
    "FormatError",
    "IllegalMoveError",
    "NotationError",
    "PikDameError",
    "ReplayError",
]
