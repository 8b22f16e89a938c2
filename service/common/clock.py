"""The service's one clock (ARCHITECTURE.md: time enters only at the edges).

"Today" is the UTC date; a day opens at 00:00 UTC and closes at 24:00 UTC plus
PIKDAME_GRACE_MINUTES, when its seed is published. Tests set ``Settings.now`` to a callable.
"""

from __future__ import annotations

import datetime as dt

from service.common.config import Settings


def system_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def now(settings: Settings) -> dt.datetime:
    """The current time in UTC (from the settings' clock when one is set)."""
    return (settings.now or system_now)().astimezone(dt.UTC)


def today(settings: Settings) -> str:
    return now(settings).date().isoformat()


def parse_date(text: str) -> dt.date | None:
    """A ``YYYY-MM-DD`` date, or None when the text is not exactly that."""
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return None
    return day if day.isoformat() == text else None


def opens_at(date: str) -> dt.datetime:
    return dt.datetime.combine(dt.date.fromisoformat(date), dt.time(), dt.UTC)


def ends_at(date: str) -> dt.datetime:
    """24:00 UTC of the day: no attempt can be started after it."""
    return opens_at(date) + dt.timedelta(days=1)


def closes_at(date: str, settings: Settings) -> dt.datetime:
    """24:00 UTC plus the grace: moves stop, the seed is published, attempts become public."""
    return ends_at(date) + dt.timedelta(minutes=settings.grace_minutes)


def is_closed(date: str, settings: Settings) -> bool:
    return now(settings) >= closes_at(date, settings)


def iso(moment: dt.datetime) -> str:
    """RFC 3339 in UTC with a ``Z``, as API.md writes times."""
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
