"""Every released Gin bot version (issue 13's deploy-safe verification, for Gin's daily).

A ``gin-log/1`` record names the engine that played it; a daily record is replayed with the bots
of that version, so a deploy during a day never fails a match begun before it. When a Gin bot's
answers change, freeze the old code (a ``choose(level, view)``), register it under its old engine
version here, then bump ``BOTS_VERSION``. A version not kept here fails loudly
(:class:`UnknownVersion`) instead of rejecting an honest player.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.core.errors import EngineError
from engine.gin.bots import choose_move
from engine.gin.moves import Move
from engine.gin.record import ENGINE_VERSION
from engine.gin.view import View

Chooser = Callable[[str, View], Move]  # (level, view) -> move, as bots.choose_move

RELEASED: Final[dict[str, Chooser]] = {ENGINE_VERSION: choose_move}
CURRENT: Final = ENGINE_VERSION


class UnknownVersion(EngineError):
    """A record names a Gin engine version this install does not keep."""

    def __init__(self, version: object) -> None:
        known = ", ".join(sorted(RELEASED))
        super().__init__(
            f"the record was played by engine {version!r}, which this install does not keep "
            f"(released here: {known}); deploy a worker that has it",
            version,
            code="unknown_engine",
        )


def register(version: str, chooser: Chooser) -> None:
    """Keep ``chooser`` as the bots of ``version`` (a frozen release; tests register their own)."""
    RELEASED[version] = chooser


def unregister(version: str) -> None:
    """Forget a registered version (tests); today's stays."""
    if version != ENGINE_VERSION:
        RELEASED.pop(version, None)


def bots_of(version: object) -> Chooser:
    """The bots that played under ``version``; raises :class:`UnknownVersion`."""
    if isinstance(version, str) and version in RELEASED:
        return RELEASED[version]
    raise UnknownVersion(version)


__all__ = ["CURRENT", "RELEASED", "Chooser", "UnknownVersion", "bots_of", "register", "unregister"]
