"""The reconciler: find finished attempts whose verification job was lost and queue them again,
so a killed worker, web process or Redis blip costs a player nothing (the job is idempotent).

Run by every verification worker at each maintenance tick (:mod:`worker.steady`), so a job lost
with one worker is picked up by the next within a tick, and by ``pikdame reconcile`` (a timer),
which also retries jobs that failed for good.

The day's bot par (service.dailies.par) is queued by the day's first verification; its
job can be lost the same ways, so :func:`reconcile_par` queues it again for each recent day that
has verified attempts and no par.

A table's turn timer (R9, service.tables.timers) can be lost the same ways too (a worker killed
holding it, a web process killed before scheduling it, a Redis outage while it ran), which would
strand the table: :func:`reconcile_timers` plays every overdue turn whose job is gone, from the
index of deadlines the tables write (``keys.TABLE_DEADLINES``). Workers run it every few seconds.

A due bot turn that moves off the request (the Meister, service.tables.bots) can lose its job the
same ways: :func:`reconcile_bots` queues it again from the index ``keys.TABLE_BOTS``; the bots
workers run it every few seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import redis
from rq import Queue
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

from service.common import jobs, keys
from service.common.jobs import JobState
from service.dailies import par, queue
from service.tables import bots, timers
from service.tables import store as tables

JUDGED = ("verified", "rejected")
PAR_DAYS = 3  # the latest days (that had attempts) whose par the reconciler sees to
# A timer job that ended (failed for good, or finished without playing) with its table still at
# its seq runs again once it ended this long ago: a job failing on a bug runs once a minute, not
# at every sweep.
TIMER_ENDED_S: Final = 60
# Drop a table from the index only while its entry is the one that was read: a change writes
# its new deadline there before the table (service.tables.store.change), and must not lose it.
FORGET = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""


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
        state = jobs.job_state(q, queue.fetch(q, attempt_id), time.time())
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
        state = jobs.job_state(q, queue.fetch_job(q, par.job_id(date)), time.time())
        if state in (JobState.MISSING, JobState.LOST) or (retry_failed and state == JobState.ENDED):
            queue.requeue_par(q, date)
            requeued.append(str(date))
    return requeued


@dataclass(frozen=True)
class DueWork:
    """One kind of a table's due work that a job does and a sweep must not lose: the index of
    tables with such work (their due moment, the app's clock), how overdue a table must be, how
    its job is found and queued again by the table's seq, and whether its job waits on RQ's
    scheduler (a turn timer) or in its queue (a bot turn)."""

    index: str
    overdue_ms: int
    batch: int
    due: Callable[[tables.Table], int | None]
    fetch: Callable[[Queue, str, int], Job | None]
    requeue: Callable[[Queue, str, int], object]
    scheduled: bool


TIMERS: Final = DueWork(
    keys.TABLE_DEADLINES,
    timers.OVERDUE_MS,
    timers.BATCH,
    lambda t: t.deadline_ms,
    lambda q, table_id, seq: queue.fetch_job(q, timers.job_id(table_id, seq)),
    timers.requeue,
    scheduled=True,
)
BOTS: Final = DueWork(
    keys.TABLE_BOTS,
    bots.OVERDUE_MS,
    bots.BATCH,
    lambda t: t.bot_due_ms,
    bots.fetch,
    bots.requeue,
    scheduled=False,
)


def reconcile_timers(
    client: redis.Redis[str], q: Queue, now_ms: int, *, retry_failed: bool = True
) -> list[str]:
    """Queue again the timer job of every table whose turn is overdue by more than
    ``timers.OVERDUE_MS`` at ``now_ms`` (the app's clock, as the deadlines are) when that job is
    missing, lost with a dead worker or a dead scheduler, or ended with the table still at its
    seq (at once with ``retry_failed``, else TIMER_ENDED_S after it ended); returns
    ``table:seq`` of each. A waiting or running job is left alone. The index is tidied on the
    way: a table gone, over or without a deadline leaves it, a later deadline moves it."""
    return reconcile_due(TIMERS, client, q, now_ms, retry_failed=retry_failed)


def reconcile_bots(
    client: redis.Redis[str], q: Queue, now_ms: int, *, retry_failed: bool = True
) -> list[str]:
    """Queue again the bots' job of every table whose due bot turn (``Table.bot_due_ms``) has not
    moved for more than ``bots.OVERDUE_MS`` at ``now_ms`` (the app's clock) when the job of its
    seq is missing, lost with a dead worker, or ended with the table still at its seq (at once
    with ``retry_failed``, else TIMER_ENDED_S after it ended); returns ``table:seq`` of each. A
    waiting or running job is left alone; the index is tidied as the timers' is."""
    return reconcile_due(BOTS, client, q, now_ms, retry_failed=retry_failed)


def reconcile_due(
    work: DueWork, client: redis.Redis[str], q: Queue, now_ms: int, *, retry_failed: bool = True
) -> list[str]:
    """The sweep of one kind of due work (:data:`TIMERS`, :data:`BOTS`): each table in its
    index overdue at ``now_ms`` whose job will not run by itself is queued again (``table:seq``
    of each returned); a table gone, over or without such work leaves the index, a later due
    moment moves it."""
    requeued = []
    cutoff = now_ms - work.overdue_ms
    due = client.zrangebyscore(work.index, "-inf", cutoff, start=0, num=work.batch, withscores=True)
    now_s = time.time()  # the scheduler's clock, for RQ's registries
    for table_id, score in due:
        table = tables.load(client, table_id)
        at = None if table is None or table.status != "playing" else work.due(table)
        if table is None or at is None:
            client.eval(FORGET, 1, work.index, table_id, repr(score))  # type: ignore[no-untyped-call]
            continue
        if at > cutoff:
            client.zadd(work.index, {table_id: at}, xx=True, gt=True)
            continue
        job = work.fetch(q, table_id, table.seq)
        if _job_lost(q, job, now_s, retry_failed, work):
            work.requeue(q, table_id, table.seq)
            requeued.append(f"{table_id}:{table.seq}")
    return requeued


def _job_lost(q: Queue, job: Job | None, now_s: float, retry_failed: bool, work: DueWork) -> bool:
    """Whether an overdue table's job will not run by itself."""
    state = jobs.job_state(q, job, now_s)
    if state in (JobState.MISSING, JobState.LOST):
        return True
    assert job is not None
    if (
        work.scheduled
        and state == JobState.WAITING
        and job.get_status(refresh=False) == JobStatus.SCHEDULED
    ):
        # Due on the scheduler's clock and still not moved: no live scheduler holds its queue
        # (a killed one keeps RQ's lock a minute), or the registry lost it.
        registry = ScheduledJobRegistry(queue=q)  # type: ignore[no-untyped-call]
        at = q.connection.zscore(registry.key, job.id)
        return at is None or at < now_s - work.overdue_ms / 1000
    if state == JobState.ENDED:
        ended = job.ended_at
        return retry_failed or ended is None or now_s - ended.timestamp() >= TIMER_ENDED_S
    return False
