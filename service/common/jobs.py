"""What every RQ queue of ours shares (the verifications', the pars', the analyses'): where a job
is, as the reconciler and the analyses' asker see it (waiting, running, lost with a dead worker,
ended), and how a job is deleted whatever state a killed worker left it in. Flask-free."""

from __future__ import annotations

import enum
import os
import socket
from typing import Final

import redis
from rq import Queue, Worker
from rq.job import Job, JobStatus

from service.common import keys

# A busy worker heartbeats every job-monitoring interval (rq's default: 30 s); one silent for
# longer than this is dead even when its key has not expired yet (another host's worker).
WORKER_SILENCE_S: Final = 75
# A worker moves a job into the intermediate queue and starts it in the same breath.
INTERMEDIATE_GRACE_S: Final = 5


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


def discard(q: Queue, job: Job) -> None:
    """Delete ``job`` whatever state its worker left it in. RQ's ``Job.delete`` reads each of the
    job's executions and raises "Execution … not found" once an execution's hash has expired
    while its registries still name it (a worker killed mid-job: the hash lives the heartbeat's
    TTL, the registry entries a minute longer); those dangling entries are dropped first."""
    for _ in range(2):  # an execution may expire between the look and the delete: look again
        _drop_dangling_executions(q.connection, job)
        try:
            with q.connection.pipeline() as pipe:
                job.delete(pipeline=pipe)
                pipe.lrem(q.intermediate_queue_key, 0, job.id)
                pipe.delete(keys.parked(job.id))
                pipe.execute()
            return
        except ValueError:  # RQ's "Execution … not found in Redis"
            continue


def _drop_dangling_executions(connection: redis.Redis[bytes], job: Job) -> None:
    """Drop the entries of ``job``'s execution and started registries whose execution is gone."""
    registry = job.execution_registry
    started = job.started_job_registry
    for raw in connection.zrange(registry.key, 0, -1):
        execution_id = raw.decode() if isinstance(raw, bytes) else str(raw)
        composite = f"{job.id}:{execution_id}"
        if not connection.exists(f"rq:execution:{composite}"):
            with connection.pipeline(transaction=False) as pipe:
                pipe.zrem(registry.key, execution_id)
                pipe.zrem(started.key, composite)
                pipe.execute()
