"""R11's ranking as one exact double, and the leaderboard reads (Flask-free, used by the worker).

Higher key = better: score first, then fewer turns, then the earlier finish. The three fields are
packed into 51 bits (13 + 10 + 28), so every key is an integer a double holds exactly and Redis'
sorted sets order them exactly. Reads are ZREVRANGE / ZREVRANK: O(log n + page).
"""

from __future__ import annotations

from typing import Any, Final

import redis

from service import keys

SCORE_BITS: Final = 13  # scores -4096 … 4095 (a round can score at most about ±2200, R1/R7.3)
TURN_BITS: Final = 10  # up to 1023 turns (a round has fewer than 110 draws and takes)
TIME_BITS: Final = 28  # ms after the day opens: 74 hours, more than a day plus any sane grace
SCORE_OFFSET: Final = 1 << (SCORE_BITS - 1)
TURN_MAX: Final = (1 << TURN_BITS) - 1
TIME_MAX: Final = (1 << TIME_BITS) - 1


def rank_key(score: int, turns: int, finished_ms: int) -> int:
    """The sorted-set score of a verified attempt (R11); ``finished_ms`` counts from the day's
    opening. Fields outside their range are clamped (never reached in a real round)."""
    s = min(max(score + SCORE_OFFSET, 0), (1 << SCORE_BITS) - 1)
    t = TURN_MAX - min(max(turns, 0), TURN_MAX)
    f = TIME_MAX - min(max(finished_ms, 0), TIME_MAX)
    key = (s << (TURN_BITS + TIME_BITS)) | (t << TIME_BITS) | f
    assert key < 1 << 53
    return key


def decode_key(key: float) -> tuple[int, int, int]:
    """(score, turns, finished_ms) back from a key: the inverse of :func:`rank_key`."""
    k = int(key)
    f = TIME_MAX - (k & TIME_MAX)
    t = TURN_MAX - ((k >> TIME_BITS) & TURN_MAX)
    s = (k >> (TURN_BITS + TIME_BITS)) - SCORE_OFFSET
    return s, t, f


def day_page(client: redis.Redis[str], date: str, offset: int, limit: int) -> dict[str, Any]:
    """One page of a day's leaderboard (verified attempts only)."""
    key = keys.day_rank(date)
    pipe = client.pipeline(transaction=False)
    pipe.zcard(key)
    pipe.zrevrange(key, offset, offset + limit - 1, withscores=True)
    total, members = pipe.execute()
    return {"date": date, "total": int(total), "entries": _entries(client, members, offset)}


def around(
    client: redis.Redis[str], date: str, attempt_id: str, radius: int
) -> dict[str, Any] | None:
    """The entries around one ranked attempt, or None when it is not on the board."""
    key = keys.day_rank(date)
    position = client.zrevrank(key, attempt_id)
    if position is None:
        return None
    start = max(0, int(position) - radius)
    pipe = client.pipeline(transaction=False)
    pipe.zcard(key)
    pipe.zrevrange(key, start, int(position) + radius, withscores=True)
    total, members = pipe.execute()
    return {
        "date": date,
        "total": int(total),
        "attempt_id": attempt_id,
        "rank": int(position) + 1,
        "entries": _entries(client, members, start),
    }


def rank_of(client: redis.Redis[str], date: str, attempt_id: str) -> int | None:
    """The attempt's current 1-based rank, or None when it is not ranked."""
    position = client.zrevrank(keys.day_rank(date), attempt_id)
    return None if position is None else int(position) + 1


def _entries(client: redis.Redis[str], members: list[Any], offset: int) -> list[dict[str, Any]]:
    pipe = client.pipeline(transaction=False)
    for member, _ in members:
        pipe.hget(keys.attempt(_text(member)), "name")
    names = pipe.execute()
    entries = []
    for i, ((member, key), name) in enumerate(zip(members, names, strict=True)):
        score, turns, _ = decode_key(key)
        entries.append(
            {
                "rank": offset + i + 1,
                "name": _text(name) if name is not None else "",
                "score": score,
                "turns": turns,
                "attempt_id": _text(member),
            }
        )
    return entries


def alltime_page(client: redis.Redis[str], offset: int, limit: int) -> dict[str, Any]:
    """Per player: the sum of verified daily scores, with days played and the best day."""
    pipe = client.pipeline(transaction=False)
    pipe.zcard(keys.ALLTIME)
    pipe.zrevrange(keys.ALLTIME, offset, offset + limit - 1, withscores=True)
    total, members = pipe.execute()
    pipe = client.pipeline(transaction=False)
    for member, _ in members:
        pipe.hmget(keys.player(_text(member)), "name", "days", "best")
    facts = pipe.execute()
    entries = [
        {
            "rank": offset + i + 1,
            "name": _text(name or ""),
            "total": int(total_score),
            "days": int(days or 0),
            "best": int(best or 0),
        }
        for i, ((_, total_score), (name, days, best)) in enumerate(zip(members, facts, strict=True))
    ]
    return {"total": int(total), "entries": entries}


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
