"""The API's documents built from stored data: the attempt ``A`` and the day.

Presenters get data and read nothing: the routes read the stores (the attempt, its rank, the
day's attempts counter) and hand the facts here. Every card in a response comes from the game's
seat-0 view (its adapter's ``seat_view``): the full state never leaves here.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from service import games
from service.common import clock
from service.common.config import Settings
from service.dailies.store import Attempt, AttemptHead


def attempt_json(attempt: Attempt, seat_view: dict[str, Any], rank: int | None) -> dict[str, Any]:
    """API.md's ``A``: the attempt with seat 0's view (``seat_view``: its adapter's, from the
    game the caller has) and its verification (``rank``: its place once verified). A marked daily
    game's attempt names its game (``"game": …``, docs/GIN_DAILY.md); the first daily game's
    keeps its v1 keys."""
    daily = attempt.daily
    return {
        "id": attempt.id,
        "date": attempt.date,
        **({"game": daily.name} if daily.marked else {}),
        **({"event": attempt.event} if attempt.event is not None else {}),
        "name": attempt.name,
        "ranked": attempt.ranked,
        "status": attempt.status,
        "seq": attempt.seq,
        "view": seat_view,
        "verification": verification_json(attempt, rank),
    }


def version_tag(attempt: Attempt | AttemptHead, rank: int | None) -> str:
    """What :func:`attempt_json` depends on, as an entity tag: the record's length (the view
    follows from it), the verdict, and the rank once verified (others' verdicts move it).
    (service.dailies.early_views builds it too, for attempts without a rank.)"""
    return f"{attempt.id}.{attempt.seq}.{attempt.verification or '-'}.{rank or '-'}"


def verification_json(attempt: Attempt, rank: int | None) -> dict[str, Any] | None:
    """``A.verification``: null for practice and while playing, else the verdict so far (the
    game's own tie-break named too where it is not ``turns``, which holds the same number)."""
    if not attempt.ranked or attempt.verification is None:
        return None
    verified = attempt.verification == "verified"
    doc: dict[str, Any] = {
        "status": attempt.verification,
        "score": attempt.score if verified else None,
        "turns": attempt.turns if verified else None,
        "rank": rank if verified else None,
        "reason": attempt.reason,
    }
    tie_break = attempt.daily.tie_break
    if tie_break != "turns":
        doc[tie_break] = attempt.turns if verified else None
    return doc


def seed_if_published(date: str, settings: Settings, game: str = games.DEFAULT) -> str | None:
    """The day's seed of ``game`` in hex once the day and its grace have closed (F4), else
    None."""
    if not clock.is_closed(date, settings):
        return None
    return games.daily(game).seed(settings.secret, date).hex()


def published_seed(date: str, settings: Settings, game: str = games.DEFAULT) -> bytes | None:
    """:func:`seed_if_published` as bytes."""
    seed = seed_if_published(date, settings, game)
    return None if seed is None else bytes.fromhex(seed)


def day_doc(
    date: str, settings: Settings, count: str | None, game: str = games.DEFAULT
) -> dict[str, Any]:
    """API.md's daily challenge document for ``date`` of daily game ``game`` (docs/GIN_DAILY.md)
    from its attempts counter (read by the caller)."""
    return {
        **_day_frame(game, date, settings.secret, settings.grace_minutes),
        "seed": seed_if_published(date, settings, game),
        "attempts": int(count or 0),
    }


@functools.lru_cache(maxsize=64)
def _day_frame(game: str, date: str, secret: bytes, grace_minutes: int) -> dict[str, Any]:
    """What a day's document holds that never changes (its commitment, times, rules, seats):
    built once per day and game, not on every read of today's challenge. Shared: never
    mutated."""
    daily = games.daily(game)
    facts = daily.day_facts(daily.seed(secret, date))
    closes = clock.ends_at(date) + dt.timedelta(minutes=grace_minutes)  # clock.closes_at
    return {
        "date": date,
        "game": game,
        "engine": facts["engine"],
        "commitment": facts["commitment"],
        "opens_at": clock.iso(clock.opens_at(date)),
        "ends_at": clock.iso(clock.ends_at(date)),
        "closes_at": clock.iso(closes),
        "rules": facts["rules"],
        "seats": facts["seats"],
    }
