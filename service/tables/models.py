"""The tables' requests and answers (API.md "Tables", docs/TABLES.md): the path, query and body
models of their routes and the documents they answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, TypeAlias

from pydantic import Field, create_model

from service import games
from service.dailies.models import Event
from service.web.inputs import MAX_ID, MAX_OFFSET, AsInteger, Id, PlayerName
from service.web.outputs import Document
from service.web.validation import ApiModel

GameName: TypeAlias = games.GameName  # every game a table can hold


#: Every game's bot levels, as the adapters declare them (R9, GIN.md); each game accepts its
#: own (else 422 bad_value).
Level: TypeAlias = games.LevelName


class TablePath(ApiModel):
    table_id: Id


class InvitePath(ApiModel):
    invite: Annotated[str, Field(json_schema_extra={"minLength": 1, "maxLength": MAX_ID})]


class SeatPath(ApiModel):
    table_id: Id
    n: Annotated[int, Field(ge=0, le=MAX_OFFSET), AsInteger] = Field(
        description="the seat (a seat the table does not have: 404 unknown_seat)"
    )


class SeatSpec(ApiModel):
    """A seat when the table is made: a human seat (open for a friend; seat 0 is the creator's)
    or a bot with its level (R9)."""

    kind: Literal["human", "bot"]
    level: Level | None = Field(default=None, description="bots: R9's level (default advanced)")


TURN_TIMER: Final = Field(default=None, description="seconds per human turn; 0 or null: off")
HINTS: Final = Field(
    default=None,
    description="Pik Dame and Tausende: whether seats may ask GET /api/tables/{id}/hint "
    "(absent or null: true); false turns the hint off for every seat. Gin has no such "
    "option (its view shows the exact deadwood): false there is 422",
)


def _house_rule(option: games.Option) -> Any:
    """A house rule's field: off unless chosen, with the API's words its game declares."""
    if option.description is None:
        return (bool, False)
    return (bool, Field(default=False, description=option.description))


if TYPE_CHECKING:

    class TableRules(ApiModel):
        """R9's options (``players`` is the number of seats; ``bot_levels`` are the seats'
        levels), and every game's house rules (``games.OPTIONS``)."""

        turn_timer: Literal[0, 30, 60, 90] | None = TURN_TIMER
        hints: bool | None = HINTS

else:
    #: R9's options and every house rule a game's form offers, as the games declare them
    #: (``games.OPTIONS``): a new game's options need no line here.
    TableRules = create_model(
        "TableRules",
        __base__=ApiModel,
        __doc__="R9's options (``players`` is the number of seats; ``bot_levels`` are the "
        "seats' levels).",
        __module__=__name__,
        turn_timer=(Literal[0, 30, 60, 90] | None, TURN_TIMER),
        **{option.key: _house_rule(option) for option in games.OPTIONS},
        hints=(bool | None, HINTS),
    )


class NewTableBody(ApiModel):
    """A new table: the game, the creator's name, 2–4 seats (seat 0 the creator), R9 rules."""

    game: GameName = games.DEFAULT
    name: PlayerName
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    rules: TableRules = Field(default_factory=TableRules)
    public: bool = Field(
        default=False,
        description="listed in the lobby (GET /api/lobby) and joined by id by anyone; false "
        "(the default): invite only, for friends. A public table starts once its last open "
        "seat is taken (docs/LOBBY.md)",
    )
    rated: bool = Field(
        default=False,
        description="the ratings move when it ends: seats signed-in accounts only (403 "
        "account_required), needs a turn_timer (422 bad_value), no hints; bots do not rate",
    )


class PhraseBody(ApiModel):
    """A phrase of the table talk: one of the fixed ids (docs/LOBBY.md "Table talk")."""

    phrase: Literal["hello", "well_played", "thanks", "oh_no", "another"]


class MuteBody(ApiModel):
    """Mute (or hear again) another seat's phrases, for your seat only."""

    seat: Annotated[int, Field(ge=0, le=3)]
    muted: bool = True


class ClaimBody(ApiModel):
    """The away seat whose game is claimed (docs/TABLES.md "Claiming an away seat's game")."""

    seat: Annotated[int, Field(ge=0, le=3)]


class Phrase(Document):
    """A phrase as the table's streams send it (``event: phrase``)."""

    n: int = Field(description="counts the table's phrases")
    seat: int
    phrase: str


class PhraseSaid(Document):
    phrase: Phrase


class Muted(Document):
    """The seats whose phrases your seat has muted now."""

    muted: list[int]


class LevelBody(ApiModel):
    level: Level


class EventsQuery(ApiModel):
    after: Annotated[int, Field(ge=0, le=MAX_OFFSET), AsInteger] | None = Field(
        default=None, description="the last seq seen (as Last-Event-ID): resume after it"
    )


class TableAnalysisQuery(ApiModel):
    round: Annotated[int, Field(ge=1, le=MAX_OFFSET), AsInteger] | None = Field(
        default=None, description="the round to analyse (Pik Dame, Tausende)"
    )
    hand: Annotated[int, Field(ge=1, le=MAX_OFFSET), AsInteger] | None = Field(
        default=None, description="the hand to analyse (Gin)"
    )
    seat: Annotated[int, Field(ge=0, le=MAX_OFFSET), AsInteger] | None = Field(
        default=None,
        description="the seat to analyse: yours by default; another's once the game has ended",
    )
    mode: Literal["view", "deal"] = Field(
        default="view",
        description="view: from what the seat saw (docs/ANALYSIS.md); deal: on the real deal, "
        "once its seed is revealed",
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


class TableSeat(Document):
    """A seat: a human (``name`` null while open for a friend) or a bot with its level."""

    kind: Literal["human", "bot"]
    name: str | None = None
    level: str | None = None
    connected: bool = Field(description="a live stream of this seat is open (presence)")
    away: bool | None = Field(
        default=None,
        description="a seated human without a live stream while the game runs: the seat stays "
        'theirs and they can come back (docs/LOBBY.md "Presence")',
    )
    rating: int | None = Field(
        default=None, description="a signed-in player's rating in this game when seated"
    )
    provisional: bool | None = Field(default=None, description="the rating is provisional")
    timed_out: int | None = Field(
        default=None, description="turns in a row the turn timer played for this seat (R9)"
    )
    claimable: bool | None = Field(
        default=None,
        description="while the game runs: the other seats may claim the game against this seat "
        "(POST /api/tables/{id}/claim): it is away and the timer has played its turn since "
        "its own last move",
    )
    forfeit_after: int | None = Field(
        default=None,
        description="a rated game: the missed turns in a row left before the timer rule "
        "resigns this seat (its forfeit)",
    )


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


class RatingChange(Document):
    """One account seat's rating change after a rated game (docs/LOBBY.md "Ratings")."""

    seat: int
    name: str
    before: int
    after: int
    change: int
    games: int = Field(description="rated games of this game played, this one included")
    provisional: bool


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
    public: bool | None = Field(default=None, description="listed in the lobby")
    rated: bool | None = Field(default=None, description="the ratings move when it ends")
    matched: bool | None = Field(default=None, description="made by the quick match")
    forfeits: list[int] | None = Field(
        default=None,
        description="seats that forfeited: resigned by the timer rule at a rated table, or "
        "claimed against while away (docs/TABLES.md)",
    )
    rating_changes: list[RatingChange] | None = Field(
        default=None, description="a finished rated game: each account seat's change"
    )
    rematch_agreed: list[int] | None = Field(
        default=None,
        description="a rematch: the seats that asked or accepted (it starts only once every "
        "human seat did)",
    )
    rematch_declined: int | None = Field(
        default=None, description="a rematch: the seat that declined it (it never starts)"
    )
    rematch_of: str | None = Field(
        default=None, description="a rematch: the finished table it follows"
    )
    pending_resign: list[int] | None = Field(
        default=None, description="a resign proposal: the seats that agreed, the proposer first"
    )
    resign_declined: int | None = Field(
        default=None, description="the seat that declined the last resign proposal (R8)"
    )
    result: dict[str, Any] | None = Field(
        default=None,
        description="once finished: end, winner, totals (and resigned_by), as the record; at a "
        "forfeit also forfeited_by (never the winner), claimed_by and places (each seat's "
        "place, the forfeiter last)",
    )
    muted: list[int] | None = Field(
        default=None, description="the seats whose phrases your seat has muted"
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
