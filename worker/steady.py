"""The verification worker: RQ's worker, running each job in its own warm process (as RQ's
SimpleWorker does, job timeout by alarm signal), that rides out a Redis outage and reconciles.

Stock ``rq worker`` quits on the first ``ConnectionError`` outside its dequeue loop (a busy
worker's heartbeat, the suspension check, maintenance): a four-second Redis blip took every busy
worker down. This worker waits for Redis instead, with back-off, and fails a job
whose end it could not record, so RQ's retry runs it again.

At every maintenance tick (and at start) it also runs the reconciler for lost jobs,
so a job stranded by a killed worker is queued again within one tick of a worker being back.
Every ``SWEEP_S`` (its blocking wait for work is that short) it sweeps the tables' turn timers:
an overdue turn whose timer job was lost is queued again (service.reconcile), so no table
is stranded for more than a few seconds once a worker runs.

Its scheduler (``--with-scheduler``) is ``TimerScheduler``: RQ's, plus the tables' turn timers
every ``timers.TICK_S`` (RQ's own tick is a second; a turn timer is due within 1 s).

Built on RQ's public API only (rq 3.0, pinned in pyproject.toml): it overrides public methods of
RQ's Worker and RQScheduler with RQ's own signatures and no private one, and touches one private
attribute, ``Worker._horse_pid`` (see ``fail_unfinished``). tests/test_rq_api.py holds it to
that in milliseconds, so an RQ release that changes what it builds on fails before any worker
runs.
"""

from __future__ import annotations

import gc
import os
import signal
import time
from types import FrameType
from typing import Any

import redis
from rq import Queue, Worker
from rq.defaults import DEFAULT_LOGGING_DATE_FORMAT, DEFAULT_LOGGING_FORMAT
from rq.job import Job, JobStatus
from rq.scheduler import RQScheduler
from rq.utils import now as rq_now
from rq.worker import DequeueStrategy, WorkerStatus

from service.common import clock, keys, metrics
from service.lobby import sweep as lobby
from service.reconcile import reconcile, reconcile_par, reconcile_timers
from service.tables import timers
from worker import jobs

REDIS_ERRORS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
BACKOFF_MAX_S = 30.0
# How often a worker sweeps the turn timers (and so the longest its blocking dequeue waits).
SWEEP_S = 3
# The shortest time between two of the worker's plain heartbeats (SteadyWorker.heartbeat).
BEAT_EVERY_S = 1.0
# The shortest time between two looks whether ``rq suspend`` suspended the workers
# (SteadyWorker.check_for_suspension).
SUSPENSION_EVERY_S = 1.0
# How long the worker's pub/sub thread waits for a message before it looks whether to stop.
PUBSUB_WAIT_S = 1.0
# How many allocations of containers between two collections of the youngest generation
# (CPython's default is 700).
GC_YOUNG = 10_000


def tune_collector() -> None:
    """The collector, tuned for a process that replays records all day; called once start-up has
    imported everything (worker.settings). What start-up built (the engines and their tables, RQ,
    the settings) lives as long as the process: ``gc.freeze`` moves it out of the collector's
    generations, so no full collection scans it again. A job allocates many small containers
    that die young: the youngest generation is collected every ``GC_YOUNG`` allocations.
    In an A/B of the deployed worker, about a tenth less CPU a job
    (bench/results/notes/verify_ab.md)."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 10, 10)


class TimerScheduler(RQScheduler):
    """RQ's scheduler (locks, heartbeat and its whole-second registry once per ``interval``)
    that also moves due turn timers (service.tables.timers) every ``timers.TICK_S``.

    Only the queues whose scheduler lock it holds: one scheduler per queue at a time, so a
    timer is moved once. Redis errors end the process as in RQ; the worker starts it again.
    """

    stopping: bool = False  # a stop was asked for (SIGTERM from the worker, or SIGINT)

    def enqueue_due_timers(self) -> None:
        for name in sorted(self.acquired_locks):
            q = Queue(name, connection=self.connection, serializer=self.serializer)
            timers.enqueue_due(q)

    def request_stop(self, signum: int | None = None, frame: FrameType | None = None) -> None:
        """RQ's, remembered where ``work`` can read it (RQ's own flag is private)."""
        self.stopping = True
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]

    def work(self) -> None:
        """RQScheduler.work with a finer tick: RQ's steps (locks, heartbeat, its whole-second
        registry) once per ``interval``, the turn timers every ``timers.TICK_S``."""
        signal.signal(signal.SIGINT, self.request_stop)
        signal.signal(signal.SIGTERM, self.request_stop)
        self.register_birth()
        next_beat = 0.0
        while not self.stopping:
            if time.monotonic() >= next_beat:
                if self.should_reacquire_locks:
                    self.acquire_locks()  # type: ignore[no-untyped-call]
                self.heartbeat()  # type: ignore[no-untyped-call]
                self.enqueue_scheduled_jobs()  # type: ignore[no-untyped-call]
                next_beat = time.monotonic() + self.interval
            self.enqueue_due_timers()
            time.sleep(timers.TICK_S)
        self.stop()  # type: ignore[no-untyped-call]


class SteadyWorker(Worker):
    """``rq worker -w worker.steady.SteadyWorker``: see the module docstring."""

    next_beat: float = 0.0  # when a plain heartbeat is sent again (time.monotonic)
    next_suspension_check: float = 0.0  # when the worker looks again whether it is suspended
    idle_with_success: bool = False  # the job's success transaction also wrote "idle"
    next_sweep: float = 0.0  # when the turn timers and the lobby are swept again
    written_state: str | None = None  # the state this worker last wrote to its key
    scheduler_burst: bool | None = None  # with a scheduler: whether it works in burst mode
    stopping: bool = False  # a warm stop was asked for (SIGINT, SIGTERM, ``rq shutdown``)

    def work(
        self,
        burst: bool = False,
        logging_level: str | None = None,
        date_format: str = DEFAULT_LOGGING_DATE_FORMAT,
        log_format: str = DEFAULT_LOGGING_FORMAT,
        max_jobs: int | None = None,
        max_idle_time: int | None = None,
        with_scheduler: bool = False,
        dequeue_strategy: DequeueStrategy = DequeueStrategy.DEFAULT,
    ) -> bool:
        """RQ's work loop, its scheduler (``with_scheduler``) a ``TimerScheduler``. RQ has no public
        way to choose the class of its worker's scheduler: RQ is asked for none, and ``bootstrap``,
        the loop's first step, right before RQ would start its own, starts this one."""
        self.scheduler_burst = burst if with_scheduler else None
        return super().work(
            burst,
            logging_level,
            date_format,
            log_format,
            max_jobs,
            max_idle_time,
            with_scheduler=False,
            dequeue_strategy=dequeue_strategy,
        )

    def bootstrap(
        self,
        logging_level: str | None = "INFO",
        date_format: str = DEFAULT_LOGGING_DATE_FORMAT,
        log_format: str = DEFAULT_LOGGING_FORMAT,
    ) -> None:
        # service.common.jobs tells this worker from a dead one that had the same pid
        os.environ["RQ_WORKER_ID"] = self.name
        super().bootstrap(logging_level, date_format, log_format)
        if self.scheduler_burst is not None:
            self.start_scheduler(self.scheduler_burst, logging_level, date_format, log_format)

    def start_scheduler(
        self,
        burst: bool,
        logging_level: str | None,
        date_format: str = DEFAULT_LOGGING_DATE_FORMAT,
        log_format: str = DEFAULT_LOGGING_FORMAT,
    ) -> None:
        """What RQ's worker does for ``with_scheduler`` (rq 3.0), with ``TimerScheduler``: the
        scheduler of the queues whose lock it gets runs in a process of its own, or, in burst
        mode, moves what is due once, here."""
        scheduler = self.scheduler = TimerScheduler(
            self.queues,
            connection=self.connection,
            logging_level=logging_level if logging_level is not None else self.log.level,
            date_format=date_format,
            log_format=log_format,
            serializer=self.serializer,
        )
        scheduler.acquire_locks()  # type: ignore[no-untyped-call]
        if not scheduler.acquired_locks:
            return
        if not burst:
            scheduler.start()  # type: ignore[no-untyped-call]
            return
        try:
            scheduler.register_birth()
            scheduler.enqueue_scheduled_jobs()  # type: ignore[no-untyped-call]
            scheduler.enqueue_due_timers()
        finally:
            scheduler.release_locks()  # type: ignore[no-untyped-call]
            scheduler.register_death()

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        """RQ's warm stop, remembered where ``wait_for_redis`` can read it (RQ's own flag is
        private)."""
        self.stopping = True
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]

    def kill_horse(self, sig: signal.Signals = signal.SIGKILL) -> None:
        """RQ's, only when there is a horse. This worker runs its jobs in its own process, so
        its horse pid is 0, and RQ's ``os.killpg(os.getpgid(0), sig)`` (a stop-job command for a
        running job) would kill the worker's own process group: under ``make run`` the
        supervisor and the web with it. A job without a horse is not interrupted; its timeout
        and the reconciler still end it."""
        if self.horse_pid == 0:
            self.log.warning("Worker %s: no work horse to stop; the job runs on", self.name)
            return
        super().kill_horse(sig)

    def subscribe(self) -> None:
        """RQ's (the channel of ``rq``'s commands to this worker), with a listening thread that
        looks every ``PUBSUB_WAIT_S`` whether to stop. RQ's thread waits 60 s, and redis-py joins
        it on the way out: when the reply to RQ's unsubscribe came before the stop, the thread
        went on waiting for a channel it no longer had, and the worker's exit took a minute."""
        self.log.info("Worker %s: subscribing to channel %s", self.name, self.pubsub_channel_name)
        self.pubsub = self.connection.pubsub()
        self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
        self.pubsub_thread = self.pubsub.run_in_thread(
            sleep_time=PUBSUB_WAIT_S,
            daemon=True,
            exception_handler=self.listening_failed,
        )

    def listening_failed(self, error: BaseException, pubsub: Any, thread: Any) -> None:
        """What RQ's (private) handler does when the listening thread fails: a lost connection is
        tried again in 2 s (redis-py subscribes again), anything else ends the thread."""
        if isinstance(error, redis.exceptions.ConnectionError):
            self.log.error(
                "Worker %s: could not connect to Redis instance: %s retrying in %d seconds...",
                self.name,
                error,
                2,
            )
            time.sleep(2.0)
            return
        self.log.warning("Worker %s: pubsub thread exiting on %s", self.name, error)
        raise error

    def wait_for_redis(self) -> None:
        """Block until Redis answers again (or a stop is requested), backing off to 30 s."""
        pause = 1.0
        while not self.stopping:
            try:
                self.connection.ping()
                self.log.info("Worker %s: Redis is back", self.name)
                return
            except REDIS_ERRORS as e:
                metrics.redis_retry("worker")
                self.log.warning(
                    "Worker %s: Redis unreachable (%s), retry in %.0f s", self.name, e, pause
                )
                time.sleep(pause)
                pause = min(pause * 2, BACKOFF_MAX_S)

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        """RQ's beat (the worker's ``last_heartbeat`` and its keys' lifetimes), at most once
        every ``BEAT_EVERY_S`` when RQ asks for a plain one, and then in one round trip.

        RQ beats before and after each dequeue and after each job, three commands each: about
        fifteen round trips a job at the reset hour, for keys that live ``worker_ttl`` + 60 s and
        a ``last_heartbeat`` read against ``WORKER_SILENCE_S`` (75 s). A beat with its own
        lifetime (a job's, before it runs) or inside RQ's pipeline is always sent."""
        if pipeline is not None:
            super().heartbeat(timeout, pipeline=pipeline)
            return
        at = time.monotonic()
        if timeout is None and at < self.next_beat:
            return
        try:
            with self.connection.pipeline(transaction=False) as beat:
                super().heartbeat(timeout, pipeline=beat)
                beat.execute()
            self.next_beat = at + BEAT_EVERY_S
        except REDIS_ERRORS as e:  # the next Redis call waits; a missed beat costs nothing
            metrics.redis_error("worker")
            self.log.warning("Worker %s: heartbeat failed: %s", self.name, e)

    def set_state(self, state: str, pipeline: Any = None) -> None:
        """RQ's, without writing again the state the worker's key already holds (RQ sets
        "idle" after each job and again before the next dequeue): RQ then sets it on a pipeline
        that is never sent, so the worker's ``get_state`` knows it and Redis is not asked."""
        if pipeline is None and state == self.written_state:
            with self.connection.pipeline(transaction=False) as unsent:
                super().set_state(state, pipeline=unsent)
            return
        super().set_state(state, pipeline=pipeline)
        self.written_state = state if pipeline is None else None

    def handle_execution_ended(self, job: Job, queue: Queue, heartbeat_ttl: int) -> None:
        """RQ's, but a job that returned and has no success callback to run next gets its last
        beat in memory only: the pipeline that records its success writes it (RQ saves every
        field of the job there), so the beat costs no round trip of its own. A failed job's
        (or one with a callback) is RQ's."""
        if job.get_status(refresh=False) == JobStatus.FAILED or job.success_callback is not None:
            super().handle_execution_ended(job, queue, heartbeat_ttl)
            return
        job.ended_at = job.last_heartbeat = rq_now()

    def maintain_heartbeats(self, job: Job, execution: Any) -> None:
        """While the work horse runs: a failed beat must not abandon the horse unmonitored."""
        try:
            super().maintain_heartbeats(job, execution)
        except REDIS_ERRORS as e:
            self.log.warning("Worker %s: heartbeat of job %s failed: %s", self.name, job.id, e)

    def check_for_suspension(self, burst: bool) -> None:
        """RQ's, at most once every ``SUSPENSION_EVERY_S``. RQ looks before every dequeue, in a
        transaction of its own with a beat (six commands a job at the reset hour); ``rq
        suspend`` now takes effect within a second, between two jobs as before."""
        if time.monotonic() < self.next_suspension_check:
            return
        try:
            super().check_for_suspension(burst)
            self.next_suspension_check = time.monotonic() + SUSPENSION_EVERY_S
        except REDIS_ERRORS:
            metrics.redis_error("worker")
            self.wait_for_redis()

    @property
    def dequeue_timeout(self) -> int:
        """An idle worker comes back from its blocking dequeue every SWEEP_S, to sweep."""
        return min(int(super().dequeue_timeout), SWEEP_S)

    @property
    def should_run_maintenance_tasks(self) -> bool:
        """RQ's maintenance every maintenance interval; the timers' sweep every SWEEP_S."""
        return bool(super().should_run_maintenance_tasks) or time.monotonic() >= self.next_sweep

    def run_maintenance_tasks(self) -> None:
        try:
            if super().should_run_maintenance_tasks:
                super().run_maintenance_tasks()  # type: ignore[no-untyped-call]
                self.reconcile()
            self.next_sweep = time.monotonic() + SWEEP_S
            self.rescue_timers()
            self.sweep_timers()
            self.sweep_lobby()
        except REDIS_ERRORS:
            metrics.redis_error("worker")
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

    def rescue_timers(self) -> None:
        """Queue the turn timers overdue by more than ``timers.OVERDUE_MS``: no live scheduler
        moved them, because the one holding RQ's scheduler lock died (the lock outlives it by a
        minute). A timer moved twice is played once: its job finds the seq moved on."""
        ctx = jobs.context()
        late = timers.enqueue_due(ctx.timer_queue, int(time.time() * 1000) - timers.OVERDUE_MS)
        if late:
            self.log.warning("Worker %s: queued overdue turn timers %s", self.name, late)

    def sweep_timers(self) -> None:
        """Queue again the timer of every turn overdue by more than ``timers.OVERDUE_MS`` whose
        job was lost (service.reconcile.reconcile_timers; one worker per SWEEP_S). The
        deadlines are on the app's clock, so is the overdue test; the job is queued now."""
        ctx = jobs.context()
        # on the game state's server, beside the deadlines' index and the reconcile lock: the
        # queue's server holds RQ's keys only (tests/service/test_roles.py)
        if not ctx.client.set(keys.TIMERS_LOCK, self.name, nx=True, px=SWEEP_S * 1000 - 100):
            return  # another worker swept just now
        now_ms = int(clock.now(ctx.settings).timestamp() * 1000)
        lost = reconcile_timers(ctx.client, ctx.timer_queue, now_ms, retry_failed=False)
        if lost:
            self.log.warning("Worker %s: queued lost turn timers %s", self.name, lost)

    def sweep_lobby(self) -> None:
        """The quick match's steps and the unsettled rated games (service.lobby.sweep; one
        worker per SWEEP_S), on the app's clock like the tables."""
        ctx = jobs.context()
        now_ms = int(clock.now(ctx.settings).timestamp() * 1000)
        lifetimes = jobs.lifetimes(ctx.settings)
        lobby.run(ctx.client, ctx.timer_queue, lifetimes, now_ms, self.name, SWEEP_S * 1000)

    def execute_job(self, job: Job, queue: Queue) -> None:
        try:
            self.execute_in_process(job, queue)
        except REDIS_ERRORS as e:
            metrics.redis_error("job")
            self.log.warning("Worker %s: Redis lost during job %s: %s", self.name, job.id, e)
            self.wait_for_redis()
            self.fail_unfinished(job, queue)

    def execute_in_process(self, job: Job, queue: Queue) -> None:
        """Every job runs in the worker itself, as RQ's SimpleWorker runs it: a turn timer or a
        verification is a few milliseconds of replay, and forking a work horse per job (plus its
        reconnect to Redis and the copy-on-write faults of a fresh process) cost about ten times
        the job (bench/results/verify.md, bench/results/tables.md). RQ's job timeout still
        applies: ``death_penalty_class`` (UnixSignalDeathPenalty) raises in this process at the
        deadline, and the job is failed and retried as before. A worker killed mid-job strands
        its job in the started registry, where the reconciler finds it. The engines are pure, so
        nothing a job leaves in the process changes the next job's result."""
        execution = self.prepare_execution(job)
        self.idle_with_success = False
        if self.perform_job(job, queue, execution) and self.idle_with_success:
            self.written_state = WorkerStatus.IDLE  # so set_state writes nothing
        self.set_state(WorkerStatus.IDLE)

    def increment_successful_job_count(self, pipeline: Any = None) -> None:
        """RQ's, and in the same transaction (the one that records the job's success) the
        worker's state back to "idle", which RQ writes in a round trip of its own after it."""
        super().increment_successful_job_count(pipeline)
        if pipeline is not None:
            super().set_state(WorkerStatus.IDLE, pipeline=pipeline)
            self.idle_with_success = True

    def fail_unfinished(self, job: Job, queue: Queue) -> None:
        """After an outage: a job whose end was not recorded is failed, so RQ retries it (or the
        ``pikdame reconcile`` timer does, once its retries are spent); the job is idempotent.

        A forking subclass (worker.analysis, bench/forking_worker.py) may come here from RQ's
        ``monitor_work_horse``, which forgets its horse only when the horse's end was seen: the
        worker forgets it here, or a cold stop would kill a process group by a stale pid. RQ
        has no public way to forget the horse (``horse_pid`` is read-only), hence the one private
        attribute this module writes, ``_horse_pid`` (pinned by tests/test_rq_api.py)."""
        self.executions.clear()
        self._horse_pid = 0
        try:
            if job.get_status(refresh=True) in (JobStatus.FINISHED, JobStatus.FAILED):
                return
            self.handle_job_failure(job, queue, exc_string="Redis outage during the job")
        except REDIS_ERRORS:
            self.wait_for_redis()
