"""The tables' bot turns that run off the request (docs/TABLES.md "Bots off the request"): a bot
whose level its game declares ``deferred`` (the Meister: up to about 1.5 s of CPU a decision)
never moves inside a web request. A change that leaves such a bot to move stops there
(``Table.bot_due_ms``), and a job on the bots' own queue (``PIKDAME_BOT_QUEUE``, served only by
the bots workers, worker.bots) plays one step: the due bot's move and the other bots' answers,
committed as one change (service.tables.store.play_bots), so every step reaches the table's
streams as it is made; while a deferred bot is due again it queues the next step's job, at the
back of the queue, so the tables' bots take turns, until a human is to act.

One job per (table, seq), by a deterministic id: a job whose seq has moved on does nothing, and
the table's WATCHed write lets each step through once, so a job queued twice, or queued again
after its worker died, plays every bot move exactly once. A job lost altogether (a worker killed
mid-job, a web process killed before queueing it) is found from the game state's side: the index
``keys.TABLE_BOTS``, swept by service.reconcile.reconcile_bots in the bots workers.

Enqueued by dotted path with plain ids as JSON, like the turn timers (service.tables.timers).
"""

from __future__ import annotations

import contextlib
from typing import Final

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job
from rq.serializers import JSONSerializer

from service.common import jobs, keys

JOB_PATH: Final = "worker.jobs.table_bots"
#: Seconds: one step (a deferred decision is bounded by its engine's counted budget, about 1.5 s
#: of CPU at most; the step's fast bots are milliseconds).
JOB_TIMEOUT: Final = 60
RESULT_TTL: Final = 60
FAILURE_TTL: Final = 7 * 86400
#: A due bot turn whose job has not moved the table for this long (ms, the app's clock) is looked
#: at by the sweep: its job queued again when it is missing, lost with a dead worker or ended.
#: Each step renews the table's mark, so a queue that moves is never taken for a lost job.
OVERDUE_MS: Final = 15_000
BATCH: Final = 500  # due bot turns looked at per sweep at most


def job_id(table_id: str, seq: int) -> str:
    """Names the table and the seq the bots move from (RQ ids: letters, digits, _ and -)."""
    return f"bots-{table_id}-{seq}"


def queue_on(connection: redis.Redis[bytes], name: str) -> Queue:
    """The bots' queue on the queue's server (bytes mode: RQ's own)."""
    return Queue(name, connection=connection, serializer=JSONSerializer)


def enqueue(q: Queue, table_id: str, seq: int) -> None:
    """Queue the bots' job of ``(table_id, seq)`` now, unless it waits already (a second ask
    queues nothing; one that ran or ran twice plays nothing twice: the table's seq)."""
    with contextlib.suppress(DuplicateJobError):
        q.enqueue_call(
            JOB_PATH,
            args=(table_id, seq),
            job_id=job_id(table_id, seq),
            timeout=JOB_TIMEOUT,
            result_ttl=RESULT_TTL,
            failure_ttl=FAILURE_TTL,
            unique=True,
        )


def fetch(q: Queue, table_id: str, seq: int) -> Job | None:
    try:
        return Job.fetch(job_id(table_id, seq), connection=q.connection, serializer=JSONSerializer)
    except NoSuchJobError:
        return None


def requeue(q: Queue, table_id: str, seq: int) -> None:
    """Replace the job of ``(table_id, seq)`` with one queued now, wherever the old one was left
    (lost with a killed worker, failed, never queued): the job is idempotent."""
    old = fetch(q, table_id, seq)
    if old is not None:
        jobs.discard(q, old)  # whatever state a killed worker left it in
    name = job_id(table_id, seq)
    with q.connection.pipeline() as pipe:
        pipe.lrem(q.intermediate_queue_key, 0, name)
        pipe.delete(keys.parked(name))
        pipe.execute()
    enqueue(q, table_id, seq)
