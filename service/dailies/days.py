"""Which days have a challenge: a day up to today by the service's clock."""

from __future__ import annotations

from service.common import clock
from service.errors import ApiError
from service.web.inputs import calendar_day
from service.web.redisconn import settings


def known_day(date: str) -> str:
    """A day up to today; a malformed or future date, or one before year 1000, is unknown
    (404)."""
    if calendar_day(date) is None or date > clock.today(settings()):
        raise ApiError(404, "unknown_day", f"no challenge for {date!r}")
    return date
