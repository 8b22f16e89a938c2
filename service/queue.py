"""Enqueueing verification jobs: by dotted path, plain ids, JSON, one deterministic job id.

Flask-free (the reconciler uses it too). RQ needs a bytes connection, separate from the text one.
"""

from __future__ import annotations

import os
from typing import Final

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

JOB_PATH: Final = "worker.jobs.verify_attempt"
JOB_TIMEOUT: Final = 120  # seconds; a verification takes well under one
RETRY_INTERVALS: Final = "5,30,120"  # seconds; retries with a delay need `--with-scheduler`
# A successful job and its result (an RQ stream, ~4.7 KB, plus the job hash, ~1.6 KB) are kept
# ten minutes, not a day: the verdict lives in the attempt's hash, and a day of them was half of
# Redis' memory per verified attempt (bench/results/memory.md). Failures stay a week.
RESULT_TTL: Final = 600
WAITING: Final = {JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED}


def job_id(attempt_id: str) -> str:
    return f"verify-{attempt_id}"  # RQ ids allow letters, digits, _ and - only


def retry_policy() -> Retry:
    """Back-off between attempts of a failing job (PIKDAME_RETRY_INTERVALS, comma-separated)."""
    text = os.environ.get("PIKDAME_RETRY_INTERVALS", RETRY_INTERVALS)
    intervals = [int(part) for part in text.split(",") if part.strip()]
    return Retry(max=len(intervals), interval=intervals)


def queue(url: str, name: str) -> Queue:
    connection = redis.Redis.from_url(url)
    return Queue(name, connection=connection, serializer=JSONSerializer)


def enqueue_verify(q: Queue, attempt_id: str) -> bool:
    """Queue the attempt's verification once; False when its job already exists."""
    try:
        q.enqueue_call(
            JOB_PATH,
            args=(attempt_id,),
            job_id=job_id(attempt_id),
            timeout=JOB_TIMEOUT,
            retry=retry_policy(),
            result_ttl=RESULT_TTL,
            failure_ttl=7 * 86400,
            unique=True,
        )
    except DuplicateJobError:
        return False
    return True


def requeue_verify(q: Queue, attempt_id: str) -> bool:
    """The reconciler's enqueue: replace a job that is not waiting to run (lost with a killed
    worker, failed, or finished without a verdict); leave a waiting one alone."""
    try:
        job = Job.fetch(job_id(attempt_id), connection=q.connection, serializer=JSONSerializer)
    except NoSuchJobError:
        return enqueue_verify(q, attempt_id)
    if job.get_status(refresh=True) in WAITING:
        return False
    job.delete()
    return enqueue_verify(q, attempt_id)
