"""Who a per-player datum belongs to: the ONE mapping from the service's player id (the session's
or bearer token's player, service.identity) to the id streaks, statistics and leagues are kept
under, so an account (service.data.accounts) gathers every device's history under one owner."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, cast

import redis

from service.data import accounts, keys


def owner_of(client: redis.Redis[str], player: str) -> str:
    """``a:<account>`` for a player id linked to an account, else ``p:<player id>``."""
    account = accounts.account_of(client, player)
    return f"a:{account}" if account is not None else f"p:{player}"


if TYPE_CHECKING:
    Pipe: TypeAlias = redis.client.Pipeline[str]
Fields: TypeAlias = "dict[str | bytes, bytes | float | int | str]"  # an HSET mapping (redis-py)


def _hash(pipe: Pipe, key: str) -> dict[str, str]:
    """HGETALL while WATCHing (immediate mode): redis-py types a pipeline's reads as pipelines."""
    return cast(dict[str, str], pipe.hgetall(key))


def _runs(ordinals: list[int]) -> tuple[int, int]:
    """(best, current) runs of consecutive days in sorted ``ordinals``: the longest, and the one
    ending at the last day."""
    best = current = 0
    previous = None
    for day in ordinals:
        current = current + 1 if previous is not None and day == previous + 1 else 1
        best = max(best, current)
        previous = day
    return best, current


def merge(rankings: redis.Redis[str], source: str, target: str) -> None:
    """Move everything kept under owner ``source`` (an anonymous device's ``p:<player>``) to
    owner ``target`` (the account it was attached to, ``a:<account>``): per daily game the
    verified days (the account's own score wins a day both have) and closed days' matchpoints,
    the streak recomputed from the merged days, the name, and league memberships. One
    optimistic transaction on the rankings server; running it again changes nothing."""
    from service.data.streaks import GAMES, ordinal

    watched = [keys.owner(source), keys.owner_leagues(source)]
    for game in GAMES:
        watched += [keys.owner_days(source, game), keys.owner_days(target, game)]

    def move(pipe: Pipe) -> None:
        plans = []
        for game in GAMES:
            mine = _hash(pipe, keys.owner_days(source, game))
            theirs = _hash(pipe, keys.owner_days(target, game))
            points = _hash(pipe, keys.owner_matchpoints(source, game))
            streak_t = _hash(pipe, keys.streak(target, game))
            streak_s = _hash(pipe, keys.streak(source, game))
            plans.append((game, mine, theirs, points, streak_t, streak_s))
        name = _hash(pipe, keys.owner(source)).get("name")
        codes = sorted(cast(set[str], pipe.smembers(keys.owner_leagues(source))))
        pipe.multi()
        for game, mine, theirs, points, streak_t, streak_s in plans:
            if mine:
                merged: Fields = {d: v for d, v in {**mine, **theirs}.items()}
                pipe.hset(keys.owner_days(target, game), mapping=merged)
            for date, value in points.items():
                pipe.hsetnx(keys.owner_matchpoints(target, game), date, value)
            days = sorted(ordinal(d) for d in {*mine, *theirs})
            if mine and days:
                best, current = _runs(days)
                best = max(best, int(streak_t.get("best", "0")), int(streak_s.get("best", "0")))
                last_date = max({*mine, *theirs})
                streak: Fields = {"current": current, "best": best, "last": days[-1]}
                streak["last_date"] = last_date
                pipe.hset(keys.streak(target, game), mapping=streak)
            pipe.delete(
                keys.owner_days(source, game),
                keys.owner_matchpoints(source, game),
                keys.streak(source, game),
            )
        if name is not None:
            pipe.hsetnx(keys.owner(target), "name", name)
        for code in codes:
            pipe.srem(keys.league_members(code), source)
            pipe.sadd(keys.league_members(code), target)
            pipe.sadd(keys.owner_leagues(target), code)
        pipe.delete(keys.owner(source), keys.owner_leagues(source))

    rankings.transaction(move, *watched)  # type: ignore[no-untyped-call]


def merge_alltime(rankings: redis.Redis[str], source: str, target: str) -> None:
    """Move player ``source``'s all-time board entry (sum, days, best) to player ``target`` (the
    account's home id): the account owns the device's scores on the all-time board too."""
    watched = [keys.ALLTIME, keys.player(source), keys.player(target)]

    def move(pipe: Pipe) -> None:
        total = cast(float | None, pipe.zscore(keys.ALLTIME, source))
        mine = _hash(pipe, keys.player(source))
        theirs = _hash(pipe, keys.player(target))
        if total is None:
            return
        pipe.multi()
        pipe.zincrby(keys.ALLTIME, total, target)
        pipe.zrem(keys.ALLTIME, source)
        bests = [int(h["best"]) for h in (mine, theirs) if "best" in h]
        days = int(mine.get("days", "0")) + int(theirs.get("days", "0"))
        name = theirs.get("name") or mine.get("name", "")
        facts: Fields = {"name": name, "days": days}
        if bests:
            facts["best"] = max(bests)
        pipe.hset(keys.player(target), mapping=facts)
        pipe.delete(keys.player(source))

    rankings.transaction(move, *watched)  # type: ignore[no-untyped-call]
