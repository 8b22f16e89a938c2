"""The season standing per calendar month (issue 42, docs/EVENTS.md "The season"): a player's
best four events of the month. Flask-free and pure: it is computed from the month's final
standings documents, never from the raw results.

- A week belongs to the month of its Thursday (ISO 8601's rule for the year, applied to the
  month), so every week is in exactly one month and a month has four or five events.
- A player's season points are the sum of their best four event scores of the month (the
  published scores, 2 places, summed as whole hundredths, so exactly); fewer events count with
  what they have. Only events a player finished (in the final standings) count.
- Tie-breaks, in order: (1) the higher points; (2) more events finished in the month; (3) the
  player id, so the order is total and the same on every read.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.core import events

#: How many of a month's events count for a player.
BEST: Final = 4
_MONTH: Final = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")


def month_of(week: str) -> str:
    """``YYYY-MM`` of the week's Thursday."""
    thursday = events.week_monday(week) + dt.timedelta(days=3)
    return f"{thursday.year:04d}-{thursday.month:02d}"


def weeks_of(month: str) -> list[str]:
    """The ISO weeks whose Thursday lies in ``month`` (``YYYY-MM``; ValueError when malformed),
    in order."""
    found = _MONTH.match(month)
    if found is None:
        raise ValueError(f"a month is YYYY-MM: {month!r}")
    day = dt.date(int(found[1]), int(found[2]), 1)
    day += dt.timedelta(days=(3 - day.weekday()) % 7)  # the month's first Thursday
    weeks = []
    while f"{day.year:04d}-{day.month:02d}" == month:
        weeks.append(events.week_of(day))
        day += dt.timedelta(days=7)
    return weeks


@dataclass(frozen=True)
class SeasonLine:
    player: str
    name: str
    points: int  # hundredths of a percent: the sum of the counted event scores
    counted: tuple[int, ...]  # the counted event scores (hundredths), best first
    events: int  # the events the player finished in the month


def hundredths(percent: float) -> int:
    return round(percent * 100)


def season(finals: Iterable[Iterable[Mapping[str, Any]]]) -> list[SeasonLine]:
    """The season standing from the month's final standings, each a list of entries
    ``{"player", "name", "percent"}`` (oldest week first: a later week's name wins)."""
    scores: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for entries in finals:
        for entry in entries:
            player = str(entry["player"])
            scores.setdefault(player, []).append(hundredths(float(entry["percent"])))
            names[player] = str(entry["name"])
    lines = []
    for player, got in scores.items():
        counted = tuple(sorted(got, reverse=True)[:BEST])
        lines.append(SeasonLine(player, names[player], sum(counted), counted, len(got)))
    lines.sort(key=lambda line: (-line.points, -line.events, line.player))
    return lines
