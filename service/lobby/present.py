"""The lobby's and the quick match's documents from stored data (docs/LOBBY.md): public facts
only, so neither document nor its stream can carry a card. Flask-free: the routes and the
stream group's generators build them."""

from __future__ import annotations

from typing import Any

import redis

from service.common import keys
from service.lobby import matcher
from service.tables import public
from service.tables import store as tables
from service.tables.documents import iso_ms

MOST_TABLES = 200  # the public tables the lobby reads at most


def lobby(
    client: redis.Redis[str], now_ms: int, game: str | None = None, limit: int = 50
) -> dict[str, Any]:
    """The lobby: open public tables (waiting, with a free seat), public tables playing, the
    quick match's waiting players per game and how many are online."""
    listed = public.entries(client, now_ms, MOST_TABLES)
    if game is not None:
        listed = [e for e in listed if e["game"] == game]
    opened = [e for e in listed if e["status"] == "waiting" and e["free"] > 0]
    playing = [e for e in listed if e["status"] == "playing"]
    viewers = int(client.zcount(keys.LOBBY_VIEWERS, now_ms, "+inf"))
    seated = sum(1 for e in listed for s in e["seats"] if s.get("connected"))
    return {
        "open": opened[:limit],
        "playing": playing[:limit],
        "queued": matcher.waiting(client),
        "online": viewers + seated,
        "now": iso_ms(now_ms),
    }


def match(client: redis.Redis[str], ticket: dict[str, str], now_ms: int) -> dict[str, Any]:
    """``M``: a ticket as its player sees it (the token only to its own player: the route)."""
    since = int(ticket.get("since", now_ms))
    pool = ticket.get("pool", "")
    waited = max(0, now_ms - since)
    status = ticket.get("status", "expired")
    bots = int(ticket.get("bots_after", "-1"))
    waiting = int(client.zcard(keys.match_pool(pool, "since"))) if pool else 0
    table_id = ticket.get("table") or None
    table = tables.load(client, table_id) if table_id is not None else None
    return {
        "id": ticket["id"],
        "status": status,
        "game": ticket.get("game"),
        "seats": int(ticket.get("seats", 0)),
        "turn_timer": int(ticket.get("timer", 0)),
        "rated": ticket.get("rated") == "1",
        "bots_after": None if bots < 0 else bots // 1000,
        "rating": int(ticket.get("rating", 0)),
        "range": matcher.range_after(waited),
        "waited_ms": waited,
        "waiting": waiting,
        "table": table_id,
        # the matched table's status now (None: none yet, or gone): a page goes to a table
        # that is waiting or playing, never back to a finished one
        "table_status": table.status if table is not None else None,
        "token": ticket.get("token") or None,
        "now": iso_ms(now_ms),
    }
