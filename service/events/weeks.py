"""The week's event on the service's clock (docs/EVENTS.md, "The week"): which week is current,
when an event closes, and the operator's information (commitments always, seeds only once
closed). Flask-free: the ``pikdame`` command reads it.

An event opens Monday 00:00 UTC and takes no new deal after Sunday 24:00 UTC (its ``ends_at``);
a deal started before then may be finished within the daily's grace, so the event closes (final
standings, the seeds published) at Sunday 24:00 UTC plus ``PIKDAME_GRACE_MINUTES``, as a day's
challenge closes at its 24:00 plus the grace."""

from __future__ import annotations

import datetime as dt
from typing import Any

from engine.core import events
from service.common import clock
from service.common.config import Settings


def current_week(settings: Settings) -> str:
    """The ISO week of the service's clock, ``YYYY-Www``."""
    return events.week_of(clock.now(settings).date())


def since_launch(settings: Settings) -> list[str]:
    """Every week from the launch's (PIKDAME_LAUNCH_DATE) to the current one, oldest first: the
    events there may be (an account's deletion looks for its names in each)."""
    monday = events.week_monday(events.week_of(dt.date.fromisoformat(settings.launch_date)))
    last = events.week_monday(current_week(settings))
    found = []
    while monday <= last:
        found.append(events.week_of(monday))
        monday += dt.timedelta(days=7)
    return found


def closes_at(week: str, settings: Settings) -> dt.datetime:
    """Sunday 24:00 UTC plus the grace: the seeds are published, the standings final."""
    return events.ends_at(week) + dt.timedelta(minutes=settings.grace_minutes)


def is_closed(week: str, settings: Settings) -> bool:
    return clock.now(settings) >= closes_at(week, settings)


def info(settings: Settings, game: str, week: str) -> dict[str, Any]:
    """The event's identity for the operator: every deal's commitment, and its seed once the
    event has closed (None before: an unrevealed seed never leaves)."""
    seeds = events.event_seeds(settings.secret, game, week)
    closed = is_closed(week, settings)
    return {
        "game": game,
        "week": week,
        "opens_at": clock.iso(events.opens_at(week)),
        "ends_at": clock.iso(events.ends_at(week)),
        "closes_at": clock.iso(closes_at(week, settings)),
        "deals": [
            {"n": n, "commitment": c, "seed": seed.hex() if closed else None}
            for n, (seed, c) in enumerate(zip(seeds, events.commitments(seeds), strict=True), 1)
        ],
    }
