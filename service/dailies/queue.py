"""Verification jobs: enqueued by dotted path with plain ids as JSON under one deterministic job
id, and classified for the reconciler (waiting, running, lost with a dead worker, ended).

RQ needs a bytes connection, separate from the text one.
"""

from __future__ import annotations

from typing import Final

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job
from rq.serializers import JSONSerializer

from service.common.jobs import discard
from service.dailies import par

JOB_PATH: Final = "worker.jobs.verify_attempt"
PAR_PATH: Final = "worker.jobs.compute_par"
JOB_TIMEOUT: Final = 120  # seconds; a verification takes well under one
# A successful job and its result (an RQ stream, ~4.7 KB, plus the job hash, ~1.6 KB) are kept
# ten minutes, not a day: the verdict lives in the attempt's hash, and a day of them was half of
# Redis' memory per verified attempt (bench/results/memory.md). Failures stay a week.
RESULT_TTL: Final = 600


def job_id(attempt_id: str) -> str:
    return f"verify-{attempt_id}"  # RQ ids allow letters, digits, _ and - only


class VerifyQueue(Queue):
    """The verification queue with its retry back-off (PIKDAME_RETRY_INTERVALS, seconds;
    retries with a delay need a worker started ``--with-scheduler``)."""

    retry_intervals: tuple[int, ...] = (5, 30, 120)

    def retry_policy(self) -> Retry:
        return Retry(max=len(self.retry_intervals), interval=list(self.retry_intervals))


def queue(url: str, name: str, retry_intervals: tuple[int, ...] | None = None) -> VerifyQueue:
    return queue_on(redis.Redis.from_url(url), name, retry_intervals)


def queue_on(
    connection: redis.Redis[bytes], name: str, retry_intervals: tuple[int, ...] | None = None
) -> VerifyQueue:
    """The queue on a bytes-mode client (service.common.connect: directly or through Sentinel)."""
    q = VerifyQueue(name, connection=connection, serializer=JSONSerializer)
    if retry_intervals is not None:
        q.retry_intervals = retry_intervals
    return q


def _enqueue_once(q: VerifyQueue, path: str, arg: str, job: str) -> bool:
    """Queue ``path(arg)`` under the deterministic id ``job``; False when that job exists."""
    try:
        q.enqueue_call(
            path,
            args=(arg,),
            job_id=job,
            timeout=JOB_TIMEOUT,
            retry=q.retry_policy(),
            result_ttl=RESULT_TTL,
            failure_ttl=7 * 86400,
            unique=True,
        )
    except DuplicateJobError:
        return False
    return True


def enqueue_verify(q: VerifyQueue, attempt_id: str) -> bool:
    """Queue the attempt's verification once; False when its job already exists."""
    return _enqueue_once(q, JOB_PATH, attempt_id, job_id(attempt_id))


def enqueue_par(q: VerifyQueue, date: str) -> bool:
    """Queue the day's bot par once (service.dailies.par); False when its job already exists."""
    return _enqueue_once(q, PAR_PATH, date, par.job_id(date))


def fetch(q: Queue, attempt_id: str) -> Job | None:
    return fetch_job(q, job_id(attempt_id))


def fetch_job(q: Queue, job: str) -> Job | None:
    """The job of id ``job`` (a verification's or a par's), or None."""
    try:
        return Job.fetch(job, connection=q.connection, serializer=JSONSerializer)
    except NoSuchJobError:
        return None


def _drop(q: VerifyQueue, job: Job | None) -> None:
    if job is not None:
        discard(q, job)


def requeue_verify(q: VerifyQueue, attempt_id: str) -> bool:
    """Replace the attempt's job with a fresh one (the job is idempotent, so a job that was
    in fact still running changes nothing by running twice)."""
    _drop(q, fetch(q, attempt_id))
    return enqueue_verify(q, attempt_id)


def requeue_par(q: VerifyQueue, date: str) -> bool:
    """Replace the day's par job with a fresh one (idempotent like the verification's)."""
    _drop(q, fetch_job(q, par.job_id(date)))
    return enqueue_par(q, date)
