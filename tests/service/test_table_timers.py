"""The tables' turn timer (R9, docs/TABLES.md "Turn timer") on real parts: redis-server and the
``rq worker --with-scheduler`` of deploy/ (worker.steady.SteadyWorker with its TimerScheduler).

A timer sits in RQ's scheduled registry (whole seconds, rounded up: never before the deadline)
and in ``pd:timers:<queue>`` by the millisecond, which the worker's scheduler reads every tick.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from rq.registry import ScheduledJobRegistry

from service.common import keys
from service.tables import store as tables
from service.tables import timers
from tests.support.processes import service_env, start_web, start_worker, wait_for
from tests.support.servers import RedisServer, role_url, start_redis

HUMAN: dict[str, Any] = {"kind": "human"}


@pytest.fixture
def server() -> Iterator[RedisServer]:
    s = start_redis()
    try:
        yield s
    finally:
        s.close()


def test_a_due_timer_is_queued_once_and_not_before_its_deadline(server: RedisServer) -> None:
    conn: redis.Redis[bytes] = redis.Redis.from_url(server.url)
    q = timers.queue_on(conn, "timers-unit")
    deadline = 1_900_000_000_250  # ms, a quarter second past a whole second
    timers.schedule(q, "t1", 3, deadline, now_ms=deadline - 5000, scheduler_ms=deadline - 5000)
    registry = ScheduledJobRegistry(queue=q)  # type: ignore[no-untyped-call]
    # RQ's own backstop is rounded up to the next whole second, never before the deadline.
    assert conn.zscore(registry.key, "timer-t1-3") == 1_900_000_001
    assert timers.enqueue_due(q, deadline - 1) == []
    assert q.count == 0
    assert timers.enqueue_due(q, deadline) == ["timer-t1-3"]
    assert timers.enqueue_due(q, deadline + 5000) == []  # moved once
    assert q.job_ids == ["timer-t1-3"]
    assert registry.count == 0 and conn.zcard(timers.due_key(q.name)) == 0
    job = q.fetch_job("timer-t1-3")
    assert job is not None and job.args == ["t1", 3]


def test_a_timer_already_moved_by_rqs_own_tick_is_not_queued_again(server: RedisServer) -> None:
    conn: redis.Redis[bytes] = redis.Redis.from_url(server.url)
    q = timers.queue_on(conn, "timers-unit")
    timers.schedule(q, "t2", 0, 1_900_000_000_000, 1_900_000_000_000, 1_900_000_000_000)
    registry = ScheduledJobRegistry(queue=q)  # type: ignore[no-untyped-call]
    registry.remove("timer-t2-0")  # as RQ's scheduler does when it queues the job itself
    q.enqueue_job(q.fetch_job("timer-t2-0"))  # type: ignore[arg-type]
    assert timers.enqueue_due(q, 1_900_000_000_000) == []
    assert q.job_ids == ["timer-t2-0"] and conn.zcard(timers.due_key(q.name)) == 0


def queue_of(server: RedisServer) -> str:
    """The queue role's server when game state is on ``server`` (its own in make test-roles)."""
    return role_url(server.url, "PIKDAME_REDIS_QUEUE_URL")


@pytest.mark.integration
def test_the_timer_fires_after_its_worker_was_killed_and_another_started(
    server: RedisServer, tmp_path: Path
) -> None:
    """R9 with every browser closed and the worker lost mid-wait: the timer lives in Redis, so
    a worker started afterwards plays the turn (once: the seq moves on)."""
    env = service_env(server.url, "k" * 64, PIKDAME_TABLE_QUEUE="tables-killed")
    web = start_web(env, tmp_path / "web.log")
    worker = start_worker(env, tmp_path / "worker-1.log")
    second = None
    try:
        status, body = web.call(
            "POST",
            "/api/tables",
            {
                "name": "Ada",
                "seats": [HUMAN, {"kind": "bot", "level": "beginner"}],
                "rules": {"turn_timer": 30},
            },
        )
        assert status == 201, body
        table_id, token = body["table"]["id"], body["token"]
        status, body = web.call("POST", f"/api/tables/{table_id}/start", {}, token)
        assert status == 200 and body["table"]["awaiting_cut"], body
        client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
        rq_keys: redis.Redis[str] = redis.Redis.from_url(queue_of(server), decode_responses=True)
        wait_for(lambda: rq_keys.exists("rq:scheduler-lock:tables-killed"))
        worker.kill()  # the worker and its scheduler die like a machine losing power
        second = start_worker(env, tmp_path / "worker-2.log")
        # The dead scheduler still holds RQ's lock (a minute): the new worker's maintenance
        # (at its start and every tick) queues the overdue timer meanwhile.
        cut = wait_for(
            lambda: (t := tables.load(client, table_id)) is not None and t.seq > 0 and t,
            timeout=180,
            interval=0.5,
        )
        status, body = web.call("GET", f"/api/tables/{table_id}", None, token)
        table = body["table"]
        assert not table["awaiting_cut"] and table["rounds"][0]["cut"] >= 1
        log = client.lrange(keys.table_events(table_id), 0, -1)
        cuts = [e for e in log if '"cut ' in e]
        assert len(cuts) == 1, log  # played once
        assert cut.seq >= 1
    finally:
        if second is not None:
            second.stop()
        worker.stop()
        web.process.stop()


@pytest.mark.integration
def test_a_worker_queues_an_overdue_timer_while_a_dead_scheduler_holds_the_lock(
    server: RedisServer, tmp_path: Path
) -> None:
    """A scheduler killed with its worker keeps RQ's scheduler lock for a minute; meanwhile any
    worker's maintenance (here a burst worker's, at its start) queues the overdue timer, and the
    turn is played once."""
    env = service_env(server.url, "o" * 64, PIKDAME_TABLE_QUEUE="tables-overdue")
    web = start_web(env, tmp_path / "web.log")
    try:
        status, body = web.call(
            "POST",
            "/api/tables",
            {
                "name": "Ada",
                "seats": [HUMAN, {"kind": "bot", "level": "beginner"}],
                "rules": {"turn_timer": 30},
            },
        )
        assert status == 201, body
        table_id, token = body["table"]["id"], body["token"]
        assert web.call("POST", f"/api/tables/{table_id}/start", {}, token)[0] == 200
    finally:
        web.process.stop()
    client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
    # Setup: the deadline 10 s ago (as if the worker had been away), its timer due since then,
    # and RQ's scheduler lock held by a scheduler that no longer runs.
    stored = json.loads(client.get(keys.table(table_id)) or "{}")
    stored["deadline_ms"] = int(time.time() * 1000) - 10_000
    client.set(keys.table(table_id), json.dumps(stored), keepttl=True)
    q = timers.queue_on(redis.Redis.from_url(queue_of(server)), "tables-overdue")
    timers.schedule(q, table_id, 0, stored["deadline_ms"], int(time.time() * 1000))
    rq_keys: redis.Redis[str] = redis.Redis.from_url(queue_of(server), decode_responses=True)
    rq_keys.set("rq:scheduler-lock:tables-overdue", "dead-scheduler", ex=600)
    rq_keys.set("rq:scheduler-lock:verify", "dead-scheduler", ex=600)
    worker = start_worker(env, tmp_path / "worker.log", burst=True)
    worker.popen.wait(timeout=120)
    table = tables.load(client, table_id)
    assert table is not None and table.seq >= 1  # the cut was played
    log = client.lrange(keys.table_events(table_id), 0, -1)
    assert len([e for e in log if '"cut ' in e]) == 1, log
    assert "queued overdue turn timers" in (tmp_path / "worker.log").read_text()
