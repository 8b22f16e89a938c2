"""The habit's requests and answers (API.md: streaks, statistics, the field, leagues, own games)."""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias

from pydantic import AfterValidator, Field

from service import games
from service.common import names
from service.dailies.models import GAME_FIELD, DailyGameName
from service.web.inputs import MAX_ID, NAME_PATTERN, DayText, Lang
from service.web.outputs import Document
from service.web.validation import ApiModel

MAX_LEAGUE_NAME: Final = 40  # service.habit.leagues.MAX_NAME


def league_name(name: str) -> str:
    """A league's name: a player name's rules (service.common.names), up to MAX_LEAGUE_NAME."""
    return names.normalise(name, MAX_LEAGUE_NAME, "name")


LeagueName: TypeAlias = Annotated[
    str,
    Field(
        description=f"A player name's rules, 1 to {MAX_LEAGUE_NAME} characters; else 422.",
        json_schema_extra={"minLength": 1, "maxLength": MAX_LEAGUE_NAME, "pattern": NAME_PATTERN},
    ),
    AfterValidator(league_name),
]


LeagueCode: TypeAlias = Annotated[
    str,
    Field(
        description="the invite code; an unknown or malformed one is 404",
        json_schema_extra={"minLength": 1, "maxLength": MAX_ID},
    ),
]


class LeaguePath(ApiModel):
    code: LeagueCode


class LangQuery(ApiModel):
    lang: Lang = "de"


class LeagueQuery(ApiModel):
    date: DayText | None = Field(default=None, description="the daily board's day (default: today)")
    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class LeagueBody(ApiModel):
    """Creating a league: its name (a bad or oversize one is 422 ``bad_value``)."""

    name: LeagueName


class Streak(Document):
    current: int = Field(description="consecutive UTC days up to today or yesterday")
    best: int
    last: str | None = Field(json_schema_extra={"format": "date"})


class Bar(Document):
    """A histogram bar: scores ``from`` … ``to`` and how many."""

    from_: int = Field(alias="from")
    to: int
    count: int


class DayScore(Document):
    date: str = Field(json_schema_extra={"format": "date"})
    score: int


class Stats(Document):
    game: games.DailyGameName = Field(description="gin: ?game=gin (docs/GIN_DAILY.md)")
    games: int
    average: float | None
    best: int | None
    histogram: list[Bar]
    recent: list[DayScore] = Field(description="the latest days played, newest first")


class RatingChangeEntry(Document):
    table: str
    at: int = Field(description="when the game ended (ms since the epoch)")
    place: int
    players: int = Field(description="accounts rated in that game")
    before: int
    after: int
    change: int
    provisional: bool


class GameRating(Document):
    """A signed-in player's rating in one table game and its latest changes (docs/LOBBY.md)."""

    rating: int
    provisional: bool
    games: int
    history: list[RatingChangeEntry] = Field(description="newest first, at most 20")


class Me(Document):
    """The caller's streaks (per daily game) and statistics; empty for a new browser."""

    streaks: dict[str, Streak]
    stats: Stats
    ratings: dict[str, GameRating] | None = Field(
        default=None,
        description="signed in: the rating per table game and its history; else null",
    )


class PlayedGame(Document):
    """One of the caller's finished games (``GET /api/me/games``) and where to see it again."""

    type: Literal["attempt", "table"] = Field(description="a daily attempt, or a table's game")
    id: str = Field(description="the attempt's or the table's id")
    game: games.ListedGameName
    date: str | None = Field(
        default=None, json_schema_extra={"format": "date"}, description="an attempt's day"
    )
    ranked: bool | None = Field(default=None, description="an attempt: false for practice")
    score: int | None = Field(default=None, description="an attempt's score")
    players: int | None = Field(default=None, description="a table's seats")
    finished_ms: int = Field(description="when it finished (ms since the epoch)")
    replay: str = Field(
        description="the replay page; a daily attempt's shows as you saw it until its day closes"
    )


class PlayedGames(Document):
    """The caller's finished games still kept, newest first (at most 50)."""

    games: list[PlayedGame]


class Par(Document):
    score: int
    turns: int


class Place(Document):
    """A finished attempt's place in the day's field of verified results."""

    attempt_id: str
    date: str = Field(json_schema_extra={"format": "date"})
    score: int
    final: bool = Field(description="false while the day is open: the place is provisional")
    ranked: bool = Field(description="false: compared as if added (practice, not yet verified)")
    beaten: int
    ties: int
    others: int = Field(description="N − 1")
    percentage: float | None = Field(description="(beaten + ties / 2) / (N − 1) × 100")
    rank: int | None
    total: int
    histogram: list[Bar]
    mark: int = Field(description="the histogram bar (its from) holding this score")
    par: Par | None = Field(description="the Zen-Meister's score in this seat, once computed")


class Share(Document):
    text: str


class League(Document):
    code: str
    name: str
    members: int
    member: bool = Field(description="whether the caller belongs to it")


class LeagueCreated(Document):
    league: League


class Leagues(Document):
    leagues: list[League]


class LeagueDayEntry(Document):
    rank: int
    name: str
    score: int
    percentage: float | None


class LeagueDay(Document):
    date: str = Field(json_schema_extra={"format": "date"})
    entries: list[LeagueDayEntry]


class LeagueAllTimeEntry(Document):
    rank: int
    name: str
    average: float
    days: int


class LeagueAllTime(Document):
    window_days: int
    best_of: int
    entries: list[LeagueAllTimeEntry]


class LeagueDoc(Document):
    league: League
    day: LeagueDay
    all_time: LeagueAllTime
    game: games.MarkedDailyGameName | None = Field(
        None, description="gin on Gin's boards (?game=gin)"
    )
