"""The lobby's, the quick match's and the ratings' requests and answers (docs/LOBBY.md): the
declarations ``/api/openapi.json`` is generated from."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from service.tables.models import GameName
from service.web.inputs import AsInteger, Limit, Offset, PlayerName
from service.web.outputs import Document
from service.web.validation import ApiModel


class LobbyQuery(ApiModel):
    game: GameName | None = Field(default=None, description="only this game's tables")
    limit: Limit = Field(default=50, description="tables per list (open, playing)")


class GamePath(ApiModel):
    game: GameName


class BoardQuery(ApiModel):
    offset: Offset = 0
    limit: Limit = 50
    provisional: Literal["true", "false"] = Field(
        default="false",
        description="the players whose rating is still provisional (fewer than 10 rated games) "
        "instead of the established ones",
    )


class MatchBody(ApiModel):
    """Quick match: what you want to play; you are seated with waiting players of similar
    rating (docs/LOBBY.md "Quick match")."""

    game: GameName
    name: PlayerName
    seats: Annotated[int, Field(ge=2, le=4)] = Field(
        description="the table's seats: Pik Dame and Tausende 2-4, Gin 2 (else 422 bad_value)"
    )
    turn_timer: Literal[0, 30, 60, 90] = Field(
        default=60, description="seconds per turn (R9); a rated match needs one (not 0)"
    )
    rated: bool = Field(default=False, description="rated (signed-in accounts only) or casual")
    bots_after: Annotated[int, Field(ge=5, le=300), AsInteger] | None = Field(
        default=20,
        description="seconds of waiting after which bots fill the free seats; null: keep "
        "waiting for people",
    )


class LobbySeat(Document):
    kind: Literal["human", "bot"]
    name: str | None = None
    level: str | None = None
    rating: int | None = None
    provisional: bool | None = None
    connected: bool = Field(description="a live stream of this seat is open")
    away: bool = Field(description="seated, the game runs, no live stream: may come back")


class LobbyTable(Document):
    """A public table in the lobby: public facts only (never a card)."""

    id: str
    game: GameName
    rules: dict[str, Any] = Field(description="as T.rules: players, turn_timer, house rules")
    rated: bool
    status: Literal["waiting", "playing"]
    free: int = Field(description="open seats (join with POST /api/tables/{id}/join)")
    seats: list[LobbySeat]
    turn: int | None = Field(description="the seat to act while playing")
    created: int = Field(description="when it was made (ms since the epoch)")


class Lobby(Document):
    """``GET /api/lobby`` and each ``event: lobby`` of its stream."""

    open: list[LobbyTable] = Field(description="public tables waiting, with a free seat")
    playing: list[LobbyTable] = Field(description="public tables playing: who, whose turn")
    queued: dict[str, int] = Field(description="players waiting in the quick match, per game")
    online: int = Field(description="lobby viewers and players connected at public tables")
    now: str = Field(json_schema_extra={"format": "date-time"})


class Match(Document):
    """A quick-match ticket ``M`` (docs/LOBBY.md)."""

    id: str
    status: Literal["waiting", "matched", "left", "expired"]
    game: GameName
    seats: int
    turn_timer: int
    rated: bool
    bots_after: int | None
    rating: int = Field(description="the rating you are matched on")
    range: int = Field(description="the rating range you accept now (it widens as you wait)")
    waited_ms: int
    waiting: int = Field(description="players waiting in your pool")
    table: str | None = Field(description="matched: your table (GET /api/tables/{id})")
    table_status: Literal["waiting", "playing", "finished"] | None = Field(
        None,
        description="matched: your table's status now (null: not made yet, or gone); a page "
        "goes to a waiting or playing table, never back to a finished one",
    )
    token: str | None = Field(description="matched: your seat's bearer token")
    now: str = Field(json_schema_extra={"format": "date-time"})


class MatchDoc(Document):
    match: Match


class RatingsEntry(Document):
    rank: int
    name: str
    rating: int
    games: int
    provisional: bool


class RatingsBoard(Document):
    """A page of one game's ratings board, best first."""

    game: GameName
    total: int
    provisional: bool
    entries: list[RatingsEntry]


class MatchStream(Document):
    """``text/event-stream``: ``event: match``, ``data: M`` at once, on every change and each
    heartbeat; the stream ends once the ticket is matched, left or expired."""


class LobbyStream(Document):
    """``text/event-stream``: ``event: lobby``, ``data:`` the lobby (as ``GET /api/lobby``) at
    once and on every change; ``: beat`` comments between."""
