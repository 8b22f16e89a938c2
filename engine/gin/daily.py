"""The Gin daily challenge's seed, commitment and setup (FORMATS.md F4 for Gin,
docs/GIN_DAILY.md): one seeded match to 100 per UTC day, the player in seat 0 against the strong
bot."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from typing import Any, Final

from engine.core.errors import FormatError
from engine.core.records import Seat
from engine.gin.match import TARGET, GinMatch

DAILY_LEVEL: Final = "strong"
DAILY_MESSAGE: Final = "pikdame/daily-gin/v1/"
#: The daily document's ``rules`` (the match's only setting, G2).
DAILY_RULES: Final[dict[str, Any]] = {"target": TARGET}


def daily_seed(secret: bytes, date: str) -> bytes:
    """F4 for Gin: HMAC-SHA256(secret, "pikdame/daily-gin/v1/" + YYYY-MM-DD)."""
    try:
        if dt.date.fromisoformat(date).isoformat() != date:
            raise ValueError
    except (ValueError, TypeError):
        raise FormatError("a date is YYYY-MM-DD", date) from None
    return hmac.new(secret, f"{DAILY_MESSAGE}{date}".encode(), hashlib.sha256).digest()


def daily_seats(name: str) -> tuple[Seat, Seat]:
    """Seat 0 is the player, seat 1 the strong bot (docs/GIN_DAILY.md)."""
    return (Seat("human", name=name), Seat("bot", level=DAILY_LEVEL))


def daily_match(seed: bytes, name: str) -> GinMatch:
    """The day's match: seat 1 deals hand 1 (G2); the bot's first moves are made."""
    return GinMatch.start(seed, daily_seats(name))


def daily_score(match: GinMatch) -> int:
    """The ranked score of a finished match: the player's total minus the bot's, where a
    resigned match counts the bot's total as at least the target (docs/GIN_DAILY.md)."""
    result = match.result_json()
    if result is None:
        raise FormatError("the match is not over", None)
    mine, theirs = match.totals
    if result["end"] == "resign":
        theirs = max(theirs, TARGET)
    return mine - theirs


def daily_hands(match: GinMatch) -> int:
    """The tie-break: hands played, drawn hands included."""
    return len(match.results)


__all__ = [
    "DAILY_LEVEL",
    "DAILY_MESSAGE",
    "DAILY_RULES",
    "daily_hands",
    "daily_match",
    "daily_score",
    "daily_seats",
    "daily_seed",
]
