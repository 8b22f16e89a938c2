"""Bots (RULES.md R10): each level is a pure function of a seat's view to its next move."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from engine.moves import Move
    from engine.view import View

#: Bump whenever any bot's behaviour changes: game records name it (F6) and replay recomputes
#: every bot move (F7 ``bot_mismatch``). The bots play engine.meldsolver's arrangements, so a
#: change in its answers or tie-breaks is a change of behaviour too.
BOTS_VERSION: Final = "6"
LEVELS: Final = ("beginner", "advanced", "zen")


def _choosers() -> dict[str, Callable[[View], Move]]:
    from engine.bots import advanced, beginner, zen

    return {"beginner": beginner.choose, "advanced": advanced.choose, "zen": zen.choose}


_CHOOSERS: dict[str, Callable[[View], Move]] = {}


def choose_move(level: str, view: View) -> Move:
    """The move the bot of ``level`` makes in ``view`` (its own seat must be to move)."""
    if not _CHOOSERS:
        _CHOOSERS.update(_choosers())
    return _CHOOSERS[level](view)
