"""The RQ job functions, enqueued by dotted path (``worker.jobs.verify_attempt``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import redis

from service.data import config, connect, queue
from worker.verify import verify


@dataclass(frozen=True)
class Context:
    """What a worker process shares between its jobs: settings, a text-mode client of the game
    state's Redis and one of the rankings' (the same when they share a server), and the
    verification queue (for the reconciler)."""

    settings: config.Settings
    client: redis.Redis[str]
    rankings: redis.Redis[str]
    queue: queue.VerifyQueue


@cache
def context() -> Context:
    """One per worker process, from the environment (service.data.config)."""
    settings = config.load()
    state, rankings = connect.role_clients(settings)
    return Context(
        settings,
        state,
        rankings,
        queue.queue_on(
            connect.client(settings, settings.redis_queue_url, text=False),
            settings.queue,
            settings.retry_intervals,
        ),
    )


def verify_attempt(attempt_id: str) -> dict[str, Any]:
    """Replay, judge and rank one finished attempt; idempotent; raises on anything unexpected."""
    ctx = context()
    return verify(ctx.client, attempt_id, ctx.settings.secret, ctx.rankings)
