"""The tables' turn timer (R9) as RQ scheduled jobs: one job per (table, seq) at the deadline,
run by any ``rq worker --with-scheduler``; a job whose seq has moved on does nothing.

Enqueued by dotted path with plain ids as JSON, like the verification jobs (service.data.queue).
"""

from __future__ import annotations

import datetime as dt
from typing import Final

import redis
from rq import Queue
from rq.serializers import JSONSerializer

JOB_PATH: Final = "worker.jobs.table_turn_timeout"
JOB_TIMEOUT: Final = 60  # seconds: one autoplayed turn and the bots' answers
RESULT_TTL: Final = 60


def job_id(table_id: str, seq: int) -> str:
    """Names the table and the seq it was set for (RQ ids: letters, digits, _ and -)."""
    return f"timer-{table_id}-{seq}"


def queue_on(connection: redis.Redis[bytes], name: str) -> Queue:
    """The timers' queue on the queue's server (bytes mode: RQ's own)."""
    return Queue(name, connection=connection, serializer=JSONSerializer)


def schedule(q: Queue, table_id: str, seq: int, deadline_ms: int) -> None:
    """Play the turn at ``deadline_ms`` unless the table has moved past ``seq`` by then.

    RQ's scheduler moves due jobs to the queue once a second, so a turn is played up to about a
    second after its deadline (bench/results/tables.md). Scheduling early and sleeping in the
    job was measured and dropped: one worker then serialises the sleeps of simultaneous timers.
    """
    at = dt.datetime.fromtimestamp(deadline_ms / 1000, dt.UTC)
    q.enqueue_at(
        at,
        JOB_PATH,
        table_id,
        seq,
        job_id=job_id(table_id, seq),
        job_timeout=JOB_TIMEOUT,
        result_ttl=RESULT_TTL,
        failure_ttl=7 * 86400,
    )
