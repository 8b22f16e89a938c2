"""The deployed worker's own bookkeeping on a real redis-server (worker.steady.SteadyWorker).

Its beats and states: RQ beats three commands at a time before and after every dequeue and after
every job, and writes the same state twice between jobs; at the reset hour that was half of a
job's round trips. The worker beats at most once every ``BEAT_EVERY_S`` in one round trip,
always when the beat carries a lifetime of its own (a job's), and writes a state only when it
changes, so the reconciler (``WORKER_SILENCE_S``) and RQ (the key's lifetime) still see it alive.

Its way out: the thread listening on its channel of RQ's commands looks every ``PUBSUB_WAIT_S``
whether to stop (RQ's waited 60 s, which a burst worker of the fault tests once did).

Its scheduler: ``--with-scheduler`` starts a TimerScheduler through RQ's public work loop
(tests/test_rq_api.py keeps the worker on RQ's public API)."""

from __future__ import annotations

import contextlib
import logging
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
import redis
from rq import Queue
from rq.exceptions import StopRequested
from rq.job import Job
from rq.registry import ScheduledJobRegistry
from rq.serializers import JSONSerializer
from rq.suspension import resume, suspend
from rq.worker import WorkerStatus

from service.common.jobs import WORKER_SILENCE_S
from service.tables import timers
from tests.support.imports import ROOT
from tests.support.processes import service_env
from tests.support.servers import command_calls
from worker import steady
from worker.steady import SteadyWorker, TimerScheduler

pytestmark = pytest.mark.integration


@pytest.fixture
def worker(queue_url: str, qdb: redis.Redis[str]) -> Iterator[SteadyWorker]:
    raw = redis.Redis.from_url(queue_url)
    w = SteadyWorker([Queue("verify", connection=raw)], connection=raw, worker_ttl=35)
    w.register_birth()  # type: ignore[no-untyped-call]
    qdb.config_resetstat()
    yield w
    w.register_death()  # type: ignore[no-untyped-call]
    raw.close()


def test_a_plain_beat_right_after_another_is_not_sent(
    worker: SteadyWorker, qdb: redis.Redis[str]
) -> None:
    for _ in range(5):
        worker.heartbeat()
    assert command_calls(qdb, "hset") == 1  # one beat: last_heartbeat
    assert command_calls(qdb, "expire") == 2  # the worker's key and its executions' key
    assert qdb.ttl(worker.key) > WORKER_SILENCE_S - 10  # alive to the reconciler, and to RQ
    assert qdb.hget(worker.key, "last_heartbeat") is not None


def test_a_beat_with_its_own_lifetime_is_always_sent(
    worker: SteadyWorker, qdb: redis.Redis[str]
) -> None:
    worker.heartbeat()
    worker.heartbeat(90)  # RQ's beat before a job: the job's timeout and a minute
    assert command_calls(qdb, "hset") == 2
    assert 80 < qdb.ttl(worker.key) <= 90


def test_the_next_plain_beat_goes_out_after_beat_every_s(
    worker: SteadyWorker, qdb: redis.Redis[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(steady, "BEAT_EVERY_S", 0.0)
    worker.heartbeat()
    worker.heartbeat()
    assert command_calls(qdb, "hset") == 2


def test_a_state_is_written_when_it_changes(worker: SteadyWorker, qdb: redis.Redis[str]) -> None:
    worker.set_state(WorkerStatus.IDLE)
    worker.set_state(WorkerStatus.IDLE)  # RQ: after the job, then again before the dequeue
    assert command_calls(qdb, "hset") == 1
    pipe = worker.connection.pipeline()
    worker.set_state(WorkerStatus.BUSY, pipeline=pipe)  # RQ: inside the job's preparation
    pipe.execute()
    assert qdb.hget(worker.key, "state") == WorkerStatus.BUSY
    worker.set_state(WorkerStatus.IDLE)
    assert qdb.hget(worker.key, "state") == WorkerStatus.IDLE
    assert worker.get_state() == WorkerStatus.IDLE


def test_the_way_out_does_not_wait_for_the_listening_thread(worker: SteadyWorker) -> None:
    """The race RQ's exit lost: its unsubscribe's reply reached the listening thread before
    the stop did, and the thread went back to waiting (RQ's wait: a minute)."""
    worker.subscribe()
    pubsub = worker.pubsub
    assert pubsub is not None
    pubsub.unsubscribe()  # the reply, read by the thread before the stop
    deadline = time.monotonic() + 10
    while pubsub.subscribed and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not pubsub.subscribed
    time.sleep(0.2)  # the thread is waiting again
    out = threading.Thread(target=worker.unsubscribe)
    out.start()
    out.join(timeout=15)
    assert not out.is_alive(), "the worker's exit waits on its listening thread"


def sent_alone(worker: SteadyWorker, monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """The commands the worker sends from now on outside a pipeline (each a round trip)."""
    alone: list[tuple[object, ...]] = []
    send = worker.connection.execute_command

    def counted(*args: object, **options: object) -> object:
        alone.append(args)
        return send(*args, **options)

    monkeypatch.setattr(worker.connection, "execute_command", counted)
    return alone


def test_a_jobs_last_beat_is_written_with_its_end(
    worker: SteadyWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RQ beats a job once more when it returns, a round trip of its own before the pipeline
    that records the end; the worker sets the beat in memory and that pipeline writes it."""
    job = worker.queues[0].enqueue(len, "abc")
    alone = sent_alone(worker, monkeypatch)
    taken = worker.dequeue_job_and_maintain_ttl(None)
    assert taken is not None and taken[0].id == job.id
    worker.execute_job(*taken)
    stored = worker.connection.hgetall(job.key)
    assert stored[b"status"] == b"finished"
    assert stored[b"last_heartbeat"] == stored[b"ended_at"]  # one beat, with the end
    assert not [a for a in alone if a[0] == "HSET" and a[1] == job.key]


def test_a_jobs_success_writes_the_idle_state_with_it(
    worker: SteadyWorker, qdb: redis.Redis[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """RQ writes "idle" in a round trip of its own after the transaction that records a job's
    success; the worker writes it in that transaction. A failed job's state is written as
    before."""
    ok = worker.queues[0].enqueue(len, "abc")
    failing = worker.queues[0].enqueue(divmod, 1, 0)  # ZeroDivisionError
    worker.set_state(WorkerStatus.IDLE)  # as it starts
    alone = sent_alone(worker, monkeypatch)
    for job, status in ((ok, b"finished"), (failing, b"failed")):
        taken = worker.dequeue_job_and_maintain_ttl(None)
        assert taken is not None and taken[0].id == job.id
        worker.execute_job(*taken)
        assert worker.connection.hget(job.key, "status") == status
        assert qdb.hget(worker.key, "state") == WorkerStatus.IDLE
        assert worker.get_state() == WorkerStatus.IDLE
    states = [a for a in alone if a[0] == "HSET" and a[1] == worker.key and a[2] == "state"]
    assert len(states) == 1  # the failed job's; the finished one's went with its success


def test_the_worker_looks_whether_it_is_suspended_once_a_second(
    worker: SteadyWorker, qdb: redis.Redis[str]
) -> None:
    """RQ looks before every dequeue (a beat and EXISTS in a transaction); ``rq suspend`` still
    stops the worker between two jobs, within ``SUSPENSION_EVERY_S``."""
    for _ in range(5):
        worker.check_for_suspension(burst=True)
    assert command_calls(qdb, "exists") == 1
    suspend(worker.connection)
    worker.check_for_suspension(burst=True)  # within the second: not seen yet
    worker.next_suspension_check = 0.0  # a second later
    with pytest.raises(StopRequested):
        worker.check_for_suspension(burst=True)
    resume(worker.connection)


def test_the_workers_settings_freeze_start_up_and_collect_the_young_less_often(
    redis_url: str,
) -> None:
    """What ``rq worker -c worker.settings`` imports leaves the start-up heap out of the
    collector's generations and collects the youngest every ``GC_YOUNG`` allocations (a job
    allocates many short-lived containers). In a process of its own: importing the settings here
    would tune this test process's collector too."""
    probe = "import gc, worker.settings; print(gc.get_freeze_count(), *gc.get_threshold())"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        env=service_env(redis_url, "s" * 64),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    frozen, young, *_ = (int(x) for x in done.stdout.split())
    assert young == steady.GC_YOUNG != 700
    assert frozen > 10_000  # the engines, RQ and the settings: tens of thousands of objects


@contextlib.contextmanager
def process_left_as_found() -> Iterator[None]:
    """A worker's ``work`` in this process: its signal handlers and RQ's log handlers undone."""
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    loggers = [logging.getLogger(name) for name in ("rq.worker", "rq.job", "rq.scheduler")]
    saved = [(log, log.handlers[:], log.propagate, log.level) for log in loggers]
    try:
        yield
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
        for log, log_handlers, propagate, level in saved:
            log.handlers[:] = log_handlers
            log.propagate = propagate
            log.setLevel(level)


def test_with_scheduler_the_work_loop_starts_the_timer_scheduler(
    queue_url: str, qdb: redis.Redis[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rq worker --with-scheduler`` runs ``work(with_scheduler=True)``: RQ is asked for no
    scheduler and the worker's bootstrap starts a TimerScheduler, whose burst run moves a turn
    timer due by the millisecond that RQ's whole-second registry has not moved."""
    raw = redis.Redis.from_url(queue_url)
    q = timers.queue_on(raw, "timers-unit")
    now_ms = int(time.time() * 1000)
    timers.schedule(q, "t1", 3, now_ms - 1000, now_ms, scheduler_ms=now_ms)  # due a second ago
    registry = ScheduledJobRegistry(queue=q)  # type: ignore[no-untyped-call]
    raw.zadd(registry.key, {"timer-t1-3": 4_000_000_000})  # RQ's own tick: not yet
    w = SteadyWorker([q], connection=raw, serializer=JSONSerializer)
    ran: list[str] = []

    def execute_job(job: Job, queue: Queue) -> None:
        ran.append(job.id)

    monkeypatch.setattr(w, "execute_job", execute_job)
    for sweep in ("reconcile", "rescue_timers", "sweep_timers", "sweep_lobby"):
        monkeypatch.setattr(w, sweep, lambda: None)  # the app's, not the scheduler's
    with process_left_as_found():
        assert w.work(burst=True, with_scheduler=True)
    raw.close()
    assert isinstance(w.scheduler, TimerScheduler)
    assert ran == ["timer-t1-3"]


def test_a_stop_asked_for_while_busy_ends_the_wait_for_redis(
    worker: SteadyWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rq shutdown`` (or SIGTERM) during a job, then Redis lost: the worker fails the job and
    leaves instead of waiting for Redis (RQ's own stop flag is private: the worker keeps one)."""
    worker.set_state(WorkerStatus.BUSY)
    with process_left_as_found():
        worker.request_stop(signal.SIGTERM, None)
    assert worker.stopping
    pings: list[object] = []
    monkeypatch.setattr(worker.connection, "ping", lambda: pings.append(1))
    worker.wait_for_redis()
    assert pings == []  # no wait at all


# A process of its own session: a SteadyWorker (no horse: it runs jobs in its own process) is
# told to stop an execution, as RQ's stop-job command does (rq.command.send_stop_job_command).
STOP_EXECUTION = """
import sys, redis
from rq import Queue
from worker.steady import SteadyWorker
raw = redis.Redis.from_url(sys.argv[1])
w = SteadyWorker([Queue("verify", connection=raw)], connection=raw)
assert w.horse_pid == 0
w.kill_horse()
print("alive")
"""


def test_stopping_an_execution_never_kills_the_workers_own_process_group(queue_url: str) -> None:
    """RQ's forking Worker kills its horse's process group (os.killpg(os.getpgid(horse_pid))):
    with no horse, pid 0 named the worker's own group, so a stop-job command for a running
    verification killed the worker and, under ``make run``, the supervisor and the web with it.
    Without a horse there is nothing to kill."""
    done = subprocess.run(
        [sys.executable, "-c", STOP_EXECUTION, queue_url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        start_new_session=True,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-400:])
    assert done.stdout.strip() == "alive"
