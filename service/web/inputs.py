"""What the API accepts: its field rules and the path, query and body models of its routes.

Each rule is declared once, as an annotated type: pydantic checks it and its JSON Schema is what
``/api/openapi.json`` says (issue 11.8). A new route's input is a model built from these.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, ClassVar, Final, Literal, TypeAlias

from pydantic import AfterValidator, BeforeValidator, Field

from service import games
from service.accounts import names
from service.common import clock
from service.web.validation import ApiModel

MAX_ID: Final = 64  # longer than any id the service hands out (keys.py: 16 hex digits)
MAX_OFFSET: Final = 10**9
MAX_MOVE: Final = 400  # characters: the longest F2 move is far shorter
MAX_NAME: Final = names.MAX_LENGTH
MAX_LEAGUE_NAME: Final = 40  # service.habit.leagues.MAX_NAME
MAX_WAIT: Final = 25  # seconds a verdict wait may last: below gunicorn's 30 s timeout
FIRST_YEAR: Final = 1000  # API.md's times are RFC 3339: four-digit years
INTEGER: Final = re.compile(r"-?[0-9]{1,12}")


# --- rules --------------------------------------------------------------------------------------


def calendar_day(text: str) -> dt.date | None:
    """A ``YYYY-MM-DD`` day from year 1000 on, or None."""
    day = clock.parse_date(text)
    return day if day is not None and day.year >= FIRST_YEAR else None


def _day(text: str) -> str:
    if calendar_day(text) is None:
        raise ValueError("a date YYYY-MM-DD from year 1000 on")
    return text


def _integer(value: Any) -> Any:
    """A query parameter's text as an integer: ASCII digits, an optional minus, nothing else
    (``int()`` would take ``" 5"``, ``"٣"`` and ``"1_000"``)."""
    if isinstance(value, str):
        if INTEGER.fullmatch(value) is None:
            raise ValueError("an integer")
        return int(value)
    return value


def player_name(name: str) -> str:
    """API.md's name, normalised by issue 10.9's rules (service.accounts.names: NFKC, visible,
    1–24 characters). The one check of a name: the schema's bounds and pattern below document
    it without checking, so the message of :class:`names.BadName` is the one a client reads."""
    return names.normalise(name)


NAME_RULES: Final = (
    "Normalised to NFKC, outer spaces removed and inner runs of spaces made one; then 1 to "
    f"{MAX_NAME} printable characters (no control, format or zero-width characters, no space "
    "but U+0020), at least one visible letter, digit or sign (no blank fillers such as U+3164 "
    "or U+2800), at most two combining marks on one character. A look-alike of another "
    "player's name of the same day is refused too. Any of these: 422 bad_value."
)
# The part of the rules a JSON Schema pattern can say portably (ECMA, Python and Rust regex):
# no C0 or C1 control characters, and at least one character that is neither such nor a space.
NAME_PATTERN: Final = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"

Day: TypeAlias = Annotated[
    str,
    AfterValidator(_day),
    Field(json_schema_extra={"format": "date"}),
]
PathDay: TypeAlias = Annotated[
    str,
    Field(
        json_schema_extra={"format": "date"},
        description="YYYY-MM-DD; a malformed or future day, or one before year 1000, is 404",
    ),
]
# The bound is documented, not checked: the id converter (service/web/routing.py) makes a longer id
# an unknown one (404), which API.md orders after a malformed body.
Id: TypeAlias = Annotated[str, Field(json_schema_extra={"minLength": 1, "maxLength": MAX_ID})]
PlayerName: TypeAlias = Annotated[
    str,
    Field(
        description=NAME_RULES,
        json_schema_extra={"minLength": 1, "maxLength": MAX_NAME, "pattern": NAME_PATTERN},
    ),
    AfterValidator(player_name),
]


def league_name(name: str) -> str:
    """A league's name: a player name's rules (service.accounts.names), up to MAX_LEAGUE_NAME."""
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
Lang: TypeAlias = Literal["de", "en"]


# Query integers: the bounds are the Field's (and the schema's), the text's form _integer's.
AsInteger: Final = BeforeValidator(_integer)
Offset: TypeAlias = Annotated[int, Field(ge=0, le=MAX_OFFSET), AsInteger]
Limit: TypeAlias = Annotated[int, Field(ge=1, le=100), AsInteger]
Radius: TypeAlias = Annotated[int, Field(ge=0, le=50), AsInteger]
WaitSeconds: TypeAlias = Annotated[int, Field(ge=0, le=MAX_WAIT), AsInteger]


# --- paths --------------------------------------------------------------------------------------


class DayPath(ApiModel):
    date: PathDay


class AttemptPath(ApiModel):
    attempt_id: Id


class LeaguePath(ApiModel):
    code: LeagueCode


class AroundPath(ApiModel):
    date: PathDay
    attempt_id: Id


# --- queries ------------------------------------------------------------------------------------


#: The daily games (service.games.DAILY_GAMES, docs/GIN_DAILY.md): ``game=…`` selects one.
DailyGameName: TypeAlias = games.DailyGameName
GAME_FIELD: Final = f"the daily game (docs/GIN_DAILY.md); default {games.DEFAULT}"


class PageQuery(ApiModel):
    offset: Offset = 0
    limit: Limit = 50


class GamePageQuery(PageQuery):
    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class GameQuery(ApiModel):
    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class DaysQuery(ApiModel):
    before: Day | None = Field(default=None, description="default: today")
    limit: Limit = 30
    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class AroundQuery(ApiModel):
    radius: Radius = 5
    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class LangQuery(ApiModel):
    lang: Lang = "de"


class LeagueQuery(ApiModel):
    date: Day | None = Field(default=None, description="the daily board's day (default: today)")
    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class WaitQuery(ApiModel):
    wait: WaitSeconds = Field(
        default=0, description="seconds to wait for the verdict while it is queued (0: none)"
    )


# --- bodies -------------------------------------------------------------------------------------


class NameBody(ApiModel):
    """Starting an attempt: the player's name (a bad one is 422 ``bad_value``)."""

    name: PlayerName


class StartBody(NameBody):
    """Starting a daily attempt: the name and the daily game (docs/GIN_DAILY.md)."""

    game: DailyGameName = Field(default=games.DEFAULT, description=GAME_FIELD)


class MoveBody(ApiModel):
    """A move in F2 notation and the ``seq`` the client has seen (wrong types are 400)."""

    invalid: ClassVar[tuple[int, str]] = (400, "bad_request")
    move: str = Field(max_length=MAX_MOVE, examples=["draw"])
    seq: int = Field(description="moves in the record the client has seen (A.seq)")


# --- accounts (issue 13) ------------------------------------------------------------------------

MAX_HANDLE: Final = 64
MAX_LABEL: Final = 40


class SignUpBody(ApiModel):
    """Sign up: the account's name; ``attach`` attaches this device's anonymous attempts."""

    name: PlayerName
    attach: bool = Field(default=True, description="attach this device's anonymous history")


class CeremonyBody(ApiModel):
    """The browser's answer to a WebAuthn challenge: the handle the options came with and the
    credential (``PublicKeyCredential.toJSON()``); a forged or replayed one is 400."""

    handle: str = Field(min_length=1, max_length=MAX_HANDLE)
    credential: dict[str, Any]
    label: str = Field(default="", max_length=MAX_LABEL, description="a device's name")


class EmptyBody(ApiModel):
    """No fields (the JSON object ``{}``)."""


class SignOutBody(ApiModel):
    everywhere: bool = Field(default=False, description="sign out every device of the account")


class DevicePath(ApiModel):
    credential_id: Annotated[str, Field(min_length=1, max_length=MAX_ID * 4)]


class LeagueBody(ApiModel):
    """Creating a league: its name (a bad or oversize one is 422 ``bad_value``)."""

    name: LeagueName


# --- tables (API.md "Tables", docs/TABLES.md) ----------------------------------------------------

GameName: TypeAlias = games.GameName  # every game a table can hold
#: Pik Dame's levels (R9) and Gin's (GIN.md); each game accepts its own (else 422 bad_value).
Level: TypeAlias = Literal["beginner", "advanced", "zen", "plain", "strong"]


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


class TableRules(ApiModel):
    """R9's options (``players`` is the number of seats; ``bot_levels`` are the seats' levels)."""

    turn_timer: Literal[0, 30, 60, 90] | None = Field(
        default=None, description="seconds per human turn; 0 or null: off"
    )
    hand_out_double: bool = False
    strict_1000: bool = False
    ace_high_only: bool = Field(default=False, description="Tausende only (R12.8): no A-2-3")
    no_joker_swap: bool = Field(default=False, description="Tausende only (R12.8)")
    go_out_on_opening: bool = Field(
        default=False, description="Tausende only (R12.8): going out in the turn one opens"
    )
    hints: bool | None = Field(
        default=None,
        description="Pik Dame and Tausende: whether seats may ask GET /api/tables/{id}/hint "
        "(absent or null: true); false turns the hint off for every seat. Gin has no such "
        "option (its view shows the exact deadwood): false there is 422",
    )


class NewTableBody(ApiModel):
    """A new table: the game, the creator's name, 2–4 seats (seat 0 the creator), R9 rules."""

    game: GameName = games.DEFAULT
    name: PlayerName
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    rules: TableRules = Field(default_factory=TableRules)


class LevelBody(ApiModel):
    level: Level


class EventsQuery(ApiModel):
    after: Annotated[int, Field(ge=0, le=MAX_OFFSET), AsInteger] | None = Field(
        default=None, description="the last seq seen (as Last-Event-ID): resume after it"
    )
