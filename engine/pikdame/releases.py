"""Every released bot version, importable side by side, so that a deploy fails no game.

A record names the engine that played it (F6 ``engine``); replaying it with other bots gives a
``bot_mismatch`` for an honest game. So the worker looks up the record's own version here and
replays with it, and a deploy during a day never fails a game begun before it. The registry's
shape is every game's (``engine.core.releases``).

The current bots (BOTS_VERSION 9) are registered under today's ENGINE_VERSION. When a bot's
behaviour changes, freeze the old code under ``engine/pikdame/bots/versions/`` (e.g. ``v9/``
exposing ``choose(level, view)``), register it under its old engine version below, then bump
BOTS_VERSION. A version not registered here fails loudly (:class:`UnknownVersion`) instead of
rejecting a player.

A release kept outside this package (an operator's frozen copy of a previous deploy, or a test's)
is a *release module*: importing it calls :func:`register`. The service and every worker import
the modules named in ``PIKDAME_RELEASES`` (``service.common.releases.load``: the engine imports
nothing by name) before their first game or job, so web
processes keep playing, and workers keep replaying, every game with the bots it began with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.core.releases import Releases
from engine.pikdame.bots import BOTS_VERSION, choose_move
from engine.pikdame.errors import UnknownVersion
from engine.pikdame.moves import Move
from engine.pikdame.version import ENGINE_VERSION, TAUSENDE_ENGINE_VERSION
from engine.pikdame.view import View

Chooser = Callable[[str, View], Move]  # (level, view) -> move, as bots.choose_move


# today's bots under both rulesets' version strings (a Tausende record names its own, R12)
RELEASED: Final[Releases[Chooser]] = Releases(
    {ENGINE_VERSION: choose_move, TAUSENDE_ENGINE_VERSION: choose_move}, UnknownVersion
)
CURRENT: Final = ENGINE_VERSION
assert CURRENT.endswith(f"bots-{BOTS_VERSION}")

register = RELEASED.register
unregister = RELEASED.unregister
bots_of = RELEASED.bots_of

__all__ = [
    "CURRENT",
    "RELEASED",
    "Chooser",
    "UnknownVersion",
    "bots_of",
    "register",
    "unregister",
]
