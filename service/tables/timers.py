"""The tables' turn timer (R9) as RQ scheduled jobs: one job per (table, seq), played at the
deadline by any ``rq worker --with-scheduler``; a job whose seq has moved on does nothing.

Two indexes hold each job, both on the queue's server:
- RQ's own scheduled registry at the deadline rounded UP to the whole second (RQ scores its
  registry in whole seconds: rounding down would wake the job before the deadline, to do nothing
  and be scheduled again). Any stock ``rq worker --with-scheduler`` fires it, at most ~1 s late.
- ``pd:timers:<queue>``, a sorted set by the due time in milliseconds (on the scheduler's clock),
  read every ``TICK_S`` by worker.steady's scheduler, which moves a due job from RQ's registry
  to the queue: ~0.1 s late.
Whichever comes first moves the job; the other then finds it gone. Both live in Redis, so a
worker killed and restarted (or any other worker) still fires every timer: a scheduler that died
holds RQ's scheduler lock for a minute, so each worker's sweep (at its start and every few
seconds, worker.steady) also queues the timers overdue by ``OVERDUE_MS``.

A job lost altogether (a worker killed holding it, a web process killed before scheduling it, a
Redis outage while it ran) is found from the game state's side: the tables' index of deadlines
(``keys.TABLE_DEADLINES``), swept by service.reconcile.reconcile_timers, which queues the
overdue turn again with :func:`requeue`.

Enqueued by dotted path with plain ids as JSON, like the verification jobs (service.dailies.queue).
"""

from __future__ import annotations

import datetime as dt
import math
import time
from typing import Final

import redis
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job
from rq.registry import ScheduledJobRegistry
from rq.serializers import JSONSerializer

from service.common import keys

JOB_PATH: Final = "worker.jobs.table_turn_timeout"
JOB_TIMEOUT: Final = 60  # seconds: one autoplayed turn and the bots' answers
RESULT_TTL: Final = 60
FAILURE_TTL: Final = 7 * 86400
# How often worker.steady's scheduler looks for due timers: the bound on a timer's lateness
# beyond the worker's own queue wait (one ZRANGEBYSCORE per tick on an idle server).
TICK_S: Final = 0.1
BATCH: Final = 500  # due timers moved per tick at most (the rest on the next tick)
# A timer this late has no live scheduler: every worker's maintenance tick queues it (worker.steady)
OVERDUE_MS: Final = 2000
# A job that failed on a Redis outage (the game state's, or the queue's under the worker) runs
# again after these seconds; past them, service.reconcile.reconcile_timers sees to it.
RETRY_INTERVALS: Final = (1, 5, 30)


def retry() -> Retry:
    return Retry(max=len(RETRY_INTERVALS), interval=list(RETRY_INTERVALS))


def job_id(table_id: str, seq: int) -> str:
    """Names the table and the seq it was set for (RQ ids: letters, digits, _ and -)."""
    return f"timer-{table_id}-{seq}"


def due_key(queue_name: str) -> str:
    """The sorted set of the queue's timer job ids by deadline (ms)."""
    return f"pd:timers:{queue_name}"


def queue_on(connection: redis.Redis[bytes], name: str) -> Queue:
    """The timers' queue on the queue's server (bytes mode: RQ's own)."""
    return Queue(name, connection=connection, serializer=JSONSerializer)


def schedule(
    q: Queue,
    table_id: str,
    seq: int,
    deadline_ms: int,
    now_ms: int,
    scheduler_ms: int | None = None,
) -> None:
    """Play the turn at ``deadline_ms`` unless the table has moved past ``seq`` by then.

    The deadline and ``now_ms`` are on the caller's clock (the app's); the job is scheduled on
    the scheduler's own clock (``scheduler_ms``, the system's: what RQ and :func:`enqueue_due`
    read) the same time from now, so the two clocks never have to agree about a date.
    Scheduling early and sleeping in the job was measured and dropped: one worker then
    serialises the sleeps of simultaneous timers (bench/results/tables.md).
    """
    base = int(time.time() * 1000) if scheduler_ms is None else scheduler_ms
    due_ms = base + deadline_ms - now_ms  # an overdue turn stays overdue (OVERDUE_MS)
    backstop = dt.datetime.fromtimestamp(math.ceil(due_ms / 1000), dt.UTC)
    name = job_id(table_id, seq)
    q.enqueue_at(
        backstop,
        JOB_PATH,
        table_id,
        seq,
        job_id=name,
        job_timeout=JOB_TIMEOUT,
        result_ttl=RESULT_TTL,
        failure_ttl=FAILURE_TTL,
        retry=retry(),
    )
    # After the job exists: a crash in between leaves RQ's backstop, never a dangling id.
    q.connection.zadd(due_key(q.name), {name: due_ms})


def enqueue_due(q: Queue, now_ms: int | None = None) -> list[str]:
    """Move the timers due by ``now_ms`` from RQ's scheduled registry to the queue; the ids
    moved. Called by ONE scheduler per queue at a time (RQ's scheduler lock)."""
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    conn = q.connection
    key = due_key(q.name)
    raw = conn.zrangebyscore(key, 0, now_ms, start=0, num=BATCH)
    if not raw:
        return []
    ids = [i.decode() if isinstance(i, bytes) else str(i) for i in raw]
    registry = ScheduledJobRegistry(queue=q)  # type: ignore[no-untyped-call]
    with conn.pipeline() as pipe:
        for name in ids:
            pipe.zscore(registry.key, name)
        held = pipe.execute()
    waiting = [name for name, score in zip(ids, held, strict=True) if score is not None]
    jobs = Job.fetch_many(waiting, connection=conn, serializer=q.serializer) if waiting else []
    moved: list[str] = []
    with conn.pipeline() as pipe:
        for job in jobs:
            if job is None:
                continue  # expired or deleted: only its id is left to drop
            q.enqueue_job(job, pipeline=pipe)
            registry.remove(job.id, pipeline=pipe)
            moved.append(job.id)
        pipe.zrem(key, *ids)  # moved now, or already by RQ's own tick, or gone
        pipe.execute()
    return moved


def requeue(q: Queue, table_id: str, seq: int) -> None:
    """Replace the timer job of ``(table_id, seq)`` with one queued now, wherever the old one
    was left (lost with a killed worker, failed, or never scheduled): the job is idempotent, so
    one that was in fact still running changes nothing by running twice."""
    name = job_id(table_id, seq)
    conn = q.connection
    try:
        old: Job | None = Job.fetch(name, connection=conn, serializer=q.serializer)
    except NoSuchJobError:
        old = None
    with conn.pipeline() as pipe:
        if old is not None:
            old.delete(pipeline=pipe)
        pipe.lrem(q.intermediate_queue_key, 0, name)
        pipe.zrem(due_key(q.name), name)
        pipe.delete(keys.parked(name))
        pipe.execute()
    q.enqueue_call(
        JOB_PATH,
        args=(table_id, seq),
        job_id=name,
        timeout=JOB_TIMEOUT,
        result_ttl=RESULT_TTL,
        failure_ttl=FAILURE_TTL,
        retry=retry(),
    )
