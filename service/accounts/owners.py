"""A device's history taken over by an account: per-player data is kept under an owner
(service.common.ownership.owner_of), so when a device's player id is attached to an account
(service.accounts.store) its days, streaks, statistics, leagues and all-time entries move to
the account's owner, and the day's ranked attempts are settled (:func:`take_over`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, TypeAlias, cast

import redis

from service import games
from service.common import keys
from service.dailies.ranking import decode_key
from service.dailies.store import Attempt, load
from service.habit.field import bucket_of

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
    from service.habit.streaks import GAMES, ordinal

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
        if source.startswith("p:"):  # the redirect the verifier follows (worker.verify)
            pipe.hset(keys.moved(source[2:]), "owner", target)
        if name is not None:
            pipe.hsetnx(keys.owner(target), "name", name)
        for code in codes:
            pipe.srem(keys.league_members(code), source)
            pipe.sadd(keys.league_members(code), target)
            pipe.sadd(keys.owner_leagues(target), code)
        pipe.delete(keys.owner(source), keys.owner_leagues(source))

    rankings.transaction(move, *watched)  # type: ignore[no-untyped-call]


def merge_alltime(rankings: redis.Redis[str], source: str, target: str) -> None:
    """Move player ``source``'s all-time board entries (sum, days, best) of every daily game to
    player ``target`` (the account's home id): the account owns the device's scores on the
    all-time boards too. Leaves the redirect ``keys.moved(source)`` -> ``target`` in the same
    transaction, which the verifier follows for a verification landing later."""
    watched = [keys.moved(source)]
    for game in games.DAILY_GAMES:
        watched += [keys.alltime(game), keys.player(source, game), keys.player(target, game)]

    def move(pipe: Pipe) -> None:
        plans = []
        for game in games.DAILY_GAMES:
            total = cast(float | None, pipe.zscore(keys.alltime(game), source))
            mine = _hash(pipe, keys.player(source, game))
            theirs = _hash(pipe, keys.player(target, game))
            plans.append((game, total, mine, theirs))
        pipe.multi()
        pipe.hset(keys.moved(source), "player", target)
        for game, total, mine, theirs in plans:
            if total is None:
                continue
            pipe.zincrby(keys.alltime(game), total, target)
            pipe.zrem(keys.alltime(game), source)
            bests = [int(h["best"]) for h in (mine, theirs) if "best" in h]
            days = int(mine.get("days", "0")) + int(theirs.get("days", "0"))
            name = theirs.get("name") or mine.get("name", "")
            facts: Fields = {"name": name, "days": days}
            if bests:
                facts["best"] = max(bests)
            pipe.hset(keys.player(target, game), mapping=facts)
            pipe.delete(keys.player(source, game))

    rankings.transaction(move, *watched)  # type: ignore[no-untyped-call]


# Take a dropped attempt off its day's board, atomically on the rankings server: mark it dropped
# first (the verifier's ranking script never ranks a dropped attempt, worker.verify.RANK_LUA),
# then, if it was ranked, undo what ranking it did: the board and its name, the histogram, the
# all-time sum and days of its player, its owner's day and, when it was the player's best day, that
# best (UNBEST_LUA: from the owner's remaining verified days).
# KEYS: dropped set, day rank, day names; ARGV: attempt id. Answers the rank key it removed.
DROP_LUA: Final = """
redis.call('SADD', KEYS[1], ARGV[1])
local key = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not key then return false end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return key
"""


# The dropped day leaves the owner's days; a best the dropped score reached is recomputed from the
# days left (none left: no best), so no all-time best counts an attempt "ohne Wertung".
# The owner's days are the player's: the device's (``p:<player>``) or the account's home player's.
# KEYS: owner's days of the game, the player's all-time facts; ARGV: date, the dropped score.
UNBEST_LUA: Final = """
redis.call('HDEL', KEYS[1], ARGV[1])
local best = redis.call('HGET', KEYS[2], 'best')
if (not best) or tonumber(best) > tonumber(ARGV[2]) then return 0 end
local top = nil
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do
  if (not top) or tonumber(v) > top then top = tonumber(v) end
end
if top then redis.call('HSET', KEYS[2], 'best', top) else redis.call('HDEL', KEYS[2], 'best') end
return 1
"""


def drop_ranking(
    client: redis.Redis[str], rankings: redis.Redis[str], attempt: Attempt, owner: str
) -> None:
    """The attempt is played "ohne Wertung" from now on and leaves its day's board (an
    account's first attempt of the day is its ranked one): the rankings first (marked dropped,
    off the board, then the rest of what ranking it counted), then the attempt (``ranked:
    false``, ``dropped``), off the day's ids and count and off the reconciler's list."""
    game = attempt.kind
    date = attempt.date
    drop_keys = [
        keys.day_dropped(date, game),
        keys.day_rank(date, game),
        keys.day_names(date, game),
    ]
    found = rankings.eval(DROP_LUA, len(drop_keys), *drop_keys, attempt.id)  # type: ignore[no-untyped-call]
    if found:
        score, _, _ = decode_key(float(found))
        pipe = rankings.pipeline(transaction=True)
        pipe.hincrby(keys.day_histogram(date, game), str(bucket_of(score)), -1)
        pipe.zincrby(keys.alltime(game), -score, attempt.player)
        pipe.hincrby(keys.player(attempt.player, game), "days", -1)
        best_keys = [keys.owner_days(owner, game), keys.player(attempt.player, game)]
        pipe.eval(UNBEST_LUA, len(best_keys), *best_keys, date, score)
        pipe.execute()
    first = client.hsetnx(keys.attempt(attempt.id), "dropped", "1")  # once, if run again
    client.hset(keys.attempt(attempt.id), "ranked", "0")
    client.srem(keys.day_ids(date, game), attempt.id)
    if first:
        client.decr(keys.day_count(date, game))
    client.zrem(keys.FINISHED, attempt.id)


def settle_day(
    client: redis.Redis[str],
    rankings: redis.Redis[str],
    date: str,
    source: str,
    target: str,
    target_owner: str,
) -> list[str]:
    """Per daily game: player ``target`` (an account's home id) takes player ``source``'s (an
    attached device's) ranked attempt of ``date``. When both have one, an account's first
    attempt of the day is its ranked one: the earlier started stays ranked and in the account's
    slot, the other is dropped (:func:`drop_ranking`). Returns the dropped attempt ids."""
    dropped = []
    for game in games.DAILY_GAMES:
        source_slot = keys.player_day(date, source, game)
        target_slot = keys.player_day(date, target, game)
        mine = client.get(source_slot)
        if mine is None:
            continue
        ttl = client.pttl(source_slot)
        expiry = ttl if ttl > 0 else None
        if client.set(target_slot, mine, nx=True, px=expiry):
            continue
        theirs = client.get(target_slot)
        if theirs is None or theirs == mine:
            continue
        found = [load(client, mine), load(client, theirs)]
        both = [  # (one dropped by an earlier run stays dropped)
            a for a in found if a is not None and not client.hget(keys.attempt(a.id), "dropped")
        ]
        if not both:
            continue
        keep = min(both, key=lambda a: (a.created_ms, a.id))
        client.set(target_slot, keep.id, px=expiry)
        for attempt in both:
            if attempt.id != keep.id:
                owner = f"p:{source}" if attempt.player == source else target_owner
                drop_ranking(client, rankings, attempt, owner)
                dropped.append(attempt.id)
    return dropped


def take_over(
    client: redis.Redis[str],
    rankings: redis.Redis[str],
    date: str,
    source: str,
    target: str,
    target_owner: str,
) -> list[str]:
    """A device's history (player ``source``) becomes an account's (home player ``target``,
    owner ``target_owner``), after the device's id was linked to the account: the day's ranked
    attempts settled first (:func:`settle_day`), then the streaks, statistics and leagues, then
    the all-time entries, each move leaving the redirect the verifier follows. Returns the
    attempts dropped from the day's boards."""
    dropped = settle_day(client, rankings, date, source, target, target_owner)
    merge(rankings, f"p:{source}", target_owner)
    merge_alltime(rankings, source, target)
    return dropped
