"""The games the service offers: the one registry of their adapters (service.games.adapter).

Every list of games is derived from here: the API's ``game`` values (service.web.inputs and
outputs), the operator command's choices (service.cli), the pages' lists, the daily games whose
keys, boards, streaks and archive files exist. Adding a game is an engine package
(``engine/<game>/``), an adapter module here and its entry in :data:`GAMES`, its pages and
scripts, and its tests; no other module names a game (tests/test_game_names.py holds to it).

A game kept outside the house's packages (the toy game of tests/toygame/) is a module named in
``PIKDAME_EXTRA_GAMES`` (service.common.config): imported here, before any list of games is
built, it registers its engine's game (``engine.games.register``) and declares its ``ADAPTER``
(joining :data:`GAMES` after the house's games) and its ``FOLDER`` (:data:`FOLDERS`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import import_module
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias, TypeVar, cast

from service.games import gin, pikdame, tausende
from service.games.adapter import (
    ANALYSIS,
    CAPABILITIES,
    DAILY,
    HOUSE_RULES,
    LESSONS,
    PAR,
    TABLES,
    Analysis,
    Capability,
    Daily,
    Game,
    GameAdapter,
    HouseRules,
    Lessons,
    NoHint,
    Option,
    Par,
    Tables,
    Verdict,
)

C = TypeVar("C")

#: The variable naming the game modules kept outside the house's packages (comma-separated),
#: declared with every other in service.common.config.VARIABLES and README.md but read here, as
#: the registry is imported: every list of games below is built before any settings exist.
EXTRA_GAMES: Final = "PIKDAME_EXTRA_GAMES"


def extra_modules() -> tuple[str, ...]:
    """The modules ``PIKDAME_EXTRA_GAMES`` names (config's ``extra_games`` reads them alike)."""
    return tuple(os.environ.get(EXTRA_GAMES, "").replace(",", " ").split())


#: The games kept outside the house's packages, each a module with its ``ADAPTER`` and its
#: ``FOLDER``; none in the house's own runs.
_EXTRA: Final = tuple(import_module(module) for module in extra_modules())
#: Every game by its API name, in API.md's order of the tables' games.
_ADAPTERS: Final[tuple[Game, ...]] = (
    pikdame.ADAPTER,
    tausende.ADAPTER,
    gin.ADAPTER,
    *(m.ADAPTER for m in _EXTRA),
)
GAMES: Final[Mapping[str, Game]] = {adapter.name: adapter for adapter in _ADAPTERS}
#: The folder of each game kept outside the house (its ``templates/``, ``static/`` and
#: ``i18n/<lang>.json``, which service.pages serves); the house's games have theirs in
#: templates/.
FOLDERS: Final[Mapping[str, Path]] = {m.ADAPTER.name: Path(m.FOLDER) for m in _EXTRA}
assert len(GAMES) == len(_ADAPTERS), "every game's name is its own"
assert all(set(a.offers) <= set(CAPABILITIES) for a in GAMES.values()), "known capabilities"


#: The games that declare each capability, by name in the registry's order.
_OFFERING: Final[Mapping[Capability[Any], Mapping[str, Any]]] = {
    capability: MappingProxyType({n: a for n, a in GAMES.items() if capability in a.offers})
    for capability in CAPABILITIES
}


def offering(capability: Capability[C]) -> Mapping[str, C]:
    """The games that declare ``capability`` (``offering(DAILY)``: the daily games), by name in
    the registry's order, each typed as that capability's protocol (:class:`Daily`)."""
    return cast(Mapping[str, C], _OFFERING[capability])


def offers(name: str, capability: Capability[Any]) -> bool:
    """Whether game ``name`` declares ``capability`` (:func:`offering` offers it)."""
    return name in _OFFERING[capability]


#: Every game a table can hold.
TABLE_GAMES: Final = tuple(offering(TABLES))
#: The games with a daily challenge.
DAILY_GAMES: Final = tuple(offering(DAILY))
#: The daily games whose documents carry their name (``"game": …``), every one but the first.
MARKED_DAILY_GAMES: Final = tuple(name for name in DAILY_GAMES if GAMES[name].marked)
#: The daily game a request without ``game`` means (API v1): the one whose names are unmarked.
DEFAULT: Final = next(name for name in DAILY_GAMES if not GAMES[name].marked)
#: Every game in the order the site lists them: the daily games first.
LISTED: Final = (*DAILY_GAMES, *(name for name in TABLE_GAMES if name not in DAILY_GAMES))
#: Every game's bot levels (R9, GIN.md), each once, in the registry's order: a table's seat
#: names one, and each game accepts its own (else 422 bad_value).
LEVELS: Final = tuple(dict.fromkeys(level for a in GAMES.values() for level in a.levels))
#: Every house rule a new table's form offers (each game's ``form.options``), each key once, in
#: the registry's order: the API's ``rules`` of ``POST /api/tables`` (service.tables.models).
OPTIONS: Final[tuple[Option, ...]] = tuple(
    next(o for t in offering(TABLES).values() for o in t.form.options if o.key == key)
    for key in dict.fromkeys(o.key for t in offering(TABLES).values() for o in t.form.options)
)

assert [name for name in DAILY_GAMES if not GAMES[name].marked] == [DEFAULT]

# The API's ``game`` values as the request and answer models declare them (OpenAPI's enums, in
# the orders above); str for the type checker, which cannot read a Literal built at run time.
if TYPE_CHECKING:
    GameName: TypeAlias = str
    DailyGameName: TypeAlias = str
    MarkedDailyGameName: TypeAlias = str
    ListedGameName: TypeAlias = str
    LevelName: TypeAlias = str
else:
    GameName = Literal[TABLE_GAMES]
    DailyGameName = Literal[DAILY_GAMES]
    MarkedDailyGameName = Literal[MARKED_DAILY_GAMES]
    ListedGameName = Literal[LISTED]
    LevelName = Literal[LEVELS]


def get(name: str) -> Game:
    """The core of game ``name`` (KeyError for a game the service does not offer); what it
    offers beyond: :func:`offering`, :func:`daily`."""
    return GAMES[name]


def daily(name: str) -> Daily:
    """The daily game ``name`` (KeyError for a game without a daily challenge)."""
    return offering(DAILY)[name]


def preload() -> None:
    """Every game's lazily loaded parts (its bots), imported now: gunicorn's master and the
    worker's parent process call it, so each forked process starts with them."""
    for adapter in GAMES.values():
        adapter.preload()


__all__ = [
    "ANALYSIS",
    "CAPABILITIES",
    "DAILY",
    "DAILY_GAMES",
    "DEFAULT",
    "EXTRA_GAMES",
    "FOLDERS",
    "GAMES",
    "HOUSE_RULES",
    "LESSONS",
    "LEVELS",
    "LISTED",
    "MARKED_DAILY_GAMES",
    "OPTIONS",
    "PAR",
    "TABLES",
    "TABLE_GAMES",
    "Analysis",
    "Capability",
    "Daily",
    "DailyGameName",
    "Game",
    "GameAdapter",
    "GameName",
    "HouseRules",
    "Lessons",
    "LevelName",
    "ListedGameName",
    "MarkedDailyGameName",
    "NoHint",
    "Option",
    "Par",
    "Tables",
    "Verdict",
    "daily",
    "get",
    "offering",
    "offers",
    "preload",
]
