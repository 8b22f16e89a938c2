"""Verification jobs: enqueued by dotted path with plain ids as JSON under one deterministic job
id, and classified for the reconciler (waiting, running, lost with a dead worker, ended).

RQ needs a bytes connection, separate from the text one.
"""

from __future__ import annotations

import enum
import os
import socket
from typing import Final

import redis
from rq import Queue, Retry, Worker
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from service.common import keys
from service.dailies import par

JOB_PATH: Final = "worker.jobs.verify_attempt"
PAR_PATH: Final = "worker.jobs.compute_par"
JOB_TIMEOUT: Final = 120  # seconds; a verification takes well under one
# A successful job and its result (an RQ stream, ~4.7 KB, plus the job hash, ~1.6 KB) are kept
# ten minutes, not a day: the verdict lives in the attempt's hash, and a day of them was half of
# Redis' memory per verified attempt (bench/results/memory.md). Failures stay a week.
RESULT_TTL: Final = 600
# A busy worker heartbeats every job-monitoring interval (rq's default: 30 s); one silent for
# longer than this is dead even when its key has not expired yet (another host's worker).
WORKER_SILENCE_S: Final = 75
# A worker moves a job into the intermediate queue and starts it in the same breath.
INTERMEDIATE_GRACE_S: Final = 5


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


class JobState(enum.Enum):
    """Where a verification job is, as the reconciler sees it."""

    MISSING = "missing"  # no job: never queued, or expired
    WAITING = "waiting"  # in the queue's list, or scheduled for a retry
    RUNNING = "running"  # started by a worker that is alive
    LOST = "lost"  # held by a worker that died: in RQ's intermediate queue, or started
    ENDED = "ended"  # failed, stopped, canceled, or finished without leaving a verdict


def _worker_alive(connection: redis.Redis[bytes], name: str, now_s: float) -> bool:
    """A worker is dead once its key expired, its process is gone from this host, or its
    heartbeat (every JOB_MONITORING_INTERVAL while busy) is overdue."""
    worker = Worker.find_by_key(Worker.redis_worker_namespace_prefix + name, connection=connection)
    if worker is None or worker.death_date is not None:
        return False
    if worker.hostname == socket.gethostname() and worker.pid is not None:
        if worker.pid == os.getpid():  # a restarted worker that got its predecessor's pid
            return name == current_worker_name()
        try:
            os.kill(worker.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass  # someone else's process: alive
    beat = worker.last_heartbeat
    return beat is not None and now_s - beat.timestamp() < WORKER_SILENCE_S


def current_worker_name() -> str | None:
    """The name of the RQ worker this process runs (rq sets RQ_WORKER_ID in its work horses;
    :mod:`worker.steady` sets it in the worker itself)."""
    return os.environ.get("RQ_WORKER_ID")


def job_state(q: Queue, job: Job | None, now_s: float) -> JobState:
    """Classify a verification job. A job moved into RQ's intermediate queue by a worker that
    died before starting it stays ``queued`` for good: it counts as lost once it has sat there
    longer than INTERMEDIATE_GRACE_S (a live worker starts it within milliseconds)."""
    if job is None:
        return JobState.MISSING
    status = job.get_status(refresh=True)
    connection = q.connection
    if status in (JobStatus.SCHEDULED, JobStatus.DEFERRED):
        return JobState.WAITING
    if status == JobStatus.QUEUED:
        if connection.lpos(q.key, job.id) is not None:
            return JobState.WAITING
        mark = keys.parked(job.id)
        connection.set(mark, str(now_s), nx=True, ex=600)
        first_seen = float(connection.get(mark) or now_s)
        return JobState.LOST if now_s - first_seen >= INTERMEDIATE_GRACE_S else JobState.WAITING
    if status == JobStatus.STARTED:
        alive = job.worker_name and _worker_alive(connection, job.worker_name, now_s)
        return JobState.RUNNING if alive else JobState.LOST
    return JobState.ENDED


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
        with q.connection.pipeline() as pipe:
            job.delete(pipeline=pipe)
            pipe.lrem(q.intermediate_queue_key, 0, job.id)
            pipe.delete(keys.parked(job.id))
            pipe.execute()


def requeue_verify(q: VerifyQueue, attempt_id: str) -> bool:
    """Replace the attempt's job with a fresh one (the job is idempotent, so a job that was
    in fact still running changes nothing by running twice)."""
    _drop(q, fetch(q, attempt_id))
    return enqueue_verify(q, attempt_id)


def requeue_par(q: VerifyQueue, date: str) -> bool:
    """Replace the day's par job with a fresh one (idempotent like the verification's)."""
    _drop(q, fetch_job(q, par.job_id(date)))
    return enqueue_par(q, date)
