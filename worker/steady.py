"""The verification worker: RQ's forking worker that rides out a Redis outage and reconciles.

Stock ``rq worker`` quits on the first ``ConnectionError`` outside its dequeue loop (a busy
worker's heartbeat, the suspension check, maintenance): a four-second Redis blip took every busy
worker down (issue 10.2). This worker waits for Redis instead, with back-off, and fails a job
whose end it could not record, so RQ's retry runs it again.

At every maintenance tick (and at start) it also runs the reconciler for lost jobs (issue 10.1),
so a job stranded by a killed worker is queued again within one tick of a worker being back.
"""

from __future__ import annotations

import os
import time
from typing import Any

import redis
from rq import Queue, Worker
from rq.job import Job, JobStatus

from service.data import keys
from service.data.reconcile import reconcile, reconcile_par
from worker import jobs

REDIS_ERRORS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
BACKOFF_MAX_S = 30.0


class SteadyWorker(Worker):
    """``rq worker -w worker.steady.SteadyWorker``: see the module docstring."""

    def bootstrap(self, *args: Any, **kwargs: Any) -> None:
        # service.data.queue tells this worker from a dead one that had the same pid
        os.environ["RQ_WORKER_ID"] = self.name
        super().bootstrap(*args, **kwargs)

    def wait_for_redis(self) -> None:
        """Block until Redis answers again (or a stop is requested), backing off to 30 s."""
        pause = 1.0
        while not self._stop_requested:
            try:
                self.connection.ping()
                self.log.info("Worker %s: Redis is back", self.name)
                return
            except REDIS_ERRORS as e:
                self.log.warning(
                    "Worker %s: Redis unreachable (%s), retry in %.0f s", self.name, e, pause
                )
                time.sleep(pause)
                pause = min(pause * 2, BACKOFF_MAX_S)

    def heartbeat(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().heartbeat(*args, **kwargs)
        except REDIS_ERRORS as e:  # the next Redis call waits; a missed beat costs nothing
            self.log.warning("Worker %s: heartbeat failed: %s", self.name, e)

    def maintain_heartbeats(self, job: Job, execution: Any) -> None:
        """While the work horse runs: a failed beat must not abandon the horse unmonitored."""
        try:
            super().maintain_heartbeats(job, execution)
        except REDIS_ERRORS as e:
            self.log.warning("Worker %s: heartbeat of job %s failed: %s", self.name, job.id, e)

    def check_for_suspension(self, burst: bool) -> None:
        try:
            super().check_for_suspension(burst)
        except REDIS_ERRORS:
            self.wait_for_redis()

    def run_maintenance_tasks(self) -> None:
        try:
            super().run_maintenance_tasks()  # type: ignore[no-untyped-call]
            self.reconcile()
        except REDIS_ERRORS:
            self.wait_for_redis()

    def reconcile(self) -> None:
        """Queue again the verifications and par jobs lost with a dead worker (failed ones are
        left to the ``pikdame reconcile`` timer, so a job that keeps failing does not run every
        tick)."""
        ctx = jobs.context()
        tick = self.maintenance_interval
        if not ctx.client.set(keys.RECONCILE_LOCK, self.name, nx=True, ex=tick):
            return  # another worker reconciled this tick
        now_ms = int(time.time() * 1000)
        lost = reconcile(ctx.client, ctx.queue, now_ms, 0, retry_failed=False)
        if lost:
            self.log.warning("Worker %s: requeued lost verifications %s", self.name, lost)
        days = reconcile_par(ctx.client, ctx.rankings, ctx.queue, retry_failed=False)
        if days:
            self.log.warning("Worker %s: requeued lost par jobs of %s", self.name, days)

    def execute_job(self, job: Job, queue: Queue) -> None:
        try:
            super().execute_job(job, queue)
        except REDIS_ERRORS as e:
            self.log.warning("Worker %s: Redis lost during job %s: %s", self.name, job.id, e)
            self.wait_for_redis()
            self.fail_unfinished(job, queue)

    def fail_unfinished(self, job: Job, queue: Queue) -> None:
        """After an outage: a job whose end was not recorded is failed, so RQ retries it (or the
        ``pikdame reconcile`` timer does, once its retries are spent); the job is idempotent."""
        self.executions.clear()
        self._horse_pid = 0
        try:
            if job.get_status(refresh=True) in (JobStatus.FINISHED, JobStatus.FAILED):
                return
            self.handle_job_failure(job, queue, exc_string="Redis outage during the job")
        except REDIS_ERRORS:
            self.wait_for_redis()
