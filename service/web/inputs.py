"""What the API accepts, field by field: the rules every domain's request models are built from
(dates, ids, names, offsets and limits, the languages), and the models every area shares.

Each rule is declared once, as an annotated type: pydantic checks it and its JSON Schema is what
``/api/openapi.json`` says. A domain's routes declare their path, query and body models in that
domain's ``models.py`` from these.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Final, Literal, TypeAlias

from pydantic import AfterValidator, BeforeValidator, Field

from service.common import clock, names
from service.web.validation import ApiModel

MAX_ID: Final = 64  # longer than any id the service hands out (keys.py: 16 hex digits)


MAX_OFFSET: Final = 10**9
MAX_WAIT: Final = 25  # seconds a verdict wait may last: below gunicorn's 30 s timeout


MAX_NAME: Final = names.MAX_LENGTH


FIRST_YEAR: Final = 1000  # API.md's times are RFC 3339: four-digit years


INTEGER: Final = re.compile(r"-?[0-9]{1,12}")


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
    """API.md's name, normalised by the rules (service.common.names: NFKC, visible,
    1–24 characters). The one check of a name: the schema's bounds and pattern below document
    it without checking, so the message of :class:`BadName` is the one a client reads."""
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


DayText: TypeAlias = Annotated[
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


Lang: TypeAlias = Literal["de", "en", "nl"]


# Query integers: the bounds are the Field's (and the schema's), the text's form _integer's.
AsInteger: Final = BeforeValidator(_integer)


Offset: TypeAlias = Annotated[int, Field(ge=0, le=MAX_OFFSET), AsInteger]


Limit: TypeAlias = Annotated[int, Field(ge=1, le=100), AsInteger]


Radius: TypeAlias = Annotated[int, Field(ge=0, le=50), AsInteger]


WaitSeconds: TypeAlias = Annotated[int, Field(ge=0, le=MAX_WAIT), AsInteger]


class PageQuery(ApiModel):
    offset: Offset = 0
    limit: Limit = 50


class NameBody(ApiModel):
    """Starting an attempt: the player's name (a bad one is 422 ``bad_value``)."""

    name: PlayerName


class EmptyBody(ApiModel):
    """No fields (the JSON object ``{}``)."""
