"""The games the service offers: the one registry of their adapters (service.games.adapter).

Every list of games is derived from here: the API's ``game`` values (service.web.inputs and
outputs), the operator command's choices (service.cli), the pages' lists, the daily games whose
keys, boards, streaks and archive files exist. Adding a game is an engine package
(``engine/<game>/``), an adapter module here and its entry in :data:`GAMES`, its pages and
scripts, and its tests; no other module names a game (tests/test_game_names.py holds to it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, Literal, TypeAlias

from service.games import gin, pikdame, tausende
from service.games.adapter import GameAdapter, NoHint, Verdict

#: Every game by its API name, in API.md's order of the tables' games.
GAMES: Final[Mapping[str, GameAdapter]] = {
    adapter.name: adapter for adapter in (pikdame.ADAPTER, tausende.ADAPTER, gin.ADAPTER)
}
#: Every game a table can hold.
TABLE_GAMES: Final = tuple(GAMES)
#: The games with a daily challenge.
DAILY_GAMES: Final = tuple(name for name, adapter in GAMES.items() if adapter.daily)
#: The daily games whose documents carry their name (``"game": …``), every one but the first.
MARKED_DAILY_GAMES: Final = tuple(name for name in DAILY_GAMES if GAMES[name].marked)
#: The daily game a request without ``game`` means (API v1): the one whose names are unmarked.
DEFAULT: Final = next(name for name in DAILY_GAMES if not GAMES[name].marked)
#: Every game in the order the site lists them: the daily games first.
LISTED: Final = (*DAILY_GAMES, *(name for name in TABLE_GAMES if name not in DAILY_GAMES))

assert [name for name in DAILY_GAMES if not GAMES[name].marked] == [DEFAULT]

# The API's ``game`` values as the request and answer models declare them (OpenAPI's enums, in
# the orders above); str for the type checker, which cannot read a Literal built at run time.
if TYPE_CHECKING:
    GameName: TypeAlias = str
    DailyGameName: TypeAlias = str
    MarkedDailyGameName: TypeAlias = str
    ListedGameName: TypeAlias = str
else:
    GameName = Literal[TABLE_GAMES]
    DailyGameName = Literal[DAILY_GAMES]
    MarkedDailyGameName = Literal[MARKED_DAILY_GAMES]
    ListedGameName = Literal[LISTED]


def get(name: str) -> GameAdapter:
    """The adapter of game ``name`` (KeyError for a game the service does not offer)."""
    return GAMES[name]


def preload() -> None:
    """Every game's lazily loaded parts (its bots), imported now: gunicorn's master and the
    worker's parent process call it, so each forked process starts with them."""
    for adapter in GAMES.values():
        adapter.preload()


__all__ = [
    "DAILY_GAMES",
    "DEFAULT",
    "GAMES",
    "LISTED",
    "MARKED_DAILY_GAMES",
    "TABLE_GAMES",
    "DailyGameName",
    "GameAdapter",
    "GameName",
    "ListedGameName",
    "MarkedDailyGameName",
    "NoHint",
    "Verdict",
    "get",
    "preload",
]
