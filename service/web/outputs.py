"""What the API answers, as documented in ``/api/openapi.json`` (API.md's documents).

The views build their JSON in :mod:`service.dailies.present` and
:mod:`service.dailies.ranking`; these models are the contract those documents keep, checked
against real answers by the schemathesis run
(tests/service/test_schemathesis.py), not at run time.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from flask_openapi3.types import ResponseDict
from pydantic import BaseModel, ConfigDict, Field

from service import games


class Document(BaseModel):
    model_config = ConfigDict(extra="allow")


class ErrorDetail(Document):
    code: str = Field(examples=["unknown_attempt"])
    message: str
    attempt_id: str | None = Field(None, description="409 attempt_exists: the existing attempt")
    seq: int | None = Field(None, description="409 stale: the current seq")


class Error(Document):
    """API.md: every failure is ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


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


class Hint(Document):
    moves: list[str]
    points: int
    exact: bool = Field(
        description="false when the hint's search budget ran out: the best found, not proven "
        "optimal"
    )


class TableHint(Document):
    """A seat's hint at a table (docs/TABLES.md "Hints"): moves in the order they can be sent."""

    moves: list[str]
    points: int = Field(
        description="Pik Dame: what your melds gain (R4.2); Tausende: the points of the cards "
        "the moves lay (R12.5)"
    )
    exact: bool = Field(
        description="Pik Dame: false when the search budget ran out; Tausende: always false "
        "(a strong bot's choice, not proven best)"
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


class Me(Document):
    """The caller's streaks (per daily game) and statistics; empty for a new browser."""

    streaks: dict[str, Streak]
    stats: Stats


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
    """A finished attempt's place in the day's field of verified results (issue 13)."""

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


class Health(Document):
    redis: Literal["ok", "unreachable"]
    queue: int | None


class OpenApi(Document):
    """This document."""


# --- tables (API.md "Tables", docs/TABLES.md) ----------------------------------------------------


class TableSeat(Document):
    """A seat: a human (``name`` null while open for a friend) or a bot with its level."""

    kind: Literal["human", "bot"]
    name: str | None = None
    level: str | None = None
    connected: bool = Field(description="a live stream of this seat is open (presence)")


class TableRound(Document):
    round: int
    dealer: int
    cut: int | None = Field(description="the round's cut (F3); null for Gin (no cut, G3)")
    commitment: str = Field(pattern="^[0-9a-f]{64}$")
    scores: list[int] | None = Field(description="the round's scores once it ended (R7)")
    seed: str | None = Field(description="hex, revealed once the round ended")
    winner: int | None = Field(
        None, description="who went out (R7.1); null: stock (R7.2), resign or running (Pik Dame)"
    )
    doubled: bool | None = Field(
        None, description="hand_out_double (R9) doubled the round's scores (R7.3) (Pik Dame)"
    )


class Table(Document):
    """API.md's ``T`` in the caller's view (R10); docs/TABLES.md lists every field."""

    id: str
    game: games.GameName
    rules: dict[str, Any]
    seats: list[TableSeat]
    status: Literal["waiting", "playing", "finished"]
    round: int
    dealer: int | None
    totals: list[int]
    seq: int
    seat: int | None = Field(description="the caller's seat (null: not seated)")
    view: dict[str, Any] | None
    deadline: str | None = Field(json_schema_extra={"format": "date-time"})
    now: str = Field(
        json_schema_extra={"format": "date-time"},
        description="the server's clock when this T was written: a countdown shows deadline − now",
    )
    commitment: str | None
    rounds: list[TableRound]
    creator: int
    invite: str | None = Field(description="the invite code (seated callers only)")
    repeat_of: str | None = Field(
        default=None, description="Gin: the table whose seeded match this one deals again"
    )
    repeated: str | None = Field(
        default=None, description="Gin: the table that deals this match again (Wiederholen)"
    )


class TableDoc(Document):
    table: Table


class TableCreated(Document):
    """The new table, the creator's bearer token (shown once) and the invite code."""

    table: Table
    token: str
    invite: str


class TableJoined(Document):
    table: Table
    token: str


class TablePlayed(Document):
    """The table after the move and every event it made, in the caller's view."""

    table: Table
    events: list[Event]


class ResignAnswer(Document):
    """The seats still to agree ([] once the game ended) and the table."""

    pending: list[int]
    table: Table


class EventStream(Document):
    """``text/event-stream`` (docs/TABLES.md): ``id: <seq>``, ``event: table``, ``data: {"seq",
    "events", "deadline", "now", "table"}``; comments as heartbeats."""


ERRORS: dict[int, str] = {
    400: "malformed request: not JSON (UTF-8), not an object, wrong types",
    401: "no credentials for an attempt that needs them",
    403: "someone else's attempt",
    404: "unknown day, attempt, table or invite (a future day is unknown)",
    409: "conflict: stale, attempt_exists, day_closed, day_open, not_finished, table_full, "
    "already_started, idempotency_key_in_use …",
    413: "body too large",
    415: "state-changing requests must be application/json",
    422: "an illegal move (FORMATS.md F7 code) or a bad value (bad_value)",
    429: "rate limited",
    503: "storage unavailable, try again shortly",
}


def errors(*statuses: int) -> ResponseDict:
    """Error responses, each in API.md's envelope."""
    ref = {"$ref": "#/components/schemas/Error"}
    return {
        status: {
            "description": ERRORS[status],
            "content": {"application/json": {"schema": ref}},
        }
        for status in statuses
    }


class Device(Document):
    """One passkey of an account."""

    id: str = Field(description="the credential id (base64url)")
    label: str
    created_at: str = Field(json_schema_extra={"format": "date-time"})


class Account(Document):
    """The signed-in account: its name and devices (passkeys)."""

    id: str
    name: str
    created_at: str = Field(json_schema_extra={"format": "date-time"})
    devices: list[Device]


class AccountDoc(Document):
    account: Account


class Ceremony(Document):
    """WebAuthn options for ``navigator.credentials.create/get`` (JSON, base64url fields) and
    the handle to send back with the answer (single use, expires in 5 minutes)."""

    handle: str
    options: dict[str, Any]


class Done(Document):
    ok: Literal[True]


def answers(ok: type[BaseModel], *statuses: int, status: int = 200) -> ResponseDict:
    """A route's documented answers: ``ok`` (as ``status``) and its errors. Every API route may
    also be rate limited or find Redis away: :data:`COMMON`, given to each API blueprint."""
    return {status: ok, **errors(*statuses)}


COMMON: Final = errors(429, 503)
