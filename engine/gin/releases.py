"""Every released Gin bot version, so that a deploy during a day fails no Gin daily match.

A ``gin-log/1`` record names the engine that played it; a daily record is replayed with the bots
of that version, so a deploy during a day never fails a match begun before it. When a Gin bot's
answers change, freeze the old code (a ``choose(level, view)``), register it under its old engine
version here, then bump ``BOTS_VERSION``. A version not kept here fails loudly
(:class:`UnknownVersion`) instead of rejecting an honest player. The registry's shape is every
game's (``engine.core.releases``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.core.releases import Releases
from engine.gin.bots import choose_move
from engine.gin.errors import UnknownVersion
from engine.gin.moves import Move
from engine.gin.record import ENGINE_VERSION
from engine.gin.view import View

Chooser = Callable[[str, View], Move]  # (level, view) -> move, as bots.choose_move


RELEASED: Final[Releases[Chooser]] = Releases({ENGINE_VERSION: choose_move}, UnknownVersion)
CURRENT: Final = ENGINE_VERSION

register = RELEASED.register
unregister = RELEASED.unregister
bots_of = RELEASED.bots_of

__all__ = ["CURRENT", "RELEASED", "Chooser", "UnknownVersion", "bots_of", "register", "unregister"]
