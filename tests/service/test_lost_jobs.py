"""No stranded verification. Real ``rq worker`` processes killed with SIGKILL at the
worst moments; every finished attempt gets its verdict within 60 s of a worker being back,
without an operator running the reconciler."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
import redis
from flask import Flask

from service.common import keys
from service.dailies.queue import job_id
from service.reconcile import reconcile
from tests.support.api import resign_at_once
from tests.support.processes import (
    Process,
    idle_in_dequeue,
    service_env,
    start_worker,
    wait_for,
)
from tests.support.service_app import SECRET, Clock

pytestmark = pytest.mark.integration

QUEUE = "rq:queue:verify"
INTERMEDIATE = f"{QUEUE}:intermediate"


def resigned(app: Flask, clock: Clock, name: str) -> str:
    """A finished ranked attempt (the finishing move queues its verification)."""
    return resign_at_once(app.test_client(), clock.today, name)[0]


def verdicts(rdb: redis.Redis[str], ids: list[str]) -> list[str | None]:
    return [rdb.hget(keys.attempt(aid), "verification") for aid in ids]


def test_worker_killed_between_dequeue_and_start_strands_nothing(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    redis_url: str,
    tmp_path: Path,
    qdb: redis.Redis[str],
    rankings: redis.Redis[str],
) -> None:
    """The job is in RQ's intermediate queue with status ``queued`` when its worker dies: the
    next worker requeues it (before the fix it counted as waiting and sat there)."""
    aid = resigned(app, clock, "Ada")
    jid = job_id(aid)
    assert qdb.lrem(QUEUE, 0, jid) == 1  # held back until the worker is listening
    env = service_env(redis_url, SECRET.decode())
    worker = start_worker(env, tmp_path / "worker1.log")
    try:
        wait_for(lambda: idle_in_dequeue(qdb), timeout=60)
        # Hand the job over and freeze every write in one step: the worker's blocking pop takes
        # the job (into the intermediate queue with BLMOVE), and its next write (starting the
        # job) blocks.
        with qdb.pipeline(transaction=True) as pipe:
            pipe.rpush(QUEUE, jid)
            pipe.execute_command("CLIENT", "PAUSE", 20_000, "WRITE")  # type: ignore[no-untyped-call]
            pipe.execute()
        wait_for(lambda: qdb.lrange(QUEUE, 0, -1) == [])  # taken by the worker
    finally:
        worker.kill()
        qdb.execute_command("CLIENT", "UNPAUSE")
    assert qdb.hget(f"rq:job:{jid}", "status") == "queued"
    assert qdb.lrange(QUEUE, 0, -1) == []
    assert rdb.hget(keys.attempt(aid), "verification") == "queued"
    back = start_worker(env, tmp_path / "worker2.log")
    try:
        wait_for(lambda: verdicts(rdb, [aid]) == ["verified"], timeout=60, interval=0.2)
    finally:
        back.stop()
    assert rankings.zcard(f"pd:day:{clock.today}:rank") == 1
    assert qdb.lrange(INTERMEDIATE, 0, -1) == []


def test_the_reconciler_requeues_a_job_parked_in_the_intermediate_queue(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    redis_url: str,
    qdb: redis.Redis[str],
    queue_url: str,
) -> None:
    """The ``pikdame reconcile`` path for the same state: the first sighting only marks the job
    (a live worker starts it within milliseconds); a later one requeues it."""
    from service.common.jobs import INTERMEDIATE_GRACE_S
    from service.dailies.queue import queue

    aid = resigned(app, clock, "Ada")
    jid = job_id(aid)
    qdb.lmove(QUEUE, INTERMEDIATE, "RIGHT", "LEFT")  # what a dying worker's BLMOVE leaves
    q = queue(queue_url, "verify")
    now_ms = int(clock().timestamp() * 1000) + 60_000
    assert reconcile(rdb, q, now_ms, older_than_s=5) == []
    qdb.set(f"pd:parked:{jid}", str(time.time() - INTERMEDIATE_GRACE_S - 1))
    assert reconcile(rdb, q, now_ms, older_than_s=5) == [aid]
    assert qdb.lrange(QUEUE, 0, -1) == [jid]
    assert qdb.lrange(INTERMEDIATE, 0, -1) == []
    assert reconcile(rdb, q, now_ms, older_than_s=5) == []  # waiting now: left alone


def test_fifty_verifications_with_the_worker_killed_at_random_points(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    redis_url: str,
    tmp_path: Path,
    rankings: redis.Redis[str],
) -> None:
    """The fault test: 50 verifications while the worker is SIGKILLed at random moments
    (seeded), then one worker back: 50 verdicts within 60 s, each attempt ranked once."""
    rng = random.Random(20261130)
    env = service_env(redis_url, SECRET.decode())
    logs = iter(tmp_path / f"worker{i}.log" for i in range(1000))
    worker: Process = start_worker(env, next(logs))
    ids: list[str] = []
    kills = 0
    try:
        for i in range(50):
            ids.append(resigned(app, clock, f"P{i}"))
            if rng.random() < 0.3:
                time.sleep(rng.uniform(0.0, 0.3))
                worker.kill()
                kills += 1
                worker = start_worker(env, next(logs))
        time.sleep(rng.uniform(0.0, 0.3))
        worker.kill()
        worker = start_worker(env, next(logs))  # a worker is back
        wait_for(
            lambda: None not in verdicts(rdb, ids) and "queued" not in verdicts(rdb, ids),
            timeout=60,
            interval=0.2,
        )
    finally:
        worker.stop()
    assert kills >= 5
    assert verdicts(rdb, ids) == ["verified"] * 50
    assert rankings.zcard(f"pd:day:{clock.today}:rank") == 50
    assert rdb.zcard("pd:finished") == 0
    players = [rdb.hget(keys.attempt(aid), "player") for aid in ids]
    assert all(rankings.hget(f"pd:player:{p}", "days") == "1" for p in players)


def test_a_web_process_killed_before_enqueueing_loses_no_verdict(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    redis_url: str,
    tmp_path: Path,
    qdb: redis.Redis[str],
) -> None:
    """The finishing move is stored but its job never queued (the web process died between the
    two): the next worker's reconciler queues it."""
    aid = resigned(app, clock, "Ada")
    jid = job_id(aid)
    qdb.delete(f"rq:job:{jid}")
    qdb.lrem(QUEUE, 0, jid)
    worker = start_worker(service_env(redis_url, SECRET.decode()), tmp_path / "worker.log")
    try:
        wait_for(lambda: verdicts(rdb, [aid]) == ["verified"], timeout=60, interval=0.2)
    finally:
        worker.stop()
