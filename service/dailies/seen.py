"""Who has seen a day's deal: a ranked attempt is offered only to a player who has not.

The deal of a daily game is the same for everyone all day, so any attempt of it (an anonymous one
"ohne Wertung" too) shows the cards and bot replies a later ranked attempt would meet. Every start
of today's attempt marks its player (a device's session player, an account's home player, a bearer
token's player) as having seen the day's deal of that game; a ranked start by a marked player is
refused (service.dailies.api_daily, 409 ``deal_seen``). Signing up or in carries the device's
marks of the day over to the account (:func:`carry_over`). Flask-free.

Each mark is one string on the day's slot (``keys.day_tag``), holding the first attempt's id, and
lives until the day's grace has closed: a duration on the app's clock (``ttl_s``), never a moment.
"""

from __future__ import annotations

import math
from typing import Final

import redis

from service import games
from service.common import clock, keys
from service.common.config import Settings


def keep_s(date: str, settings: Settings) -> int:
    """How long a mark of ``date`` is kept: until the day's grace has closed, in seconds on
    the app's clock (at least one)."""
    left = (clock.closes_at(date, settings) - clock.now(settings)).total_seconds()
    return max(1, math.ceil(left))


def mark(
    client: redis.Redis[str], date: str, player: str, attempt_id: str, game: str, ttl_s: int
) -> None:
    """``player`` has seen ``date``'s deal of ``game`` (first through ``attempt_id``)."""
    client.set(keys.day_seen(date, player, game), attempt_id, nx=True, ex=max(1, ttl_s))


def seen_by(client: redis.Redis[str], date: str, player: str, game: str) -> str | None:
    """The attempt through which ``player`` first saw the day's deal of ``game``, else None."""
    return client.get(keys.day_seen(date, player, game))


def carry_over(client: redis.Redis[str], date: str, source: str, target: str, ttl_s: int) -> None:
    """Player ``target`` (an account's home player) has seen whatever player ``source`` (the
    device signing in) has seen of ``date``, in every daily game."""
    pipe = client.pipeline(transaction=False)
    for game in games.DAILY_GAMES:
        pipe.get(keys.day_seen(date, source, game))
    for game, attempt_id in zip(games.DAILY_GAMES, pipe.execute(), strict=True):
        if attempt_id is not None:
            mark(client, date, target, str(attempt_id), game, ttl_s)


#: How long a day's start addresses are kept for the operator's review (pikdame suspicious).
STARTS_KEEP_S: Final = 30 * 86400


def note_start(
    client: redis.Redis[str],
    date: str,
    attempt_id: str,
    address: str,
    game: str = games.DEFAULT,
    ranked: bool = True,
) -> None:
    """Remember which address started an attempt of today (per daily game): the ranked ones
    and, apart, those "ohne Wertung", which show the same deal (a rehearsal)."""
    key = keys.day_starts(date, game) if ranked else keys.day_unranked_starts(date, game)
    pipe = client.pipeline(transaction=False)
    pipe.hset(key, attempt_id, address)
    pipe.expire(key, STARTS_KEEP_S)
    pipe.execute()
