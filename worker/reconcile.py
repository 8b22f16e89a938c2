"""The reconciler: re-enqueue finished attempts that have been waiting too long for a verdict,
so a killed worker or a lost job loses nothing (the job itself is idempotent)."""

from __future__ import annotations

import redis
from rq import Queue

from service import keys
from service.queue import requeue_verify


def reconcile(client: redis.Redis[str], q: Queue, now_ms: int, older_than_s: int) -> list[str]:
    """Re-enqueue every attempt in the finished set older than ``older_than_s``; returns their
    ids. Verified and rejected attempts leave the set in the job's own transaction."""
    cutoff = now_ms - older_than_s * 1000
    waiting = client.zrangebyscore(keys.FINISHED, "-inf", cutoff)
    requeued = []
    for attempt_id in waiting:
        verdict = client.hget(keys.attempt(attempt_id), "verification")
        if verdict in ("verified", "rejected", None):  # judged, or the attempt is gone
            client.zrem(keys.FINISHED, attempt_id)
            continue
        if requeue_verify(q, str(attempt_id)):
            requeued.append(str(attempt_id))
    return requeued
