"""Gin bots (GIN.md G9): each a pure, deterministic function of one seat's :class:`View`.

Bump :data:`BOTS_VERSION` whenever any bot's answers change: a record replays only against the
bots that played it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.gin.bots import meister, plain, strong
from engine.gin.moves import Move
from engine.gin.view import View

BOTS_VERSION: Final = "1"
#: ``meister`` (bots/meister.py, issue 40 item 8) is a table's level: it plays out ``strong``'s
#: and ``plain``'s moves on sampled deals. The analysis plays a Meister seat out by ``strong``.
LEVELS: Final = ("plain", "strong", "meister")
#: The levels that play moves by judgement alone (no play-outs of their own).
PLAIN_LEVELS: Final = ("plain", "strong")
_CHOOSERS: Final[dict[str, Callable[[View], Move]]] = {
    "plain": plain.choose,
    "strong": strong.choose,
    "meister": meister.choose,
}


def choose_move(level: str, v: View) -> Move:
    """The move of bot ``level`` seeing ``v`` (it must be that seat's turn)."""
    if level not in _CHOOSERS:
        raise ValueError(f"unknown Gin bot level {level!r}; one of {LEVELS}")
    return _CHOOSERS[level](v)


__all__ = ["BOTS_VERSION", "LEVELS", "PLAIN_LEVELS", "choose_move"]
