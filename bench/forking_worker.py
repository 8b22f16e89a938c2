"""The reference for bench/bench_verify.py: the deployed worker as it was, forking a work horse
per verification (``rq worker -w bench.forking_worker.ForkingSteadyWorker``)."""

from __future__ import annotations

from rq import Queue, Worker
from rq.job import Job

from worker import jobs
from worker.steady import REDIS_ERRORS, SteadyWorker


class ForkingSteadyWorker(SteadyWorker):
    """SteadyWorker with RQ's forking ``execute_job`` for the verification queue."""

    def execute_job(self, job: Job, queue: Queue) -> None:
        try:
            if queue.name == jobs.context().settings.table_queue:
                self.execute_in_process(job, queue)
            else:
                Worker.execute_job(self, job, queue)
        except REDIS_ERRORS as e:
            self.log.warning("Worker %s: Redis lost during job %s: %s", self.name, job.id, e)
            self.wait_for_redis()
            self.fail_unfinished(job, queue)
