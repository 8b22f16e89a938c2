"""The RQ job functions, enqueued by dotted path (``worker.jobs.verify_attempt``)."""

from __future__ import annotations

from functools import cache
from typing import Any

import redis

from service import config
from worker.verify import verify


@cache
def _context() -> tuple[redis.Redis[str], bytes]:
    """One text-mode client and the secret per worker process, from the environment."""
    cfg = config.load()
    client = redis.Redis.from_url(cfg["REDIS_URL"], decode_responses=True)
    return client, cfg["PIKDAME_SECRET"]


def verify_attempt(attempt_id: str) -> dict[str, Any]:
    """Replay, judge and rank one finished attempt; idempotent; raises on anything unexpected."""
    client, secret = _context()
    return verify(client, attempt_id, secret)
