"""The engine's games, one registry (as OpenSpiel registers its games by name): each game's name
and its :class:`~engine.core.game.GameType` (Game → State → view, engine/core/game.py).

Pik Dame's engine plays two of the games, told apart by the ruleset its rules name (R12):
``pikdame`` and ``tausende``. Gin Rommé (GIN.md) is a package of its own. Whatever lists the
engine's games derives the list from here: the command line's game words and the module each
runs (``engine.cli``: a game's package declares its command line as its ``cli`` module's
``main``), and each game's tests of the shared shape.
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
_GAMES: Final[dict[str, GameType[Any, Any, Any, Any]]] = {
    game.name: game for game in (PIKDAME, GIN, TAUSENDE)
}
GAMES: Final[Mapping[str, GameType[Any, Any, Any, Any]]] = MappingProxyType(_GAMES)
#: The house's games' names: ``pikdame``, ``gin``, ``tausende`` (:data:`GAMES` also holds the
#: games :func:`register` adds).
NAMES: Final[tuple[str, ...]] = tuple(GAMES)
#: Pik Dame's rulesets (R12), each a game of the same name played by Pik Dame's engine; the
#: command line chooses them with F7's ``deal --rules``.
PIKDAME_RULESETS: Final[tuple[str, ...]] = RULESETS

assert set(PIKDAME_RULESETS) <= set(NAMES), "every ruleset of Pik Dame is a game of the engine"


def package(name: str) -> str:
    """The engine package that plays game ``name`` (``engine.gin``; Tausende's is Pik Dame's)."""
    return type(GAMES[name]).__module__.rpartition(".")[0]


#: The games whose commands follow their name (``python -m engine gin …``, GIN.md G9), each with
#: the module of its command line: its package's ``cli``, whose ``main(argv, out, stdin)`` runs
#: it. F7's commands (Pik Dame's rulesets', FORMATS.md F7) need no game word.
_COMMAND_LINES: Final[dict[str, str]] = {
    name: f"{package(name)}.cli" for name in NAMES if name not in PIKDAME_RULESETS
}
COMMAND_LINES: Final[Mapping[str, str]] = MappingProxyType(_COMMAND_LINES)


def register(game: GameType[Any, Any, Any, Any]) -> None:
    """Add a game kept outside the house's packages (the toy game under tests/, named in the
    service's ``PIKDAME_EXTRA_GAMES``): its module registers it on import, before anything lists
    the games. It joins :data:`GAMES` after the house's games, and :data:`COMMAND_LINES` with its
    package's ``cli`` (``python -m engine <name> …``). A name already taken is refused."""
    if game.name in _GAMES:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _GAMES[game.name] = game
    _COMMAND_LINES[game.name] = f"{package(game.name)}.cli"


__all__ = ["COMMAND_LINES", "GAMES", "NAMES", "PIKDAME_RULESETS", "package", "register"]
