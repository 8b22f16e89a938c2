"""The API's documents built from stored data: the attempt ``A`` and the day.

Every card in a response comes from ``engine.view(state, 0)``: the full state never leaves here.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

import redis

from engine import (
    DAILY_RULES,
    ENGINE_VERSION,
    View,
    commitment,
    daily_seats,
    daily_seed,
    view,
)
from service.data import clock, keys, ranking
from service.data.config import Settings
from service.data.store import Attempt, AttemptHead
from service.redisconn import get_rankings


def attempt_json(
    client: redis.Redis[str], attempt: Attempt, seat_view: View | None = None
) -> dict[str, Any]:
    """API.md's ``A``: the attempt with seat 0's view (``seat_view`` when the caller has it,
    else computed from the stored game) and its verification."""
    if seat_view is None:
        seat_view = view(attempt.game.state, 0)
    return {
        "id": attempt.id,
        "date": attempt.date,
        "name": attempt.name,
        "ranked": attempt.ranked,
        "status": attempt.status,
        "seq": attempt.seq,
        "view": seat_view.to_json(),
        "verification": verification_json(client, attempt),
    }


def attempt_etag(attempt: Attempt | AttemptHead) -> str:
    """What :func:`attempt_json` depends on, as an entity tag: the record's length (the view
    follows from it), the verdict, and the rank once verified (others' verdicts move it)."""
    rank = None
    if attempt.ranked and attempt.verification == "verified":
        rank = ranking.rank_of(get_rankings(), attempt.date, attempt.id)
    return version_tag(attempt, rank)


def version_tag(attempt: Attempt | AttemptHead, rank: int | None) -> str:
    """The tag itself (service.unchanged builds it too, for attempts without a rank)."""
    return f"{attempt.id}.{attempt.seq}.{attempt.verification or '-'}.{rank or '-'}"


def verification_json(client: redis.Redis[str], attempt: Attempt) -> dict[str, Any] | None:
    """``A.verification``: null for practice and while playing, else the verdict so far."""
    if not attempt.ranked or attempt.verification is None:
        return None
    verified = attempt.verification == "verified"
    return {
        "status": attempt.verification,
        "score": attempt.score if verified else None,
        "turns": attempt.turns if verified else None,
        "rank": ranking.rank_of(get_rankings(), attempt.date, attempt.id) if verified else None,
        "reason": attempt.reason,
    }


def seed_if_published(date: str, settings: Settings) -> str | None:
    """The day's seed in hex once the day and its grace have closed (F4), else None."""
    if not clock.is_closed(date, settings):
        return None
    return daily_seed(settings.secret, date).hex()


def day_json(client: redis.Redis[str], date: str, settings: Settings) -> dict[str, Any]:
    """API.md's daily challenge document for ``date``."""
    return day_doc(date, settings, client.get(keys.day_count(date)))


def day_doc(date: str, settings: Settings, count: str | None) -> dict[str, Any]:
    """The daily challenge document from its attempts counter (read by the caller)."""
    seed = seed_if_published(date, settings)
    return {
        **_day_frame(date, settings.secret, settings.grace_minutes),
        "seed": seed,
        "attempts": int(count or 0),
    }


@functools.lru_cache(maxsize=64)
def _day_frame(date: str, secret: bytes, grace_minutes: int) -> dict[str, Any]:
    """What a day's document holds that never changes (its commitment, times, rules, seats):
    built once per day, not on every read of today's challenge. Shared: never mutated."""
    seats = [s.to_json() for s in daily_seats("")]
    seats[0] = {"kind": "human"}
    closes = clock.ends_at(date) + dt.timedelta(minutes=grace_minutes)  # clock.closes_at
    return {
        "date": date,
        "game": "pikdame",
        "engine": ENGINE_VERSION,
        "commitment": commitment(daily_seed(secret, date)),
        "opens_at": clock.iso(clock.opens_at(date)),
        "ends_at": clock.iso(clock.ends_at(date)),
        "closes_at": clock.iso(closes),
        "rules": DAILY_RULES.to_json(),
        "seats": seats,
    }
