"""F4e: the week's tournament's seeds and commitments, and its ISO week (docs/EVENTS.md), for both
games that have events."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import FormatError
from engine.core.events import (
    EVENT_DEALS,
    commitments,
    ends_at,
    event_seed,
    event_seeds,
    opens_at,
    week_monday,
    week_of,
)

DAYS = st.dates(min_value=dt.date(1000, 1, 1), max_value=dt.date(9998, 12, 31))


@pytest.mark.parametrize("game", ["pikdame", "gin"])
def test_f4e_worked_example(game: str) -> None:
    """F4e: HMAC-SHA256(secret, "pikdame/event/v1/<game>/<YYYY-Www>/<n>"), computed here apart."""
    secret = b"event-secret"
    for n in range(1, 7):
        message = f"pikdame/event/v1/{game}/2026-W50/{n}".encode()
        expected = hmac.new(secret, message, hashlib.sha256).digest()
        assert event_seed(secret, game, "2026-W50", n) == expected
    seeds = event_seeds(secret, game, "2026-W50")
    assert len(seeds) == EVENT_DEALS == 6 and len(set(seeds)) == 6
    assert commitments(seeds) == tuple(hashlib.sha256(s).hexdigest() for s in seeds)


def test_f4e_pinned_bytes() -> None:
    """One pinned value, so a change to the message's spelling cannot pass unnoticed."""
    seed = event_seed(b"x", "gin", "2026-W50", 1)
    assert seed.hex() == "00027ffb534a7132d002d329a1c0400f73c8dc4905460d2a266b4e480e8fbbcd"


def test_the_games_and_weeks_give_distinct_seeds() -> None:
    pik = event_seeds(b"s", "pikdame", "2026-W50")
    assert not set(pik) & set(event_seeds(b"s", "gin", "2026-W50"))
    assert not set(pik) & set(event_seeds(b"s", "pikdame", "2026-W51"))


@pytest.mark.parametrize(
    ("game", "week", "n"),
    [
        ("pikdame", "2026-W50", 0),
        ("pikdame", "2026-W50", 7),
        ("pikdame", "2026-W50", True),
        ("Gin", "2026-W50", 1),
        ("", "2026-W50", 1),
        ("gin", "2026-W00", 1),
        ("gin", "2026-W54", 1),
        ("gin", "2025-W53", 1),  # 2025 has 52 ISO weeks
        ("gin", "2026-w50", 1),
        ("gin", "26-W50", 1),
        ("gin", "2026-W5", 1),
        ("gin", "9999-W52", 1),  # its end lies past year 9999
    ],
)
def test_bad_event_inputs_are_format_errors(game: str, week: str, n: int) -> None:
    with pytest.raises(FormatError):
        event_seed(b"s", game, week, n)


def test_week_53_and_the_year_boundary() -> None:
    """2026 has 53 ISO weeks: 2026-12-31 and 2027-01-03 lie in 2026-W53; 2027-01-04 opens
    2027-W01; 2024-12-30 (a Monday) is already 2025-W01."""
    assert week_of(dt.date(2026, 12, 31)) == "2026-W53"
    assert week_of(dt.date(2027, 1, 3)) == "2026-W53"
    assert week_of(dt.date(2027, 1, 4)) == "2027-W01"
    assert week_of(dt.date(2024, 12, 30)) == "2025-W01"
    assert opens_at("2026-W53") == dt.datetime(2026, 12, 28, tzinfo=dt.UTC)
    assert ends_at("2026-W53") == dt.datetime(2027, 1, 4, tzinfo=dt.UTC) == opens_at("2027-W01")


@given(DAYS)
def test_a_day_lies_in_its_week(day: dt.date) -> None:
    """Every date lies in the week named for it: Monday 00:00 UTC ≤ its instants < Sunday 24:00."""
    week = week_of(day)
    start = dt.datetime.combine(day, dt.time(), dt.UTC)
    assert opens_at(week) <= start < start + dt.timedelta(days=1) <= ends_at(week)
    assert opens_at(week).weekday() == 0 and ends_at(week) - opens_at(week) == dt.timedelta(7)
    assert week_monday(week).isoformat() == opens_at(week).date().isoformat()


@given(DAYS)
def test_weeks_follow_each_other(day: dt.date) -> None:
    """The next week opens when this one ends (week 53 and New Year included)."""
    week = week_of(day)
    following = week_of(ends_at(week).date())
    assert following != week and opens_at(following) == ends_at(week)
    assert week_of(day + dt.timedelta(days=7)) == following
