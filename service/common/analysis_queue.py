"""The analyses' own queue (docs/ANALYSIS.md): one RQ job per analysis, by a deterministic id, on
a queue of its own served only by the analysis workers (worker.analysis), so turn timers and
verifications never wait behind them. Shared by the daily attempts' analyses
(service.dailies.analyses) and the tables' (service.tables.analyses); Flask-free.

A job that failed (an error, or its hard timeout) is answered once (``failed``: the route's 503
``analysis_failed``) and forgotten, so the next ask queues it again: a failure is retried by
asking, never served twice. A job that was killed (its worker died under it, or its work horse
was killed) did not fail: the next ask queues it again and answers ``queued``, up to
``KILLS_MAX`` times in a row (a job that kills its process every time then fails as above).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any, Final, Literal

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from service.common.jobs import JobState, discard, job_state

RESULT_TTL: Final = 600  # the document lives in its own key, not in the job's result
FAILURE_TTL: Final = 86400
#: The hard timeout of every analysis job, seconds of wall time: a backstop for a job that hangs.
#: What bounds an analysis is its CPU budget (PIKDAME_ANALYSIS_CPU_S, enforced in the work horse
#: by worker.analysis whatever the machine's load; the engine's own is at most 10 s of CPU in the
#: ``view`` mode, whatever the round's length: docs/ANALYSIS.md).
JOB_TIMEOUT: Final = 300
#: How often a killed job is queued again (counted in the job's meta) before it counts as failed.
KILLS_MAX: Final = 3
#: What RQ writes into a job that did not end by itself: a worker that died under it
#: (StartedJobRegistry.cleanup) or a work horse killed by a signal (monitor_work_horse).
KILLED_MARKS: Final = ("AbandonedJobError", "Work-horse terminated unexpectedly")

Asked = Literal["queued", "failed"]


def queue_on(connection: redis.Redis[bytes], name: str) -> Queue:
    """The analyses' queue on a bytes-mode client (JSON jobs, like the verification's)."""
    return Queue(name, connection=connection, serializer=JSONSerializer)


def safe_id(*parts: str) -> str:
    """A job id from ``parts``: RQ ids allow letters, digits, _ and -."""
    return "-".join("".join(c if c.isalnum() else "_" for c in p) for p in parts)


def ask(
    q: Queue,
    path: str,
    args: tuple[Any, ...],
    job_id: str,
    timeout: int = JOB_TIMEOUT,
    admit: Callable[[], None] | None = None,
) -> Asked:
    """Queue the job ``job_id`` once (a second ask while it waits or runs queues nothing):
    ``queued``; or ``failed`` when its last run failed, the failed job then deleted so the next
    ask queues it anew. A job lost with a killed worker or work horse is queued again.
    ``admit()`` is called before a job is queued for a caller (not for a job that waits, runs or
    is queued again after a kill): the per-caller limit, which raises to refuse."""
    job = fetch(q, job_id)
    kills = 0
    if job is not None:
        state = job_state(q, job, time.time())
        if state in (JobState.WAITING, JobState.RUNNING):
            return "queued"
        failed = state == JobState.ENDED and job.get_status(refresh=False) == JobStatus.FAILED
        if state == JobState.LOST or (failed and killed(job)):
            kills = int(job.meta.get("kills", 0)) + 1
            failed = kills > KILLS_MAX
        discard(q, job)  # failed, lost, killed, or ended without a document
        if failed:
            return "failed"
    elif admit is not None:
        admit()
    with contextlib.suppress(DuplicateJobError):  # another ask queued it just now
        q.enqueue_call(
            path,
            args=args,
            job_id=job_id,
            timeout=timeout,
            result_ttl=RESULT_TTL,
            failure_ttl=FAILURE_TTL,
            unique=True,
            meta={"kills": kills} if kills else None,
        )
    return "queued"


def fetch(q: Queue, job_id: str) -> Job | None:
    try:
        return Job.fetch(job_id, connection=q.connection, serializer=JSONSerializer)
    except NoSuchJobError:
        return None


def killed(job: Job) -> bool:
    """Whether the failed ``job`` was ended from outside (RQ's marks, KILLED_MARKS), not by its
    own error or its timeout."""
    result = job.latest_result()
    text = (result.exc_string if result is not None else None) or ""
    return any(mark in text for mark in KILLED_MARKS)
