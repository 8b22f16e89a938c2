"""The reconciler: find finished attempts whose verification job was lost and queue them again,
so a killed worker, web process or Redis blip costs a player nothing (the job is idempotent).

Run by every verification worker at each maintenance tick (:mod:`worker.steady`), so a job lost
with one worker is picked up by the next within a tick, and by ``pikdame reconcile`` (a timer),
which also retries jobs that failed for good.

The day's bot par (issue 13, service.data.par) is queued by the day's first verification; its
job can be lost the same ways, so :func:`reconcile_par` queues it again for each recent day that
has verified attempts and no par.
"""

from __future__ import annotations

import time

import redis

from service.data import keys, par, queue
from service.data.queue import JobState

JUDGED = ("verified", "rejected")
PAR_DAYS = 3  # the latest days (that had attempts) whose par the reconciler sees to


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


def reconcile_par(
    client: redis.Redis[str],
    rankings: redis.Redis[str],
    q: queue.VerifyQueue,
    *,
    retry_failed: bool = True,
) -> list[str]:
    """Requeue the par job of each of the latest PAR_DAYS days that has verified attempts but no
    par, when that job is missing or lost (and with ``retry_failed`` when it ended without a
    par); returns those dates. A waiting or running job is left alone."""
    requeued = []
    for date in client.zrange(keys.DAYS, -PAR_DAYS, -1):
        if par.read(rankings, date) is not None or not rankings.zcard(keys.day_rank(date)):
            continue
        state = queue.job_state(q, queue.fetch_job(q, par.job_id(date)), time.time())
        if state in (JobState.MISSING, JobState.LOST) or (retry_failed and state == JobState.ENDED):
            queue.requeue_par(q, date)
            requeued.append(str(date))
    return requeued
