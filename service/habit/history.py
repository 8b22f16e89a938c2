"""An owner's verified daily scores per game (written by worker.verify.RANK_LUA), and the
statistics page's figures from them."""

from __future__ import annotations

from typing import Any, Final

import redis

from service.common import keys
from service.habit import field

RECENT: Final = 14  # days on the statistics page's recent list


def scores(client: redis.Redis[str], owner: str, game: str) -> dict[str, int]:
    return {d: int(s) for d, s in client.hgetall(keys.owner_days(owner, game)).items()}


def name_of(client: redis.Redis[str], owner: str) -> str | None:
    return client.hget(keys.owner(owner), "name")


def statistics(client: redis.Redis[str], owner: str, game: str) -> dict[str, Any]:
    """Games, average, best, a histogram of own scores and the recent days (newest first)."""
    days = scores(client, owner, game)
    values = list(days.values())
    bars: dict[int, int] = {}
    for s in values:
        bars[field.bucket_of(s)] = bars.get(field.bucket_of(s), 0) + 1
    recent = sorted(days.items(), reverse=True)[:RECENT]
    return {
        "game": game,
        "games": len(values),
        "average": round(sum(values) / len(values), 1) if values else None,
        "best": max(values) if values else None,
        "histogram": [
            {"from": b, "to": b + field.BUCKET - 1, "count": n} for b, n in sorted(bars.items())
        ],
        "recent": [{"date": d, "score": s} for d, s in recent],
    }
