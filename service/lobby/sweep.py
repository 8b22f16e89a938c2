"""The lobby's maintenance, run by the workers every few seconds (worker.steady): every quick
match pool's matching step (tickets are matched and bots fill even when no request or stream of
the pool runs one), the groups whose builder died, and the rated games whose ratings the
finishing process did not settle (it died in between). One worker per sweep (a lock on the game
state's server, beside the tables). Flask-free."""

from __future__ import annotations

from typing import Any, Final

import redis
from rq import Queue

from service.common import keys
from service.lobby import matcher
from service.tables import store as tables
from service.tables import timers
from service.tables.store import Lifetimes, Table

LOCK: Final = f"{keys.PREFIX}:lock:lobby"
SETTLE_BATCH: Final = 50  # rated tables looked at per sweep, oldest first


def run(
    client: redis.Redis[str],
    timer_queue: Queue,
    lifetimes: Lifetimes,
    now_ms: int,
    owner: str,
    every_ms: int,
) -> dict[str, Any]:
    """One sweep, unless another worker swept within ``every_ms``: the groups made and the
    rated tables settled."""
    if not client.set(LOCK, owner, nx=True, px=max(100, every_ms - 100)):
        return {"groups": 0, "settled": []}

    def schedule(table: Table) -> None:
        assert table.deadline_ms is not None
        timers.schedule(timer_queue, table.id, table.seq, table.deadline_ms, now_ms)

    groups = matcher.sweep(client, lifetimes, now_ms, schedule)
    settled = []
    for table_id in client.zrange(keys.RATED_OPEN, 0, SETTLE_BATCH - 1):
        table = tables.load(client, table_id)
        if table is None or table.status == "finished":
            tables.settle_ratings(client, table_id, now_ms)
            settled.append(table_id)
    return {"groups": len(groups), "settled": settled}
