"""Verify a finished attempt by replaying its record from the day's seed, then rank it once.

Flask-free and clock-free: the verdict depends only on Redis' contents and the secret.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

import redis

from engine.core.errors import UnknownRelease
from service.common import connect, keys, ownership
from service.common.clock import opens_at
from service.dailies import ranking, store
from service.errors import AttemptNotFinished, EngineMismatch, NotReplicated
from service.games import Verdict
from service.habit import field, streaks

MOVES_FOLLOWED: Final = 3  # a player id is attached once: one redirect, then the ranking


def judge(attempt: store.Attempt, secret: bytes) -> Verdict:
    """The attempt's :class:`~service.games.Verdict` from its game's adapter: the record pinned
    to the day's setup (R11, docs/GIN_DAILY.md), every move replayed from the day's seed with
    every bot move recomputed by the bots of the record's own version (so a deploy fails no
    honest game), the result compared with the live score."""
    daily = attempt.daily
    record = json.loads(attempt.game_json)["record"]
    try:
        return daily.judge(record, daily.seed(secret, attempt.date), attempt.name, attempt.score)
    except UnknownRelease as e:
        raise EngineMismatch(e.message) from None


# The ranking of one verified attempt, atomic on the rankings server and idempotent: the attempt
# on the day's board is the mark that it was ranked, so a retried job (its worker died between
# ranking and recording the verdict) ranks it exactly once.
# KEYS: day rank, day names, all-time, player, day histogram, owner's days, owner, owner's streak,
# the player's redirect (keys.moved), the day's dropped attempts (keys.day_dropped);
# ARGV: attempt id, rank key, name, score, player id, histogram bucket, date, day ordinal, owner.
# Attaching a device to an account: an attempt that lost its ranking is never ranked,
# and when the player's history moved to an account (the redirect, written in the same
# transaction as the move) the script answers where it went, {owner, player}, writing nothing;
# the caller runs it again with those (so a verification racing the attach is the account's).
RANK_LUA: Final = (
    streaks.ADVANCE_FUNCTION
    + """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
if redis.call('SISMEMBER', KEYS[10], ARGV[1]) == 1 then return 0 end
local to_owner = redis.call('HGET', KEYS[9], 'owner')
local to_player = redis.call('HGET', KEYS[9], 'player')
if (to_owner and to_owner ~= ARGV[9]) or (to_player and to_player ~= ARGV[5]) then
  return {to_owner or ARGV[9], to_player or ARGV[5]}
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZINCRBY', KEYS[3], ARGV[4], ARGV[5])
redis.call('HSET', KEYS[4], 'name', ARGV[3])
redis.call('HINCRBY', KEYS[4], 'days', 1)
local best = redis.call('HGET', KEYS[4], 'best')
if (not best) or tonumber(ARGV[4]) > tonumber(best) then
  redis.call('HSET', KEYS[4], 'best', ARGV[4])
end
-- the daily habit: the day's histogram, the owner's day and name, the streak
redis.call('HINCRBY', KEYS[5], ARGV[6], 1)
redis.call('HSET', KEYS[6], ARGV[7], ARGV[4])
redis.call('HSET', KEYS[7], 'name', ARGV[3])
advance_streak(KEYS[8], tonumber(ARGV[8]), ARGV[7])
return 1
"""
)

# The verdict of one judged attempt, recorded once and announced, atomic on the attempt's slot:
# one round trip where an optimistic transaction took three (WATCH, the read, MULTI/EXEC).
# KEYS: the attempt; ARGV: the verdict ("verified" or "rejected"), its field ("turns" or
# "reason") and that field's value, the verdict's channel (keys.verdict_channel).
# Answers "new" (recorded and published), "unranked" (the attempt lost its ranking meanwhile:
# nothing to record), the verdict already recorded ("verified" or "rejected": another worker
# was quicker), or "gone" (no such attempt).
VERDICT_LUA: Final = """
if not redis.call('HGET', KEYS[1], 'status') then return 'gone' end
local dropped = redis.call('HGET', KEYS[1], 'dropped')
if dropped and dropped ~= '' then return 'unranked' end
local had = redis.call('HGET', KEYS[1], 'verification')
if had == 'verified' or had == 'rejected' then return had end
redis.call('HSET', KEYS[1], 'verification', ARGV[1], ARGV[2], ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[1])
return 'new'
"""


def rank_once(
    rankings: redis.Redis[str], attempt: store.Attempt, score: int, turns: int, owner: str
) -> bool:
    """Put a verified attempt on its day's board and into the all-time sums, the day's histogram,
    its owner's statistics and streak (service.common.ownership), unless it is there already; True
    when this call ranked it."""
    finished_ms = (attempt.finished_ms or 0) - _ms(attempt.date)
    game = attempt.kind  # every board, sum, histogram, statistic and streak is per daily game
    player = attempt.player
    for _ in range(MOVES_FOLLOWED):
        rank_keys = [
            keys.day_rank(attempt.date, game),
            keys.day_names(attempt.date, game),
            keys.alltime(game),
            keys.player(player, game),
            keys.day_histogram(attempt.date, game),
            keys.owner_days(owner, game),
            keys.owner(owner),
            keys.streak(owner, game),
            keys.moved(attempt.player),
            keys.day_dropped(attempt.date, game),
        ]
        args = [attempt.id, ranking.rank_key(score, turns, finished_ms), attempt.name, score]
        args += [player, field.bucket_of(score), attempt.date, streaks.ordinal(attempt.date)]
        args += [owner]
        ranked = rankings.eval(RANK_LUA, len(rank_keys), *rank_keys, *args)  # type: ignore[no-untyped-call]
        if not isinstance(ranked, list):
            return bool(ranked)
        owner, player = (v.decode() if isinstance(v, bytes) else str(v) for v in ranked)
    raise RuntimeError(f"attempt {attempt.id}: its owner keeps moving")  # never: one move per id


@dataclass(frozen=True)
class Verification:
    """What :func:`verified` did: the job's result (``attempt_id``, ``status``, ``new``) and the
    finished attempt it read (None for a dropped one, which has nothing to judge), so the job
    needs no second read of the attempt for its date and game."""

    result: dict[str, Any]
    attempt: store.Attempt | None


def verify(
    client: redis.Redis[str],
    attempt_id: str,
    secret: bytes,
    rankings: redis.Redis[str],
    replicas: int = 0,
) -> dict[str, Any]:
    """:func:`verified`'s result: the job's return value."""
    return verified(client, attempt_id, secret, rankings, replicas).result


def verified(
    client: redis.Redis[str],
    attempt_id: str,
    secret: bytes,
    rankings: redis.Redis[str],
    replicas: int = 0,
    stored: dict[str, str] | None = None,
) -> Verification:
    """Judge and record the verdict; a second run finds the verdict and changes nothing.
    ``stored``: the attempt's hash when the caller has read it already (the job reads it once
    to tell a daily from an event deal).

    Game state (``client``) and the rankings (``rankings``: the same client when they share a
    server; no default, so no caller can rank on the state server by leaving it out) are
    never touched in one operation: read the attempt, judge, rank (idempotent, on the rankings
    server), then record the verdict (on the state server). A job that dies between the last
    two steps is retried, judges again, finds itself ranked already and records the verdict.
    ``replicas``: PIKDAME_REDIS_WAIT_REPLICAS (the ranking confirmed before the verdict)."""
    if stored is None:
        stored = client.hgetall(keys.attempt(attempt_id))
    if stored.get("dropped"):  # lost its ranking to the account's own attempt
        return Verification({"attempt_id": attempt_id, "status": "unranked", "new": False}, None)
    attempt = finished_attempt(stored, attempt_id)
    if attempt.verification in ("verified", "rejected"):
        done = {"attempt_id": attempt_id, "status": attempt.verification, "new": False}
        return Verification(done, attempt)
    verdict = judge(attempt, secret)
    status, turns = verdict.status, verdict.tie_break
    if status == "verified":
        assert verdict.score is not None and turns is not None
        owner = ownership.owner_of(client, attempt.player)
        rank_once(rankings, attempt, verdict.score, turns, owner)
        # With replicas (deploy/SCALING.md, Failover): the ranking is on them before the verdict
        # is recorded, or the verdict could survive a failover that the ranking did not.
        if not connect.acknowledged(rankings, replicas):
            raise NotReplicated(attempt_id)
    return record_verdict(client, attempt, status, turns, verdict.reason)


def record_verdict(
    client: redis.Redis[str],
    attempt: store.Attempt,
    status: str,
    turns: int | None,
    reason: str | None,
) -> Verification:
    """The verdict recorded on the state server (VERDICT_LUA: once, and its channel told), then
    the attempt off the reconciler's list: the last steps of a daily's and an event deal's
    verification (worker.events)."""
    attempt_id = attempt.id
    field = ("turns", str(turns)) if status == "verified" else ("reason", reason or "")
    channel = keys.verdict_channel(attempt_id)
    key = keys.attempt(attempt_id)
    recorded = client.eval(VERDICT_LUA, 1, key, status, *field, channel)  # type: ignore[no-untyped-call]
    if recorded == "gone":
        raise AttemptNotFinished(f"no attempt {attempt_id}")
    if recorded == "new":
        result = {"attempt_id": attempt_id, "status": status, "new": True}
    else:  # unranked meanwhile, or another worker was quicker
        result = {"attempt_id": attempt_id, "status": str(recorded), "new": False}
    # Then, idempotent and in another slot, off the reconciler's list (which also drops judged
    # attempts itself).
    client.zrem(keys.FINISHED, attempt_id)
    return Verification(result, attempt)


def finished_attempt(stored: dict[str, str], attempt_id: str) -> store.Attempt:
    """The stored attempt, which must be a finished ranked one (else the job fails)."""
    if not stored:
        raise AttemptNotFinished(f"no attempt {attempt_id}")
    attempt = store.Attempt.from_hash(stored)
    if attempt.status != "finished" or not attempt.ranked:
        raise AttemptNotFinished(f"attempt {attempt_id} is not a finished ranked attempt")
    return attempt


def _ms(date: str) -> int:
    return int(opens_at(date).timestamp() * 1000)
