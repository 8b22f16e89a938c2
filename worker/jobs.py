"""The RQ job functions, enqueued by dotted path (``worker.jobs.verify_attempt``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import redis

from service.data import config, keys, queue
from worker import par as par_job
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
    verdict = verify(ctx.client, attempt_id, ctx.settings.secret)
    date = ctx.client.hget(keys.attempt(attempt_id), "date")
    if date is not None and not ctx.client.exists(keys.par(date)):
        queue.enqueue_par(ctx.queue, date)  # lazily, on the day's first finished attempt
    return verdict


def compute_par(date: str) -> dict[str, int]:
    """The day's bot par, computed once (idempotent: a second job reads the stored one)."""
    ctx = context()
    return par_job.compute(ctx.client, date, ctx.settings.secret)
