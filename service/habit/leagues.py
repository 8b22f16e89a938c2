"""Leagues: private groups joined by an invite code, with their own daily and all-time boards.

A league holds owners (service.accounts.owners). Its daily board reads each member's verified score
of the day (one HGET per member) and their place in the whole field (three O(log n) reads); its
all-time board averages each member's matchpoint percentage over the best 20 of the last 30 days.
A league has at most MAX_MEMBERS members, so a board costs a bounded number of O(log n) reads
however large the field (bench/results/field.md).
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from collections.abc import Callable
from typing import Any, Final, cast

import redis

from service import games
from service.common import keys
from service.errors import LeagueFull
from service.habit import field

ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH: Final = 8
CODE: Final = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
MAX_NAME: Final = 40
MAX_MEMBERS: Final = 50
WINDOW_DAYS: Final = 30
BEST_OF: Final = 20
GAME: Final = games.DEFAULT  # the boards of a request without ``game``


# Whether a day has closed (service.common.clock.is_closed with the settings): its matchpoints are
# final then.
Closed = Callable[[str], bool]


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def exists(client: redis.Redis[str], code: str) -> bool:
    return CODE.fullmatch(code) is not None and bool(client.exists(keys.league(code)))


def create(client: redis.Redis[str], name: str, owner: str, now_ms: int) -> str:
    """A new league with its creator as first member; returns its invite code."""
    while True:
        code = new_code()
        if client.hsetnx(keys.league(code), "name", name):
            break
    pipe = client.pipeline(transaction=True)
    pipe.hset(keys.league(code), mapping={"created": str(now_ms), "owner": owner})
    pipe.sadd(keys.league_members(code), owner)
    pipe.sadd(keys.owner_leagues(owner), code)
    pipe.execute()
    return code


def join(client: redis.Redis[str], code: str, owner: str) -> None:
    """Join (idempotent); raises :class:`LeagueFull` when the league has no room."""
    members = keys.league_members(code)

    def add(pipe: redis.client.Pipeline[str]) -> None:
        if (
            not pipe.sismember(members, owner)
            and int(cast(int, pipe.scard(members))) >= MAX_MEMBERS
        ):
            raise LeagueFull(code)
        pipe.multi()
        pipe.sadd(members, owner)
        pipe.sadd(keys.owner_leagues(owner), code)

    client.transaction(add, members)  # type: ignore[no-untyped-call]


def leave(client: redis.Redis[str], code: str, owner: str) -> bool:
    """Leave; False when not a member. A league stays when its last member leaves (its code
    still works)."""
    pipe = client.pipeline(transaction=True)
    pipe.srem(keys.league_members(code), owner)
    pipe.srem(keys.owner_leagues(owner), code)
    removed, _ = pipe.execute()
    return bool(removed)


def summary(client: redis.Redis[str], code: str, owner: str | None = None) -> dict[str, Any]:
    pipe = client.pipeline(transaction=False)
    pipe.hget(keys.league(code), "name")
    pipe.scard(keys.league_members(code))
    pipe.sismember(keys.league_members(code), owner or "")
    name, count, member = pipe.execute()
    return {"code": code, "name": name or "", "members": int(count), "member": bool(member)}


def of_owner(client: redis.Redis[str], owner: str) -> list[dict[str, Any]]:
    codes = sorted(client.smembers(keys.owner_leagues(owner)))
    return [summary(client, code, owner) for code in codes]


def _members(client: redis.Redis[str], code: str) -> list[tuple[str, str]]:
    """(owner, display name) of every member, in owner order."""
    owners = sorted(client.smembers(keys.league_members(code)))
    pipe = client.pipeline(transaction=False)
    for o in owners:
        pipe.hget(keys.owner(o), "name")
    return [(o, n or "—") for o, n in zip(owners, pipe.execute(), strict=True)]


def _percentages(
    client: redis.Redis[str],
    members: list[str],
    dates: list[str],
    closed: Closed,
    game: str = GAME,
) -> dict[tuple[str, str], tuple[int, float | None]]:
    """(owner, date) -> (score, matchpoint percentage in the whole field) of each verified day.

    A closed day's percentage never changes: once computed it is kept beside the score
    (keys.owner_matchpoints), so a board recomputes only open days and days not read before."""
    pipe = client.pipeline(transaction=False)
    for o in members:
        pipe.hmget(keys.owner_days(o, game), dates)
        pipe.hmget(keys.owner_matchpoints(o, game), dates)
    rows = pipe.execute()
    out: dict[tuple[str, str], tuple[int, float | None]] = {}
    missing: list[tuple[str, str, int]] = []
    for i, o in enumerate(members):
        for d, s, kept in zip(dates, rows[2 * i], rows[2 * i + 1], strict=True):
            if s is None:
                continue
            if kept is None:
                missing.append((o, d, int(s)))
            else:
                out[(o, d)] = (int(s), None if int(kept) < 0 else int(kept) / 10)
    computed = field.places(client, [(d, s) for _, d, s in missing], game)
    pipe = client.pipeline(transaction=False)
    for (o, d, s), p in zip(missing, computed, strict=True):
        out[(o, d)] = (s, p)
        if closed(d):
            pipe.hset(keys.owner_matchpoints(o, game), d, -1 if p is None else round(p * 10))
    pipe.execute()
    return out


def day_board(
    client: redis.Redis[str], code: str, date: str, closed: Closed, game: str = GAME
) -> dict[str, Any]:
    """The members' verified results of ``date`` in daily game ``game``, best first (score,
    then name)."""
    members = _members(client, code)
    results = _percentages(client, [o for o, _ in members], [date], closed, game)
    played = sorted(
        (-results[(o, date)][0], name, results[(o, date)][1])
        for o, name in members
        if (o, date) in results
    )
    rows = [
        {"rank": i + 1, "name": name, "score": -negative, "percentage": percentage}
        for i, (negative, name, percentage) in enumerate(played)
    ]
    return {"date": date, "entries": rows}


def all_time_board(
    client: redis.Redis[str], code: str, today: str, closed: Closed, game: str = GAME
) -> dict[str, Any]:
    """Average matchpoint percentage over each member's best 20 of the last 30 days (today
    included), best first; members without a day in the window are left out."""
    end = dt.date.fromisoformat(today)
    dates = [(end - dt.timedelta(days=i)).isoformat() for i in range(WINDOW_DAYS)]
    members = _members(client, code)
    results = _percentages(client, [o for o, _ in members], dates, closed, game)
    averages = []
    for o, name in members:
        mine = [p for (who, _), (_, p) in results.items() if who == o and p is not None]
        if mine:
            best = sorted(mine, reverse=True)[:BEST_OF]
            averages.append((-round(sum(best) / len(best), 1), name, len(best)))
    rows = [
        {"rank": i + 1, "name": name, "average": -negative, "days": days}
        for i, (negative, name, days) in enumerate(sorted(averages))
    ]
    return {"window_days": WINDOW_DAYS, "best_of": BEST_OF, "entries": rows}
