"""The engine's games, one registry (as OpenSpiel registers its games by name): each game's name
and its :class:`~engine.core.game.GameType` (Game → State → view, engine/core/game.py).

Pik Dame's engine plays two of the games, told apart by the ruleset its rules name (R12):
``pikdame`` and ``tausende``. Gin Rommé (GIN.md) is a package of its own. Whatever lists the
engine's games derives the list from here: the command line's game words (``engine.cli``), and
each game's tests of the shared shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from engine.core.game import GameType
from engine.gin.game import GIN
from engine.pikdame.game import PIKDAME, TAUSENDE
from engine.pikdame.rules import RULESETS

#: Every game of the engine by its name (the name records, the service and the command line use),
#: in the order the pages list them.
GAMES: Final[Mapping[str, GameType[Any, Any, Any, Any]]] = MappingProxyType(
    {game.name: game for game in (PIKDAME, GIN, TAUSENDE)}
)
#: The games' names: ``pikdame``, ``gin``, ``tausende``.
NAMES: Final[tuple[str, ...]] = tuple(GAMES)
#: Pik Dame's rulesets (R12), each a game of the same name played by Pik Dame's engine; the
#: command line chooses them with F7's ``deal --rules``.
PIKDAME_RULESETS: Final[tuple[str, ...]] = RULESETS

assert set(PIKDAME_RULESETS) <= set(NAMES), "every ruleset of Pik Dame is a game of the engine"

__all__ = ["GAMES", "NAMES", "PIKDAME_RULESETS"]
