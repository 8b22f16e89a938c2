"""The RQ job functions, enqueued by dotted path (``worker.jobs.verify_attempt``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import redis

from service.data import config, queue
from worker.verify import verify


@dataclass(frozen=True)
class Context:
    """What a worker process shares between its jobs: settings, a text-mode Redis client and the
    verification queue (for the reconciler)."""

    settings: config.Settings
    client: redis.Redis[str]
    queue: queue.VerifyQueue


@cache
def context() -> Context:
    """One per worker process, from the environment (service.data.config)."""
    settings = config.load()
    return Context(
        settings,
        redis.Redis.from_url(settings.redis_url, decode_responses=True),
        queue.queue(settings.redis_url, settings.queue, settings.retry_intervals),
    )


def verify_attempt(attempt_id: str) -> dict[str, Any]:
    """Replay, judge and rank one finished attempt; idempotent; raises on anything unexpected."""
    ctx = context()
    return verify(ctx.client, attempt_id, ctx.settings.secret)
