"""No stranded table (R9's turn timer): whatever loses a table's timer job, a worker plays the
overdue turn within seconds of being back, once.

Real redis-server, gunicorn and ``rq worker`` processes (deploy/'s commands). The worker is
SIGKILLed at seeded random moments while a burst of timers falls due (as the verification fault
test kills it, tests/service/test_lost_jobs.py); a web process dies between a table's write and its
timer's schedule; the game state's Redis is down when a timer job runs.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from rq.registry import ScheduledJobRegistry
from rq.utils import utcformat

from service.common import keys
from service.reconcile import FORGET, TIMER_ENDED_S, reconcile_timers
from service.tables import store as tables
from service.tables import timers
from service.web.redisconn import settings_of
from tests.support.processes import (
    Process,
    idle_in_dequeue,
    service_env,
    start_web,
    start_worker,
    wait_for,
)
from tests.support.servers import RedisServer, role_url, start_redis
from tests.support.service_app import Clock
from tests.support.tables import timed_table

pytestmark = pytest.mark.integration

HUMAN: dict[str, Any] = {"kind": "human"}
TIMER_S = 30  # R9's shortest turn timer
# "Within seconds of a worker being back": how long the tests give a worker to play every overdue
# turn (a lost timer is found within a few seconds; before the fix it waited for good).
BACK_S = 30


@pytest.fixture
def server() -> Iterator[RedisServer]:
    s = start_redis()
    try:
        yield s
    finally:
        s.close()


def drop_timer(queue_url: str, queue_name: str, table_id: str, seq: int) -> None:
    """What a web process killed between the table's write and the timer's schedule leaves: the
    deadline in the table and no job anywhere."""
    q = timers.queue_on(redis.Redis.from_url(queue_url), queue_name)
    job = q.fetch_job(timers.job_id(table_id, seq))
    assert job is not None
    job.delete()
    q.connection.zrem(timers.due_key(queue_name), timers.job_id(table_id, seq))


def cuts(client: redis.Redis[str], table_id: str) -> int:
    return len([e for e in client.lrange(keys.table_events(table_id), 0, -1) if '"cut ' in e])


def test_a_burst_of_due_timers_with_the_worker_killed_at_random_points(
    server: RedisServer, tmp_path: Path
) -> None:
    """Thirty tables' timers fall due while the worker is SIGKILLed at seeded random moments and
    started again; two of them were never scheduled (their web process died). Once a worker is
    back, every overdue turn is played within seconds, each once."""
    rng = random.Random(20261202)
    queue_name = "tables-burst"
    env = service_env(server.url, "b" * 64, PIKDAME_TABLE_QUEUE=queue_name)
    web = start_web(env, tmp_path / "web.log")
    client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
    queue_url = role_url(server.url, "PIKDAME_REDIS_QUEUE_URL")
    logs = iter(tmp_path / f"worker{i}.log" for i in range(1000))
    worker: Process | None = None
    try:
        ids = [timed_table(web)[0] for _ in range(30)]
        for table_id in rng.sample(ids, 2):
            drop_timer(queue_url, queue_name, table_id, 0)
        first = tables.load(client, ids[0])
        last = tables.load(client, ids[-1])
        assert first is not None and last is not None
        assert first.deadline_ms is not None and last.deadline_ms is not None
        log = next(logs)
        worker = start_worker(env, log)
        time.sleep(max(0.0, first.deadline_ms / 1000 - time.time() - 0.5))
        kills = 0
        while time.time() * 1000 < last.deadline_ms + 3000:  # the burst falls due
            # a random moment of the worker's life: its start, its sweeps, a timer job
            wait_for(lambda f=log: "Listening on" in f.read_text(), timeout=60)
            time.sleep(rng.uniform(0.0, 1.2))
            worker.kill()
            kills += 1
            log = next(logs)
            worker = start_worker(env, log)
        assert kills >= 2
        wait_for(lambda: all(cuts(client, t) for t in ids), timeout=BACK_S, interval=0.25)
        assert [cuts(client, t) for t in ids] == [1] * len(ids)  # each turn played once
    finally:
        if worker is not None:
            worker.stop()
        web.process.stop()


def test_a_timer_job_taken_by_a_worker_killed_before_starting_it(
    server: RedisServer, tmp_path: Path
) -> None:
    """The worker pops the due timer job and dies before starting it: the job is left
    ``queued`` in no queue, registry or timer set. A worker started afterwards plays the turn."""
    queue_name = "tables-popped"
    env = service_env(server.url, "p" * 64, PIKDAME_TABLE_QUEUE=queue_name)
    web = start_web(env, tmp_path / "web.log")
    worker = back = None
    try:
        table_id, _ = timed_table(web)
    finally:
        web.process.stop()
    client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
    queue_url = role_url(server.url, "PIKDAME_REDIS_QUEUE_URL")
    qdb: redis.Redis[bytes] = redis.Redis.from_url(queue_url)
    q = timers.queue_on(qdb, queue_name)
    name = timers.job_id(table_id, 0)
    # Held back from the scheduler until the worker listens and the deadline has passed.
    ScheduledJobRegistry(queue=q).remove(name)  # type: ignore[no-untyped-call]
    qdb.zrem(timers.due_key(queue_name), name)
    table = tables.load(client, table_id)
    assert table is not None and table.deadline_ms is not None
    try:
        worker = start_worker(env, tmp_path / "worker1.log")
        listening = redis.Redis.from_url(queue_url, decode_responses=True)
        wait_for(lambda: idle_in_dequeue(listening), timeout=60)
        time.sleep(max(0.0, table.deadline_ms / 1000 - time.time() + 0.1))
        try:
            # Hand the job over and freeze every write in one step: the worker's blocking pop
            # takes it, and its next write (starting the job) blocks until it is killed.
            with qdb.pipeline(transaction=True) as pipe:
                pipe.hset(f"rq:job:{name}", "status", "queued")
                pipe.rpush(q.key, name)
                pipe.execute_command("CLIENT", "PAUSE", 20_000, "WRITE")  # type: ignore[no-untyped-call]
                pipe.execute()
            wait_for(lambda: qdb.llen(q.key) == 0)  # taken by the worker
        finally:
            worker.kill()
            qdb.execute_command("CLIENT", "UNPAUSE")
        assert qdb.hget(f"rq:job:{name}", "status") == b"queued" and qdb.llen(q.key) == 0
        assert cuts(client, table_id) == 0
        back = start_worker(env, tmp_path / "worker2.log")
        wait_for(lambda: cuts(client, table_id) == 1, timeout=BACK_S, interval=0.25)
    finally:
        if back is not None:
            back.stop()


@pytest.mark.parametrize("down", ["state", "both"])
def test_a_timer_job_cut_off_by_a_redis_outage_is_run_again(down: str, tmp_path: Path) -> None:
    """The timer job is in the middle of its table's transaction when Redis goes away: the game
    state's server alone (the job fails on it), or with the queue's (the worker logs "Redis lost
    during job", waits for Redis and fails the job). RQ's retry, or the sweep, plays the turn
    once Redis is back.

    Deterministic: the game state's server pauses writes from just before the deadline, so the
    job reads the table and waits at its EXEC until the servers stop."""
    dirs = [tmp_path / "state", tmp_path / "queue"]
    for d in dirs:
        d.mkdir()
    state, jobs = (start_redis(appendonly=True, directory=d) for d in dirs)
    worker = web = None
    try:
        roles = {
            "PIKDAME_REDIS_STATE_URL": state.url,
            "PIKDAME_REDIS_QUEUE_URL": jobs.url,
            "PIKDAME_REDIS_RANKINGS_URL": jobs.url,
        }
        env = service_env(jobs.url, "r" * 64, PIKDAME_TABLE_QUEUE="tables-outage", **roles)
        web = start_web(env, tmp_path / "web.log")
        table_id, _ = timed_table(web)
        client: redis.Redis[str] = redis.Redis.from_url(state.url, decode_responses=True)
        qdb: redis.Redis[str] = redis.Redis.from_url(jobs.url, decode_responses=True)
        table = tables.load(client, table_id)
        assert table is not None and table.deadline_ms is not None
        # Started a few seconds before the deadline: its periodic maintenance (which writes to
        # the game state's server) is not due while writes are paused.
        time.sleep(max(0.0, table.deadline_ms / 1000 - time.time() - 8))
        log = tmp_path / "worker.log"
        worker = start_worker(env, log)
        wait_for(lambda: "Listening on" in log.read_text(), timeout=60)
        time.sleep(max(0.0, table.deadline_ms / 1000 - time.time() - 0.5))
        client.execute_command("CLIENT", "PAUSE", 20_000, "WRITE")
        job = f"rq:job:{timers.job_id(table_id, 0)}"
        wait_for(lambda: qdb.hget(job, "status") == "started", timeout=30, interval=0.01)
        time.sleep(0.5)  # the job waits at its EXEC
        assert cuts(client, table_id) == 0
        if down == "both":
            jobs.stop()
        state.stop()
        time.sleep(2)
        state.start()
        if down == "both":
            jobs.start()
        client.execute_command("CLIENT", "UNPAUSE")  # a no-op on the restarted server
        wait_for(lambda: cuts(client, table_id) == 1, timeout=BACK_S, interval=0.25)
        if down == "both":
            assert "Redis lost during job" in log.read_text()
    finally:
        if worker is not None:
            worker.stop()
        if web is not None:
            web.process.stop()
        jobs.close()
        state.close()


def test_the_sweep_reads_overdue_turns_on_the_apps_clock_and_tidies_its_index(
    app: Flask, clock: Clock, rdb: redis.Redis[str], queue_url: str
) -> None:
    """reconcile_timers with the app's clock days behind the system's: a turn overdue on the
    app's clock whose job still waits (not due on the scheduler's clock) is left alone; its job
    gone, it is queued at once; a table over leaves the index, and a deadline written meanwhile
    stays in it."""
    client = app.test_client()
    made = client.post(
        "/api/tables",
        json={
            "name": "Ada",
            "seats": [HUMAN, {"kind": "bot", "level": "beginner"}],
            "rules": {"turn_timer": TIMER_S},
        },
    )
    table_id = made.get_json()["table"]["id"]
    assert client.post(f"/api/tables/{table_id}/start", json={}).status_code == 200
    deadline = int(clock().timestamp() * 1000) + TIMER_S * 1000
    assert rdb.zscore(keys.TABLE_DEADLINES, table_id) == deadline
    q = timers.queue_on(redis.Redis.from_url(queue_url), settings_of(app).table_queue)
    name = timers.job_id(table_id, 0)
    assert reconcile_timers(rdb, q, deadline + timers.OVERDUE_MS) == []  # not overdue yet
    assert reconcile_timers(rdb, q, deadline + 60_000) == []  # its job waits: left alone
    assert q.job_ids == []
    job = q.fetch_job(name)
    assert job is not None
    job.delete()  # lost
    assert reconcile_timers(rdb, q, deadline + 60_000) == [f"{table_id}:0"]
    assert q.job_ids == [name]
    assert reconcile_timers(rdb, q, deadline + 60_000) == []  # queued now: left alone
    late = deadline + 60_000
    # Failed for good (its retries spent): a worker's sweep runs it again a minute after it
    # ended (a job failing on a bug runs once a minute), `pikdame reconcile` at once.
    jobs = redis.Redis.from_url(queue_url, decode_responses=True)
    q.remove(name)
    ended = dt.datetime.now(dt.UTC)  # RQ's timestamps are on the scheduler's clock
    jobs.hset(f"rq:job:{name}", mapping={"status": "failed", "ended_at": utcformat(ended)})
    assert reconcile_timers(rdb, q, late, retry_failed=False) == []
    assert reconcile_timers(rdb, q, late, retry_failed=True) == [f"{table_id}:0"]
    q.remove(name)
    long_ago = ended - dt.timedelta(seconds=TIMER_ENDED_S + 1)
    jobs.hset(f"rq:job:{name}", mapping={"status": "failed", "ended_at": utcformat(long_ago)})
    assert reconcile_timers(rdb, q, late, retry_failed=False) == [f"{table_id}:0"]
    # Scheduled (an RQ retry) and due on the scheduler's clock seconds ago, but no scheduler
    # moved it (a killed one holds RQ's lock for a minute): queued at once.
    q.remove(name)
    jobs.hset(f"rq:job:{name}", "status", "scheduled")
    ScheduledJobRegistry(queue=q).schedule(job, ended - dt.timedelta(seconds=5))  # type: ignore[no-untyped-call]
    assert reconcile_timers(rdb, q, late, retry_failed=False) == [f"{table_id}:0"]
    assert q.job_ids == [name] and ScheduledJobRegistry(queue=q).count == 0  # type: ignore[no-untyped-call]
    # The game ends (resigned): the table leaves the index at the next sweep.
    assert client.post(f"/api/tables/{table_id}/resign", json={}).status_code == 200
    assert reconcile_timers(rdb, q, deadline + 60_000) == []
    assert rdb.zscore(keys.TABLE_DEADLINES, table_id) is None
    # A deadline written between the sweep's read (score 4) and its removal is not lost.
    rdb.zadd(keys.TABLE_DEADLINES, {table_id: 5})
    assert rdb.eval(FORGET, 1, keys.TABLE_DEADLINES, table_id, "4") == 0  # type: ignore[no-untyped-call]
    assert rdb.zscore(keys.TABLE_DEADLINES, table_id) == 5
