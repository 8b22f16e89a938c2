"""The reconciler: find finished attempts whose verification job was lost and queue them again,
so a killed worker, web process or Redis blip costs a player nothing (the job is idempotent).

Run by every verification worker at each maintenance tick (:mod:`worker.steady`), so a job lost
with one worker is picked up by the next within a tick, and by ``pikdame reconcile`` (a timer),
which also retries jobs that failed for good.
"""

from __future__ import annotations

import time

import redis

from service.data import keys, queue
from service.data.queue import JobState

JUDGED = ("verified", "rejected")


def reconcile(
    client: redis.Redis[str],
    q: queue.VerifyQueue,
    now_ms: int,
    older_than_s: int,
    *,
    retry_failed: bool = True,
) -> list[str]:
    """Requeue the verification of every finished attempt (finished before ``now_ms`` minus
    ``older_than_s``) whose job is missing or lost, and with ``retry_failed`` one that ended
    without a verdict; returns their ids. A waiting or running job is left alone."""
    cutoff = now_ms - older_than_s * 1000
    requeued = []
    for attempt_id in client.zrangebyscore(keys.FINISHED, "-inf", cutoff):
        verdict = client.hget(keys.attempt(attempt_id), "verification")
        if verdict in (*JUDGED, None):  # judged, or the attempt is gone
            client.zrem(keys.FINISHED, attempt_id)
            continue
        state = queue.job_state(q, queue.fetch(q, attempt_id), time.time())
        if state in (JobState.MISSING, JobState.LOST) or (retry_failed and state == JobState.ENDED):
            queue.requeue_verify(q, attempt_id)
            requeued.append(str(attempt_id))
    return requeued
