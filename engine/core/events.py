"""The week's tournament's identity and seeds (FORMATS.md F4e, docs/EVENTS.md): one event per
daily game and ISO week, its deals' seeds and commitments, the week's open and end instants.
Pure: the caller hands in the date or week; no clock is read here."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from typing import Final

from engine.core.errors import FormatError
from engine.core.records import commitment

#: F4e's message prefix; the game's name, the week and the deal's number follow.
EVENT_MESSAGE: Final = "pikdame/event/v1/"
#: Deals per event, for every game that has events (issue 42: 6 for Pik Dame and for Gin).
EVENT_DEALS: Final = 6
_DIGITS: Final = frozenset("0123456789")
_LETTERS: Final = frozenset("abcdefghijklmnopqrstuvwxyz")


def week_of(day: dt.date) -> str:
    """The ISO week ``YYYY-Www`` a date lies in (its ISO year, which may differ from the date's
    year around New Year)."""
    year, week, _ = day.isocalendar()
    return f"{year:04d}-W{week:02d}"


def week_monday(week: str) -> dt.date:
    """The Monday of an ISO week ``YYYY-Www``; a malformed or nonexistent week (``W53`` of a
    year with 52, ``W00``) is a ``FormatError``."""
    if not isinstance(week, str) or len(week) != 8 or week[4:6] != "-W":
        raise FormatError("a week is YYYY-Www", week)
    if not set(week[:4] + week[6:]) <= _DIGITS:
        raise FormatError("a week is YYYY-Www", week)
    try:
        monday = dt.date.fromisocalendar(int(week[:4]), int(week[6:]), 1)
        monday + dt.timedelta(days=7)  # the week's end must exist too
    except (ValueError, OverflowError):
        raise FormatError("no such ISO week", week) from None
    return monday


def opens_at(week: str) -> dt.datetime:
    """Monday 00:00 UTC: the event opens, its commitments are published."""
    monday = week_monday(week)
    return dt.datetime(monday.year, monday.month, monday.day, tzinfo=dt.UTC)


def ends_at(week: str) -> dt.datetime:
    """Sunday 24:00 UTC (the next Monday 00:00): no deal of the event starts after it."""
    return opens_at(week) + dt.timedelta(days=7)


def event_seed(secret: bytes, game: str, week: str, n: int) -> bytes:
    """F4e: HMAC-SHA256(secret, "pikdame/event/v1/" + game + "/" + YYYY-Www + "/" + n), the
    32-byte seed of deal ``n`` (1 … ``EVENT_DEALS``)."""
    if not isinstance(game, str) or not game or not set(game) <= _LETTERS:
        raise FormatError("a game's name is lower-case letters", game)
    week_monday(week)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= EVENT_DEALS:
        raise FormatError(f"a deal's number is 1 … {EVENT_DEALS}", n)
    message = f"{EVENT_MESSAGE}{game}/{week}/{n}"
    return hmac.new(secret, message.encode(), hashlib.sha256).digest()


def event_seeds(secret: bytes, game: str, week: str) -> tuple[bytes, ...]:
    """Every deal's seed of the event, deal 1 first."""
    return tuple(event_seed(secret, game, week, n) for n in range(1, EVENT_DEALS + 1))


def commitments(seeds: tuple[bytes, ...]) -> tuple[str, ...]:
    """F4e: each deal's commitment (F4's lower-case hex SHA-256), published at the opening."""
    return tuple(commitment(seed) for seed in seeds)


__all__ = [
    "EVENT_DEALS",
    "EVENT_MESSAGE",
    "commitments",
    "ends_at",
    "event_seed",
    "event_seeds",
    "opens_at",
    "week_monday",
    "week_of",
]
