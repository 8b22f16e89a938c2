"""Gin's stable error codes (GIN.md G9) and its errors: the classes every game shares
(``engine.core.errors``) and the one that names Gin, :class:`UnknownVersion`."""

from __future__ import annotations

from typing import Final

from engine.core.errors import (
    EngineError,
    FormatError,
    IllegalMoveError,
    NotationError,
    ReplayError,
    UnknownRelease,
)

#: G9's stable error codes; a rejected move gets the first of the first nine that applies.
CODES: Final = (
    "syntax",
    "round_over",
    "not_your_turn",
    "wrong_phase",
    "take_not_allowed",
    "card_not_in_hand",
    "no_such_meld",
    "invalid_meld",
    "knock_not_allowed",
    "bot_mismatch",
    "score_mismatch",
    "bad_format",
)


class UnknownVersion(UnknownRelease):
    """A ``gin-log/1`` record names a Gin engine version this install does not keep
    (``engine.gin.releases``); Pik Dame's registry raises its own."""


__all__ = [
    "CODES",
    "EngineError",
    "FormatError",
    "IllegalMoveError",
    "NotationError",
    "ReplayError",
    "UnknownVersion",
]
