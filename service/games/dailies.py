"""The daily games (issue 14): what the attempt store, the verifier and the documents need of
each, so Pik Dame's daily code serves Gin's too (docs/GIN_DAILY.md).

A daily game knows its F4 seed, how to start the day's game for a player, how to store and load
it, how a move of seat 0 is played (the bots answer), and what a finished game scores. Flask-free,
shared by the web and the worker.
"""

from __future__ import annotations

import json
from typing import Any, Final, Protocol

from engine import Game
from engine import daily_game as pikdame_game
from engine import daily_seed as pikdame_seed
from engine.gin import GinMatch, daily_hands, daily_match, daily_score
from engine.gin import daily_seed as gin_seed
from service.common import keys

PIKDAME: Final = "pikdame"
GIN: Final = "gin"

Events = list[tuple[int, str]]


class DailyGame(Protocol):
    """One daily game's rules for the service (the engine does the game itself)."""

    @property
    def name(self) -> str: ...

    def seed(self, secret: bytes, date: str) -> bytes: ...

    def new(self, seed: bytes, player_name: str) -> Any: ...

    def load(self, data: dict[str, Any]) -> Any: ...

    def to_json(self, game: Any) -> dict[str, Any]: ...

    def seq(self, game: Any) -> int:
        """Moves in the record so far (every seat's): API.md's ``seq``."""
        ...

    def play(self, game: Any, move: str) -> Events:
        """Seat 0's move and the bots' answers; raises an engine error, changing nothing."""
        ...

    def finished(self, game: Any) -> bool: ...

    def result(self, game: Any) -> tuple[int, int]:
        """(score, tie-break count) of a finished game: R11's round score and the player's
        turns for Pik Dame; the totals' difference and the hands for Gin."""
        ...


def player_turns(game: Game, seat: int = 0) -> int:
    """R11's tie-break: the player's own turns, i.e. their draw and take moves."""
    return sum(
        1 for s, m in game.state.history if s == seat and m.split(" ", 1)[0] in ("draw", "take")
    )


class PikDameDaily:
    """Pik Dame's daily round (RULES.md R11)."""

    name: Final = PIKDAME

    def seed(self, secret: bytes, date: str) -> bytes:
        return pikdame_seed(secret, date)

    def new(self, seed: bytes, player_name: str) -> Game:
        return pikdame_game(seed, player_name)

    def load(self, data: dict[str, Any]) -> Game:
        return Game.from_json(data)

    def to_json(self, game: Game) -> dict[str, Any]:
        return game.to_json()

    def seq(self, game: Game) -> int:
        return len(game.state.history)

    def play(self, game: Game, move: str) -> Events:
        return game.play(move, 0)

    def finished(self, game: Game) -> bool:
        return game.state.outcome is not None

    def result(self, game: Game) -> tuple[int, int]:
        outcome = game.state.outcome
        assert outcome is not None
        return outcome.round_scores[0], player_turns(game)


class GinDaily:
    """Gin Rommé's daily match to 100 against the strong bot (issue 14)."""

    name: Final = GIN

    def seed(self, secret: bytes, date: str) -> bytes:
        return gin_seed(secret, date)

    def new(self, seed: bytes, player_name: str) -> GinMatch:
        return daily_match(seed, player_name)

    def load(self, data: dict[str, Any]) -> GinMatch:
        return GinMatch.from_json(data)

    def to_json(self, game: GinMatch) -> dict[str, Any]:
        return game.to_json()

    def seq(self, game: GinMatch) -> int:
        return len(game.moves)

    def play(self, game: GinMatch, move: str) -> Events:
        return game.play(move, 0)

    def finished(self, game: GinMatch) -> bool:
        return game.finished

    def result(self, game: GinMatch) -> tuple[int, int]:
        return daily_score(game), daily_hands(game)


PIKDAME_DAILY: Final = PikDameDaily()
GIN_DAILY: Final = GinDaily()
#: Every daily game by its API name (``game=…``).
DAILIES: Final[dict[str, DailyGame]] = {PIKDAME: PIKDAME_DAILY, GIN: GIN_DAILY}
NAMES: Final = tuple(DAILIES)
assert NAMES == keys.DAILY_GAMES  # the key layout knows every daily game


def of(name: str) -> DailyGame:
    return DAILIES[name]


def dumps(daily: DailyGame, game: Any) -> str:
    return json.dumps(daily.to_json(game), separators=(",", ":"))


__all__ = [
    "DAILIES",
    "GIN",
    "GIN_DAILY",
    "NAMES",
    "PIKDAME",
    "PIKDAME_DAILY",
    "DailyGame",
    "Events",
    "dumps",
    "of",
    "player_turns",
]
