"""The daily challenges' requests and answers (API.md: Daily challenge, Attempts, Rankings): the
path, query and body models of their routes and the documents they answer, built from the
platform's field rules (service.web.inputs) and document base (service.web.outputs).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Final, Literal, TypeAlias

from pydantic import ConfigDict, Field

from service import games
from service.web.inputs import (
    MAX_OFFSET,
    AsInteger,
    DayText,
    Id,
    Limit,
    NameBody,
    PageQuery,
    PathDay,
    Radius,
    WaitSeconds,
)
from service.web.outputs import Document
from service.web.validation import ApiModel

MAX_MOVE: Final = 400  # characters: the longest F2 move is far shorter


class DayPath(ApiModel):
    date: PathDay


class AttemptPath(ApiModel):
    attempt_id: Id


class AroundPath(ApiModel):
    date: PathDay
    attempt_id: Id


#: The daily games (service.games.DAILY_GAMES, docs/GIN_DAILY.md): ``game=…`` selects one.
DailyGameName: TypeAlias = games.DailyGameName


GAME_FIELD: Final = f"the daily game (docs/GIN_DAILY.md); default {games.DEFAULT}"


class GamePageQuery(PageQuery):
    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class GameQuery(ApiModel):
    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class DaysQuery(ApiModel):
    before: DayText | None = Field(default=None, description="default: today")
    limit: Limit = 30
    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class AroundQuery(ApiModel):
    radius: Radius = 5
    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class AnalysisQuery(ApiModel):
    mode: Literal["view", "deal"] = Field(
        default="view",
        description="view: from what the player saw (docs/ANALYSIS.md); deal: on the real deal, "
        "once the day has closed",
    )
    hand: Annotated[int, Field(ge=1, le=MAX_OFFSET), AsInteger] | None = Field(
        default=None, description="the hand to analyse (Gin's daily match; default 1)"
    )
    round: Annotated[int, Field(ge=1, le=MAX_OFFSET), AsInteger] | None = Field(
        default=None, description="the round to analyse (Pik Dame's daily has one: 1)"
    )


class WaitQuery(ApiModel):
    wait: WaitSeconds = Field(
        default=0, description="seconds to wait for the verdict while it is queued (0: none)"
    )


class StartBody(NameBody):
    """Starting a daily attempt: the name and the daily game (docs/GIN_DAILY.md)."""

    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class MoveBody(ApiModel):
    """A move in F2 notation and the ``seq`` the client has seen (wrong types are 400)."""

    invalid: ClassVar[tuple[int, str]] = (400, "bad_request")
    move: str = Field(max_length=MAX_MOVE, examples=["draw"])
    seq: int = Field(description="moves in the record the client has seen (A.seq)")


class RankedStart(Document):
    """What the caller's start of the day would be, before any deal is shown."""

    available: bool = Field(description="a start now would be the caller's ranked attempt")
    reason: Literal["day_closed", "attempt_exists", "deal_seen", "anonymous"] | None = Field(
        description="why not: not today; its ranked attempt exists; it has seen the day's deal"
        " (409 deal_seen); anonymous play is unranked (PIKDAME_RANK_ANONYMOUS)"
    )


class Day(Document):
    """A day's challenge; its seed once the day and its grace have closed (F4)."""

    date: str = Field(json_schema_extra={"format": "date"})
    game: games.DailyGameName = Field(description="gin: ?game=gin (docs/GIN_DAILY.md)")
    engine: str
    commitment: str = Field(pattern="^[0-9a-f]{64}$")
    opens_at: str = Field(json_schema_extra={"format": "date-time"})
    ends_at: str = Field(json_schema_extra={"format": "date-time"}, description="24:00 UTC")
    closes_at: str = Field(
        json_schema_extra={"format": "date-time"},
        description="24:00 UTC + PIKDAME_GRACE_MINUTES: moves stop, seed published",
    )
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: str | None = Field(description="hex, once the day has closed")
    attempts: int
    ranked_start: RankedStart | None = Field(
        None, description="GET /api/daily and /api/daily/{date}: for the caller (docs/API_LAYER.md)"
    )


class Days(Document):
    days: list[Day]


class Meld(Document):
    kind: Literal["set", "run"]
    cards: list[str]


class View(Document):
    """What seat 0 may know (RULES.md R10), cards in F5's canonical order."""

    seat: Literal[0]
    turn: int
    phase: Literal["draw", "play"]
    hand: list[str]
    melds: list[list[Meld]]
    hand_sizes: list[int]
    stock_size: int
    discard: list[str]
    removed: list[str]
    can_draw: bool
    can_take: bool
    outcome: dict[str, Any] | None


class GinKnock(Document):
    seat: int
    card: str | None = Field(description="null: the other seat's face-down knock card (G6)")
    melds: list[list[str]]
    deadwood: int


class GinView(Document):
    """What seat 0 may know of a Gin daily match (engine.gin.view, docs/GIN_DAILY.md)."""

    seat: Literal[0]
    hand_no: int
    dealer: int
    turn: int
    phase: Literal["upcard", "draw", "discard", "defend"]
    must_draw: bool
    can_take: bool
    hand: list[str]
    deadwood: int = Field(description="the hand's exact minimum deadwood")
    melds: list[list[str]] = Field(description="one arrangement reaching it")
    taken: str | None
    discard: list[str]
    stock_size: int
    other_size: int
    took: list[list[str]]
    revealed: list[str] | None
    knock: GinKnock | None
    defence: dict[str, Any] | None
    suggestion: str | None = Field(description="your best defend move in your defend phase")
    outcome: dict[str, Any] | None
    history: list[Event] = Field(description="this hand's moves as seat 0 saw them")
    totals: list[int]
    results: list[dict[str, Any]]
    match_winner: int | None


class Verification(Document):
    status: Literal["queued", "verified", "rejected"]
    score: int | None = Field(description="Gin: the player's match total minus the bot's")
    turns: int | None = Field(description="Gin: the hands played (as hands)")
    rank: int | None
    reason: str | None
    hands: int | None = Field(None, description="Gin only: the hands played (the tie-break)")


class Attempt(Document):
    """API.md's ``A``."""

    id: str
    date: str = Field(json_schema_extra={"format": "date"})
    game: games.MarkedDailyGameName | None = Field(
        None, description="gin on a Gin daily attempt; absent: Pik Dame (docs/GIN_DAILY.md)"
    )
    event: str | None = Field(
        None,
        description="an event deal's attempt: WEEK/N (docs/EVENTS.md); its date is the week's"
        " Sunday, so it closes with the event",
    )
    name: str
    ranked: bool = Field(
        description="false for practice of a closed day and, unless the operator ranks "
        'anonymous play, for an attempt without an account ("ohne Wertung")'
    )
    status: Literal["playing", "finished"]
    seq: int = Field(description="moves in the record, every seat's")
    view: View | GinView
    verification: Verification | None


class AttemptDoc(Document):
    attempt: Attempt


class Created(Document):
    """The attempt and its bearer token (shown once)."""

    attempt: Attempt
    token: str


class Event(Document):
    seat: int
    move: str


class Played(Document):
    """The attempt after the move and every move made, as seat 0 saw them."""

    attempt: Attempt
    events: list[Event]


class Record(Document):
    """A game record, FORMATS.md F6 (``deal.seed`` null until the day has closed); of a Gin
    attempt, ``gin-log/1`` (docs/GIN_DAILY.md: ``seeds.seed`` null and the bot's knock cards
    ``??`` until the day has closed)."""


class Analysis(Document):
    """A finished attempt's analysis, docs/ANALYSIS.md (``pikdame-analysis/1``, Gin's
    ``gin-analysis/1``): each decision of the player, the better move and its cost."""


class AnalysisQueued(Document):
    """The analysis is being computed: ask again in a moment."""

    status: Literal["queued"]


class Hint(Document):
    moves: list[str]
    points: int
    exact: bool = Field(
        description="false when the hint's search budget ran out: the best found, not proven "
        "optimal"
    )


class VerificationDoc(Document):
    """The attempt's verification: null for practice or while playing."""

    model_config = ConfigDict(
        extra="allow",
        openapi_extra={  # type: ignore[typeddict-unknown-key]  # read by flask-openapi3
            "headers": {
                "Retry-After": {
                    "description": "the server could not wait: ask again after these seconds",
                    "schema": {"type": "integer"},
                }
            }
        },
    )

    verification: Verification | None


class Entry(Document):
    rank: int
    name: str
    score: int
    turns: int
    attempt_id: str
    hands: int | None = Field(None, description="Gin only: the hands played (= turns)")


class Board(Document):
    date: str = Field(json_schema_extra={"format": "date"})
    game: games.MarkedDailyGameName | None = Field(
        None, description="gin on Gin's boards (?game=gin)"
    )
    total: int
    entries: list[Entry]
    provisional: bool = Field(
        description='true until the day and its grace have closed (shown as "vorläufig")'
    )


class Around(Board):
    attempt_id: str
    rank: int


class AllTimeEntry(Document):
    rank: int
    name: str
    total: int
    days: int
    best: int


class AllTime(Document):
    total: int
    entries: list[AllTimeEntry]
