"""R11's ranking as one exact double, and the leaderboard reads (Flask-free, used by the worker).

Higher key = better: score first, then fewer turns, then the earlier finish. The three fields are
packed into 51 bits (13 + 10 + 28), so every key is an integer a double holds exactly and Redis'
sorted sets order them exactly. Reads are ZREVRANGE / ZREVRANK: O(log n + page).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, Final

import redis
from redis.client import Pipeline
from redis.commands.core import Script

from service import games
from service.common import keys

SCORE_BITS: Final = 13  # scores -4096 … 4095 (a round can score at most about ±2200, R1/R7.3)
TURN_BITS: Final = 10  # up to 1023 turns (a round has fewer than 110 draws and takes)
TIME_BITS: Final = 28  # ms after the day opens: 74 hours, more than a day plus any sane grace
SCORE_OFFSET: Final = 1 << (SCORE_BITS - 1)
TURN_MAX: Final = (1 << TURN_BITS) - 1
TIME_MAX: Final = (1 << TIME_BITS) - 1
_SCORE_SHIFT: Final = TURN_BITS + TIME_BITS


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


# One round trip per leaderboard read: the count, the page (or the page around one member) and
# the names, all from the ranking keys. The earlier reads made three round trips and one HGET per
# entry on the attempt hashes; under load each round trip waits for Redis, so this was the slowest
# read (bench/results/service.md has the before and after).
PAGE_LUA: Final = """
local total = redis.call('ZCARD', KEYS[1])
local first, last, position = tonumber(ARGV[1]), tonumber(ARGV[2]), -1
if ARGV[3] ~= '' then
  local found = redis.call('ZREVRANK', KEYS[1], ARGV[3])
  if not found then return false end
  position = found
  first = math.max(0, found - tonumber(ARGV[4]))
  last = found + tonumber(ARGV[4])
end
local page = redis.call('ZREVRANGE', KEYS[1], first, last, 'WITHSCORES')
local names = {}
if #page > 0 then
  local ids = {}
  for i = 1, #page, 2 do ids[#ids + 1] = page[i] end
  names = redis.call('HMGET', KEYS[2], unpack(ids))
end
return {total, first, position, page, names}
"""
PAGE_SHA: Final = hashlib.sha1(PAGE_LUA.encode()).hexdigest()  # Redis names scripts so
_script: list[Script] = []  # registered once per process, run on whichever client is given


# A read may run its script in a pipeline that already holds other commands (the web's rate-limit
# count, service.web.limits); ``strip`` takes the pipeline's results and returns the script's.
Strip = Callable[[list[Any]], list[Any]]


def _page(
    client: redis.Redis[str],
    date: str,
    first: int,
    last: int,
    member: str = "",
    radius: int = 0,
    pipe: Pipeline[str] | None = None,
    strip: Strip | None = None,
    game: str = games.DEFAULT,
) -> tuple[int, int, int, list[dict[str, Any]]] | None:
    """(total, first index, member's index or -1, entries); None when ``member`` is not ranked."""
    if not _script:
        _script.append(client.register_script(PAGE_LUA))
    script = _script[0]
    page_keys = [keys.day_rank(date, game), keys.day_names(date, game)]
    args = [first, last, member, radius]
    if pipe is None:
        reply = script(keys=page_keys, args=args, client=client)
    else:
        # EVALSHA straight into the pipeline: redis-py's Script in a pipeline asks SCRIPT EXISTS
        # first, one more round trip on every read.
        pipe.evalsha(PAGE_SHA, len(page_keys), *page_keys, *args)
        results = pipe.execute(raise_on_error=False)
        (reply,) = strip(results) if strip is not None else results
        if isinstance(reply, redis.exceptions.NoScriptError):  # a restarted Redis: load it
            reply = script(keys=page_keys, args=args, client=client)
        elif isinstance(reply, Exception):
            raise reply
    if not reply:
        return None
    total, start, position, flat, names = reply
    ids = [_text(m) for m in flat[0::2]]
    found = [None if n is None else _text(n) for n in names]
    missing = [i for i, n in enumerate(found) if n is None]
    if missing:  # ranked before names were kept beside the rank: read the attempts' own
        pipe = client.pipeline(transaction=False)
        for i in missing:
            pipe.hget(keys.attempt(ids[i]), "name")
        for i, name in zip(missing, pipe.execute(), strict=True):
            found[i] = None if name is None else _text(name)
    # One pass, the key unpacked inline (decode_key's arithmetic): a page of 50 is built on
    # every leaderboard read.
    first = int(start) + 1
    tie_break = games.daily(game).tie_break  # a game's own tie-break named beside ``turns``
    named = tie_break != "turns"
    entries = []
    for i, (attempt_id, key, name) in enumerate(zip(ids, flat[1::2], found, strict=True)):
        k = int(float(key))
        turns = TURN_MAX - ((k >> TIME_BITS) & TURN_MAX)
        entry = {
            "rank": first + i,
            "name": name or "",
            "score": (k >> _SCORE_SHIFT) - SCORE_OFFSET,
            "turns": turns,
            "attempt_id": attempt_id,
        }
        if named:
            entry[tie_break] = turns
        entries.append(entry)
    return int(total), int(start), int(position), entries


def day_page(
    client: redis.Redis[str],
    date: str,
    offset: int,
    limit: int,
    pipe: Pipeline[str] | None = None,
    strip: Strip | None = None,
    game: str = games.DEFAULT,
) -> dict[str, Any]:
    """One page of a day's leaderboard (verified attempts only)."""
    page = _page(client, date, offset, offset + limit - 1, pipe=pipe, strip=strip, game=game)
    assert page is not None
    total, _, _, entries = page
    return {"date": date, "total": total, "entries": entries}


def around(
    client: redis.Redis[str],
    date: str,
    attempt_id: str,
    radius: int,
    pipe: Pipeline[str] | None = None,
    strip: Strip | None = None,
    game: str = games.DEFAULT,
) -> dict[str, Any] | None:
    """The entries around one ranked attempt, or None when it is not on the board."""
    page = _page(client, date, 0, 0, attempt_id, radius, pipe=pipe, strip=strip, game=game)
    if page is None:
        return None
    total, _, position, entries = page
    return {
        "date": date,
        "total": total,
        "attempt_id": attempt_id,
        "rank": position + 1,
        "entries": entries,
    }


def rank_of(
    client: redis.Redis[str], date: str, attempt_id: str, game: str = games.DEFAULT
) -> int | None:
    """The attempt's current 1-based rank, or None when it is not ranked."""
    position = client.zrevrank(keys.day_rank(date, game), attempt_id)
    return None if position is None else int(position) + 1


def alltime_page(
    client: redis.Redis[str], offset: int, limit: int, game: str = games.DEFAULT
) -> dict[str, Any]:
    """Per player: the sum of verified daily scores of ``game``, with days played and the best
    day."""
    pipe = client.pipeline(transaction=False)
    pipe.zcard(keys.alltime(game))
    pipe.zrevrange(keys.alltime(game), offset, offset + limit - 1, withscores=True)
    total, members = pipe.execute()
    pipe = client.pipeline(transaction=False)
    for member, _ in members:
        pipe.hmget(keys.player(_text(member), game), "name", "days", "best")
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
    return (
        value if type(value) is str else value.decode() if isinstance(value, bytes) else str(value)
    )
