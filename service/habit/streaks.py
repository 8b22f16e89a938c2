"""Streaks per daily game, by UTC day: current and best, kept on the server.

Advanced when an attempt is ranked, inside the verifier's ranking script (worker.verify), which
runs once per attempt; and on its own a day already counted (or an older one, verified late)
changes nothing, so a retried job cannot count twice. A streak is current while its last day is
today or yesterday.
"""

from __future__ import annotations

import datetime as dt
from typing import Final

import redis
from redis.client import Pipeline

from service import games
from service.common import keys

GAMES: Final = games.DAILY_GAMES  # every daily game has its streak

# Count a day in a streak: a Lua function (key, day's ordinal, date) that a script defines before
# calling it. Also part of the verifier's ranking script (worker.verify.RANK_LUA), which calls it
# with its own keys and arguments.
ADVANCE_FUNCTION: Final = """
local function advance_streak(key, day, date)
  local last = tonumber(redis.call('HGET', key, 'last') or '-1')
  if last < day then
    local current = 1
    if last == day - 1 then current = tonumber(redis.call('HGET', key, 'current') or '0') + 1 end
    local best = math.max(current, tonumber(redis.call('HGET', key, 'best') or '0'))
    redis.call('HSET', key, 'current', current, 'best', best, 'last', day, 'last_date', date)
  end
end
"""
# KEYS[1] the streak, ARGV[1] the day's ordinal, ARGV[2] its date.
ADVANCE_LUA: Final = (
    ADVANCE_FUNCTION + "advance_streak(KEYS[1], tonumber(ARGV[1]), ARGV[2])\nreturn 0\n"
)


def ordinal(date: str) -> int:
    return dt.date.fromisoformat(date).toordinal()


def advance(pipe: Pipeline[str], owner: str, game: str, date: str) -> None:
    """Count ``date`` in the owner's streak of ``game`` (queued; idempotent)."""
    pipe.eval(ADVANCE_LUA, 1, keys.streak(owner, game), ordinal(date), date)


def read(client: redis.Redis[str], owner: str, today: str) -> dict[str, dict[str, object]]:
    """Per game: ``current`` (0 once a day was missed), ``best``, ``last`` (date or None)."""
    pipe = client.pipeline(transaction=False)
    for game in GAMES:
        pipe.hgetall(keys.streak(owner, game))
    today_ordinal = ordinal(today)
    out: dict[str, dict[str, object]] = {}
    for game, h in zip(GAMES, pipe.execute(), strict=True):
        last = int(h.get("last", "-1"))
        alive = last >= today_ordinal - 1
        out[game] = {
            "current": int(h.get("current", "0")) if alive else 0,
            "best": int(h.get("best", "0")),
            "last": h.get("last_date"),
        }
    return out
