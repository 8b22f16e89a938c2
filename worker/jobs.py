"""The RQ job functions, enqueued by dotted path (``worker.jobs.verify_attempt``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import redis

from service.data import config
from worker.verify import verify


@dataclass(frozen=True)
class Context:
    client: redis.Redis[str]
    secret: bytes


@cache
def context() -> Context:
    """One text-mode client and the secret per worker process, from the environment."""
    cfg = config.load()
    return Context(
        redis.Redis.from_url(cfg["REDIS_URL"], decode_responses=True), cfg["PIKDAME_SECRET"]
    )


def verify_attempt(attempt_id: str) -> dict[str, Any]:
    """Replay, judge and rank one finished attempt; idempotent; raises on anything unexpected."""
    ctx = context()
    return verify(ctx.client, attempt_id, ctx.secret)
