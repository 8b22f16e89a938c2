"""The lobby's index of public tables (docs/LOBBY.md "The lobby"): one entry per public table that
is waiting or playing, written after each of its changes and announced on the lobby's channel.

An entry holds public facts only, built by the table store from the stored seats, the rules and
the seat to act (never the session, a view, an event or a token): the game, its rules and house
rules, the timer, rated or casual, the free seats, each seat's name, kind, level and rating, and
whose turn it is. Presence (``connected``, ``away``) is read when the lobby is read, from each
table's presence set (:mod:`service.tables.stream_leases`). Flask-free.
"""

from __future__ import annotations

import json
from typing import Any

import redis

from service.common import keys


def note(client: redis.Redis[str], table_id: str, created_ms: int, entry: Any) -> None:
    """Write a public table's entry (``entry`` None: it left the lobby, finished or gone) and
    tell the lobby's streams."""
    pipe = client.pipeline(transaction=False)
    if entry is None:
        pipe.hdel(keys.LOBBY, table_id)
        pipe.zrem(keys.LOBBY_ORDER, table_id)
    else:
        pipe.hset(keys.LOBBY, table_id, json.dumps(entry, separators=(",", ":")))
        pipe.zadd(keys.LOBBY_ORDER, {table_id: created_ms})
    pipe.execute()
    client.publish(keys.LOBBY_CHANNEL, table_id)  # not in a pipeline: a cluster's refuses it


def announce(client: redis.Redis[str], reason: str) -> None:
    """Something the lobby shows changed without a table's change (presence, the queue)."""
    client.publish(keys.LOBBY_CHANNEL, reason)


def entries(client: redis.Redis[str], now_ms: int, limit: int) -> list[dict[str, Any]]:
    """The public tables, oldest first (at most ``limit``), each with its seats' presence now:
    ``connected`` (a live stream of the seat is open) and ``away`` (a seated human without one
    while the game runs: the seat stays theirs and they can come back)."""
    ids = client.zrange(keys.LOBBY_ORDER, 0, limit - 1)
    if not ids:
        return []
    pipe = client.pipeline(transaction=False)
    pipe.hmget(keys.LOBBY, ids)
    for table_id in ids:
        pipe.zrangebyscore(keys.table_presence(table_id), now_ms, "+inf")
        pipe.exists(keys.table(table_id))
    stored, *read = pipe.execute()
    found = []
    stale = []
    for table_id, text, present, alive in zip(ids, stored, read[::2], read[1::2], strict=True):
        if text is None or not alive:
            stale.append(table_id)  # its table expired unannounced (idle too long)
            continue
        entry = json.loads(text)
        here = {int(m.split(":", 1)[0]) for m in present}
        for n, seat in enumerate(entry["seats"]):
            seat["connected"] = n in here
            seat["away"] = (
                entry["status"] == "playing"
                and seat["kind"] == "human"
                and seat.get("name") is not None
                and n not in here
            )
        found.append(entry)
    if stale:
        pipe = client.pipeline(transaction=False)
        pipe.zrem(keys.LOBBY_ORDER, *stale)
        pipe.hdel(keys.LOBBY, *stale)
        pipe.execute()
    return found
