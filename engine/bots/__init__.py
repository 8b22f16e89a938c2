"""Bots (RULES.md R10): each level is a pure function of a seat's view to its next move."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from engine.bots import simple

if TYPE_CHECKING:
    from engine.moves import Move
    from engine.view import View

BOTS_VERSION: Final = "0"
LEVELS: Final = ("beginner", "advanced", "zen")

_CHOOSERS: Final[dict[str, Callable[[View], Move]]] = {
    "beginner": simple.choose,
    "advanced": simple.choose,
    "zen": simple.choose,
}


def choose_move(level: str, view: View) -> Move:
    """The move the bot of ``level`` makes in ``view`` (its own seat must be to move)."""
    return _CHOOSERS[level](view)
