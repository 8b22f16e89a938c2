"""The analysis worker: ``rq worker -w worker.analysis.AnalysisWorker`` on the analyses' queue
alone (worker.analysis_settings), so turn timers and verifications, served by the steady workers
(worker.steady, worker.settings) that never listen to it, never wait behind an analysis
(docs/ANALYSIS.md, issue 38).

An analysis runs for seconds, not milliseconds: unlike the steady worker's jobs it runs in a work
horse forked per job (RQ's Worker), so that

- the worker beats while the job runs: every ``--job-monitoring-interval``
  (service.commands.ANALYSIS_BEAT_S) the worker,
  the job's execution and its entry in the started registry get a fresh heartbeat, and a long
  job is never taken for one abandoned by a dead worker;
- the CPU budget holds whatever the machine's load: the horse's ``RLIMIT_CPU`` is the budget
  (PIKDAME_ANALYSIS_CPU_S): at it the job raises AnalysisOverBudget and fails, a few seconds
  later the kernel kills the horse; and the wall-clock timeout (JOB_TIMEOUT) ends a job that
  hangs, the worker killing a horse that outlives it;
- the horse dies with its worker (PR_SET_PDEATHSIG): after ``kill -9`` of the worker no orphan
  computes on, and the job, left started under a dead worker, is queued again by the next ask
  (service.common.analysis_queue.ask).

It inherits the steady worker's riding out of Redis outages, and none of its sweeps (the
tables' timers, the lobby, the reconciler of verifications): those are the steady workers'.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import resource
import signal
from types import FrameType
from typing import Any

from rq import Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.queue import Queue

from service.common import metrics
from service.errors import AnalysisOverBudget
from worker.jobs import context
from worker.steady import REDIS_ERRORS, SteadyWorker

PR_SET_PDEATHSIG = 1
#: The analysis worker's (and its horses') scheduling priority: on a busy core the steady
#: workers, the web and the streams run first (deploy/ adds a low CPU weight for the unit).
NICENESS = 10
#: Seconds of CPU past the budget before the kernel kills a horse that did not stop.
HARD_EXTRA_S = 5


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent (the worker) dies; elsewhere nothing."""
    name = ctypes.util.find_library("c")
    if name is None:
        return
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return


def over_budget(signum: int, frame: FrameType | None) -> None:
    """Once: the kernel sends SIGXCPU every second past the budget, and a second raise would
    break RQ's recording of the failure."""
    signal.signal(signal.SIGXCPU, signal.SIG_IGN)
    raise AnalysisOverBudget("the analysis used up its CPU budget (PIKDAME_ANALYSIS_CPU_S)")


def cpu_budget(seconds: int) -> None:
    """This process (a fresh work horse) may use ``seconds`` of CPU: then SIGXCPU raises
    AnalysisOverBudget in the job; the kernel kills it HARD_EXTRA_S later should it not stop."""
    signal.signal(signal.SIGXCPU, over_budget)
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + HARD_EXTRA_S))


def count_ended(job: Job) -> None:
    """The ended job in this worker's metrics (docs/METRICS.md): the horse that ran it is gone
    with its own counts, so the worker reads the job's status and times from Redis."""
    try:
        job.refresh()  # type: ignore[no-untyped-call]
    except (*REDIS_ERRORS, NoSuchJobError):
        return
    status = job.get_status(refresh=False)
    if status not in (JobStatus.FINISHED, JobStatus.FAILED):
        return
    metrics.ANALYSES.labels(str(status.value)).inc()
    if job.started_at is not None and job.ended_at is not None:
        metrics.ANALYSIS_DURATION.observe(max(0.0, (job.ended_at - job.started_at).total_seconds()))


class AnalysisWorker(SteadyWorker):
    """See the module docstring."""

    def bootstrap(self, *args: Any, **kwargs: Any) -> None:
        with contextlib.suppress(OSError):
            os.nice(NICENESS - os.nice(0))
        super().bootstrap(*args, **kwargs)

    def start_scheduler(self, *args: Any, **kwargs: Any) -> None:
        """No scheduler, even with ``--with-scheduler``: an analysis is never scheduled or retried
        by delay."""

    def execute_job(self, job: Job, queue: Queue) -> None:
        """RQ's forking execution (a horse per job, beaten for by this process)."""
        try:
            Worker.execute_job(self, job, queue)
        except REDIS_ERRORS as e:
            self.log.warning("Worker %s: Redis lost during job %s: %s", self.name, job.id, e)
            self.wait_for_redis()
            self.fail_unfinished(job, queue)
            return
        count_ended(job)

    def main_work_horse(self, job: Job, queue: Queue) -> None:
        die_with_parent()
        cpu_budget(context().settings.analysis_cpu_s)
        super().main_work_horse(job, queue)

    @property
    def dequeue_timeout(self) -> int:
        """RQ's: an analysis worker has nothing to sweep between jobs."""
        return int(Worker.dequeue_timeout.fget(self))  # type: ignore[attr-defined]

    @property
    def should_run_maintenance_tasks(self) -> bool:
        return bool(Worker.should_run_maintenance_tasks.fget(self))  # type: ignore[attr-defined]

    def run_maintenance_tasks(self) -> None:
        """RQ's own (its registries of the analyses' queue), and nothing of the steady worker's."""
        try:
            Worker.run_maintenance_tasks(self)  # type: ignore[no-untyped-call]
        except REDIS_ERRORS:
            self.wait_for_redis()
