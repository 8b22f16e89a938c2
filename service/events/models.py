"""The week's tournament's requests and answers (docs/EVENTS.md, "The API"): the path and body
models of its routes and the documents they answer, for ``/api/openapi.json``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from service import games
from service.dailies.models import Attempt
from service.web.inputs import NameBody, PageQuery
from service.web.outputs import Document
from service.web.validation import ApiModel

EventGameName = games.DailyGameName

GAME_TEXT = (
    "a daily game (Pik Dame: a deal is its daily round; Gin: one hand against the strong bot)"
)
WEEK_TEXT = "YYYY-Www, the ISO week; a malformed or nonexistent week is 404"


class GamePath(ApiModel):
    game: EventGameName = Field(description=GAME_TEXT)


class EventPath(ApiModel):
    game: EventGameName = Field(description=GAME_TEXT)
    week: str = Field(description=WEEK_TEXT)


MONTH_TEXT = "YYYY-MM, a calendar month; its events are the weeks whose Thursday lies in it"


class SeasonPath(ApiModel):
    game: EventGameName = Field(description=GAME_TEXT)
    month: str = Field(description=MONTH_TEXT)


class StandingsQuery(PageQuery):
    """A window of the standings, as the daily board's (``offset`` 0 …, ``limit`` 1 … 100):
    with either given, ``entries`` and ``incomplete`` from ``offset``, at most ``limit`` of
    each; with neither, the whole standings (the defaults apply only to a window)."""


class StartDealBody(NameBody):
    """Starting the next deal: the name shown in the standings."""


class Deal(Document):
    n: int = Field(ge=1, le=6)
    commitment: str = Field(pattern="^[0-9a-f]{64}$", description="SHA-256 of the seed (F4e)")
    seed: str | None = Field(description="hex, once the event has closed")


class FieldResult(Document):
    """Your verified result on a deal against the field (matchpoints, docs/EVENTS.md)."""

    score: int
    beaten: int
    tied: int
    others: int = Field(description="the others who played the deal")
    percent: float = Field(description="(beaten + tied / 2) / others × 100; 50 alone")


class DealPlayed(Document):
    n: int
    attempt_id: str
    ranked: bool
    status: Literal["playing", "finished"]
    score: int | None = Field(description="the live score once finished")
    verification: Literal["queued", "verified", "rejected"] | None
    result: FieldResult | None = Field(description="once verified")


class Progress(Document):
    """The caller's deals ("Blatt 3 von 6")."""

    started: int
    finished: int
    of: int = Field(description="the event's deals: 6")
    next: int | None = Field(description="the deal a start would begin, null once all started")
    deals: list[DealPlayed]


class EventDoc(Document):
    """One game's event of one ISO week."""

    game: EventGameName
    week: str
    opens_at: str = Field(json_schema_extra={"format": "date-time"}, description="Monday 00:00")
    ends_at: str = Field(
        json_schema_extra={"format": "date-time"}, description="Sunday 24:00: no start after"
    )
    closes_at: str = Field(
        json_schema_extra={"format": "date-time"},
        description="ends_at + PIKDAME_GRACE_MINUTES: moves stop, seeds published, final",
    )
    seconds_left: int = Field(description="until ends_at (0 after)")
    closed: bool
    deals: list[Deal]
    progress: Progress | None = Field(description="the caller's; null for a new caller")


class EventAnswer(Document):
    event: EventDoc


class DealCreated(Document):
    """The deal's attempt (played through /api/attempts/{id}) and its bearer token (once)."""

    n: int
    attempt: Attempt
    token: str


class StandingEntry(Document):
    place: int
    name: str
    percent: float = Field(description="the event score: the mean of the deals' percentages")
    tops: int = Field(description="deals with the field's top score (tie-break 2)")
    you: bool


class IncompleteEntry(Document):
    name: str
    deals: int = Field(description="verified deals")
    you: bool


class Standings(Document):
    """The standings: live (at most 60 s old) until final after the close."""

    game: EventGameName
    week: str
    final: bool = Field(description="closed and every finished deal judged")
    entries: list[StandingEntry]
    incomplete: list[IncompleteEntry]
    distributions: list[dict[str, int]] = Field(
        description="per deal (1 … 6): the field's verified scores, score -> players"
    )
    offset: int | None = Field(None, description="a window's (offset or limit asked) only")
    limit: int | None = Field(None, description="a window's only")
    total: int | None = Field(None, description="a window's only: the entries in the standings")
    incomplete_total: int | None = Field(
        None, description="a window's only: the incomplete players"
    )


class MyEntry(Document):
    place: int
    name: str
    percent: float
    tops: int


class MyIncomplete(Document):
    name: str
    deals: int = Field(description="verified deals")
    offset: int = Field(description="your line's offset in the incomplete list (its window)")


class MyPlace(Document):
    """The caller's own line of the standings, or null (no credentials, not in them)."""

    game: EventGameName
    week: str
    final: bool = Field(description="closed and every finished deal judged")
    total: int = Field(description="the entries in the standings")
    incomplete_total: int = Field(description="the incomplete players")
    entry: MyEntry | None = Field(description="your place, once you finished every deal")
    incomplete: MyIncomplete | None = Field(description="your verified deals until then")


class SeasonWeek(Document):
    week: str
    final: bool = Field(description="its final standings count; false while running or judged")


class SeasonEntry(Document):
    place: int
    name: str
    points: float = Field(description="the sum of the player's best four event scores")
    counted: list[float] = Field(description="the counted event scores, best first")
    events: int = Field(description="the events of the month the player finished (tie-break 2)")
    you: bool


class Season(Document):
    """The season standing of a calendar month: a player's best four events (docs/EVENTS.md)."""

    game: EventGameName
    month: str
    final: bool = Field(description="every event of the month is final")
    weeks: list[SeasonWeek]
    entries: list[SeasonEntry]
