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
    gin,
    view,
)
from service.common import clock, keys
from service.common.config import Settings
from service.dailies import ranking
from service.dailies.store import Attempt, AttemptHead
from service.games import dailies
from service.web.redisconn import get_rankings


def attempt_json(
    client: redis.Redis[str], attempt: Attempt, seat_view: View | None = None
) -> dict[str, Any]:
    """API.md's ``A``: the attempt with seat 0's view (``seat_view`` when the caller has it,
    else computed from the stored game) and its verification. A Gin attempt (issue 14) carries
    ``game: "gin"`` and a Gin view (docs/GIN_DAILY.md); a Pik Dame attempt keeps its v1 keys."""
    if attempt.kind == dailies.GIN:
        return gin_attempt_json(client, attempt)
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


def gin_attempt_json(
    client: redis.Redis[str], attempt: Attempt, match: gin.GinMatch | None = None
) -> dict[str, Any]:
    """A Gin attempt's ``A``: seat 0's view of the match (engine.gin.view: never the bot's
    hand, the stock, the seed or the bot's face-down knock card)."""
    if match is None:
        match = attempt.match
    return {
        "id": attempt.id,
        "date": attempt.date,
        "game": dailies.GIN,
        "name": attempt.name,
        "ranked": attempt.ranked,
        "status": attempt.status,
        "seq": attempt.seq,
        "view": match.view(0).to_json(),
        "verification": verification_json(client, attempt),
    }


def attempt_etag(attempt: Attempt | AttemptHead) -> str:
    """What :func:`attempt_json` depends on, as an entity tag: the record's length (the view
    follows from it), the verdict, and the rank once verified (others' verdicts move it)."""
    rank = None
    if attempt.ranked and attempt.verification == "verified":
        rank = ranking.rank_of(get_rankings(), attempt.date, attempt.id, attempt.kind)
    return version_tag(attempt, rank)


def version_tag(attempt: Attempt | AttemptHead, rank: int | None) -> str:
    """The tag itself (service.dailies.unchanged builds it too, for attempts without a rank)."""
    return f"{attempt.id}.{attempt.seq}.{attempt.verification or '-'}.{rank or '-'}"


def verification_json(client: redis.Redis[str], attempt: Attempt) -> dict[str, Any] | None:
    """``A.verification``: null for practice and while playing, else the verdict so far."""
    if not attempt.ranked or attempt.verification is None:
        return None
    verified = attempt.verification == "verified"
    rank = ranking.rank_of(get_rankings(), attempt.date, attempt.id, attempt.kind)
    doc: dict[str, Any] = {
        "status": attempt.verification,
        "score": attempt.score if verified else None,
        "turns": attempt.turns if verified else None,
        "rank": rank if verified else None,
        "reason": attempt.reason,
    }
    if attempt.kind == dailies.GIN:  # Gin's tie-break: the hands (turns holds the same number)
        doc["hands"] = attempt.turns if verified else None
    return doc


def seed_if_published(date: str, settings: Settings, game: str = dailies.PIKDAME) -> str | None:
    """The day's seed of ``game`` in hex once the day and its grace have closed (F4), else
    None."""
    if not clock.is_closed(date, settings):
        return None
    return dailies.of(game).seed(settings.secret, date).hex()


def day_json(
    client: redis.Redis[str], date: str, settings: Settings, game: str = dailies.PIKDAME
) -> dict[str, Any]:
    """API.md's daily challenge document for ``date`` (of ``game``, docs/GIN_DAILY.md)."""
    return day_doc(date, settings, client.get(keys.day_count(date, game)), game)


def gin_day_doc(date: str, settings: Settings, count: str | None) -> dict[str, Any]:
    """Gin's daily document (docs/GIN_DAILY.md): Pik Dame's keys, Gin's values."""
    seats = [s.to_json() for s in gin.daily_seats("")]
    seats[0] = {"kind": "human"}
    return {
        "date": date,
        "game": dailies.GIN,
        "engine": gin.ENGINE_VERSION,
        "commitment": commitment(gin.daily_seed(settings.secret, date)),
        "opens_at": clock.iso(clock.opens_at(date)),
        "ends_at": clock.iso(clock.ends_at(date)),
        "closes_at": clock.iso(clock.closes_at(date, settings)),
        "rules": dict(gin.DAILY_RULES),
        "seats": seats,
        "seed": seed_if_published(date, settings, dailies.GIN),
        "attempts": int(count or 0),
    }


def day_doc(
    date: str, settings: Settings, count: str | None, game: str = dailies.PIKDAME
) -> dict[str, Any]:
    """The daily challenge document from its attempts counter (read by the caller)."""
    if game == dailies.GIN:
        return gin_day_doc(date, settings, count)
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
