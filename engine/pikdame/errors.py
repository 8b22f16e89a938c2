"""Pik Dame's stable error codes (FORMATS.md F7) and its errors: the classes every game shares
(``engine.core.errors``) and the one that names Pik Dame, :class:`UnknownVersion`.

In the style of python-chess: an error names the offending input and why, and keeps the input (and,
for an illegal move, the state it was tried in) so callers can report it without re-deriving it.
"""

from __future__ import annotations

from typing import Final

from engine.core.errors import (
    EngineError,
    FormatError,
    IllegalMoveError,
    InvalidMeld,
    NotationError,
    ReplayError,
    UnknownRelease,
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


class UnknownVersion(UnknownRelease):
    """A Pik Dame or Tausende record names an engine version this install does not keep
    (``engine.pikdame.releases``); Gin's registry raises its own."""


__all__ = [
    "CODES",
    "TAUSENDE_CODES",
    "EngineError",
    "FormatError",
    "IllegalMoveError",
    "InvalidMeld",
    "NotationError",
    "PikDameError",
    "ReplayError",
    "UnknownVersion",
]
