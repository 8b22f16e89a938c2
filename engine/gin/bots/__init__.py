"""Gin bots (GIN.md G9): each a pure, deterministic function of one seat's :class:`View`.

Bump :data:`BOTS_VERSION` whenever any bot's answers change: a record replays only against the
bots that played it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.gin.bots import plain, strong
from engine.gin.moves import Move
from engine.gin.view import View

BOTS_VERSION: Final = "1"
LEVELS: Final = ("plain", "strong")
_CHOOSERS: Final[dict[str, Callable[[View], Move]]] = {
    "plain": plain.choose,
    "strong": strong.choose,
}


def choose_move(level: str, v: View) -> Move:
    """The move of bot ``level`` seeing ``v`` (it must be that seat's turn)."""
    if level not in _CHOOSERS:
        raise ValueError(f"unknown Gin bot level {level!r}; one of {LEVELS}")
    return _CHOOSERS[level](v)


__all__ = ["BOTS_VERSION", "LEVELS", "choose_move"]
