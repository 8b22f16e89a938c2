"""Table talk without a moderator (docs/LOBBY.md "Table talk"): a fixed set of phrases and emotes,
never free text, so there is nothing to moderate; each seat says one at most every
:data:`PHRASE_GAP_MS`, and each seat may mute any other seat's phrases (stored per seat, so a
reload or another device of the same seat keeps them muted).

A phrase is kept in the table's short list (its ``n`` counts the table's phrases) and announced on
the table's channel with the payload ``phrase``: the table's live streams send it as an
``event: phrase`` message (without an ``id``: phrases are not events of the game, and a stream
resumed later does not replay them). Flask-free.
"""

from __future__ import annotations

import json
from typing import Any, Final

import redis

from service.common import keys
from service.errors import PhraseTooSoon, TableError

#: The phrase ids; the pages translate them (German first: "Hallo", "Gut gespielt", "Danke",
#: "Oh nein", "Noch eine?").
PHRASES: Final = ("hello", "well_played", "thanks", "oh_no", "another")
PHRASE_GAP_MS: Final = 3000  # one phrase per seat per three seconds
KEPT: Final = 20  # the phrases a table keeps (a stream sends the new ones)
NOTICE: Final = "phrase"  # the payload on the table's channel

# KEYS: the phrase list, its counter, the seat's last phrase (ms). ARGV: seat, phrase, gap (ms),
# the keys' lifetime (s), phrases kept, now (ms, the app's clock). Returns {n, 0} when said,
# {0, ms to wait} when the seat must wait.
SAY: Final = """
local last = tonumber(redis.call('GET', KEYS[3]) or '-1')
local now = tonumber(ARGV[6])
if last >= 0 and now - last < tonumber(ARGV[3]) then
  return {0, tonumber(ARGV[3]) - (now - last)}
end
redis.call('SET', KEYS[3], ARGV[6], 'EX', ARGV[4])
local n = redis.call('INCR', KEYS[2])
local said = '{"n":' .. n .. ',"seat":' .. ARGV[1] .. ',"phrase":"' .. ARGV[2] .. '"}'
redis.call('RPUSH', KEYS[1], said)
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[5]), -1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return {n, 0}
"""


def _counter(table_id: str) -> str:
    return keys.table_phrases(table_id) + ":n"


def say(
    client: redis.Redis[str], table_id: str, seat: int, phrase: str, lifetime_s: int, now_ms: int
) -> dict[str, Any]:
    """``seat`` says ``phrase`` (one of :data:`PHRASES`: 422 ``bad_value`` otherwise, checked by
    the route's model too); 429 ``phrase_too_soon`` (with ``retry_after_ms``) within
    PHRASE_GAP_MS of its last one. Returns the phrase as the streams send it."""
    if phrase not in PHRASES:
        raise TableError(422, "bad_value", f"a phrase is one of {', '.join(PHRASES)}")
    n, wait = client.eval(  # type: ignore[no-untyped-call]
        SAY,
        3,
        keys.table_phrases(table_id),
        _counter(table_id),
        keys.table_phrase_wait(table_id, seat),
        seat,
        phrase,
        PHRASE_GAP_MS,
        max(60, lifetime_s),
        KEPT,
        now_ms,
    )
    if not n:
        raise PhraseTooSoon(int(wait))
    client.publish(keys.table_channel(table_id), NOTICE)
    return {"n": int(n), "seat": seat, "phrase": phrase}


def last_n(client: redis.Redis[str], table_id: str) -> int:
    """The number of the table's latest phrase (0: none yet)."""
    return int(client.get(_counter(table_id)) or 0)


def since(client: redis.Redis[str], table_id: str, after: int, seat: int) -> list[dict[str, Any]]:
    """The phrases after number ``after`` that ``seat`` has not muted, oldest first."""
    pipe = client.pipeline(transaction=False)
    pipe.lrange(keys.table_phrases(table_id), 0, -1)
    pipe.hget(keys.table_mutes(table_id), str(seat))
    stored, mutes = pipe.execute()
    muted = set(mutes_of(mutes))
    said = [json.loads(text) for text in stored]
    return [p for p in said if p["n"] > after and p["seat"] not in muted]


def mutes_of(stored: str | None) -> list[int]:
    """The seats a seat's stored mutes name (docs/LOBBY.md "Table talk"), in order."""
    return [] if not stored else sorted(int(n) for n in json.loads(stored))


def mute(
    client: redis.Redis[str], table_id: str, seat: int, other: int, on: bool, lifetime_s: int
) -> list[int]:
    """``seat`` mutes (``on``) or hears again ``other``'s phrases; the seats it mutes now."""
    key = keys.table_mutes(table_id)

    def run(pipe: redis.client.Pipeline[str]) -> list[int]:
        stored = pipe.hget(key, str(seat))
        muted = set(json.loads(str(stored))) if stored else set()
        if on:
            muted.add(other)
        else:
            muted.discard(other)
        now = sorted(muted)
        pipe.multi()
        pipe.hset(key, str(seat), json.dumps(now))
        pipe.expire(key, max(60, lifetime_s))
        return now

    result: list[int] = client.transaction(run, key, value_from_callable=True)  # type: ignore[no-untyped-call]
    return result
