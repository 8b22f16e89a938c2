"""The daily habit on the real stack: gunicorn, a real Redis and a stock ``rq worker``.

The first verified attempt of a day enqueues the bot's par job (worker.jobs.compute_par); the
worker computes it once and the finished player's place shows it, while a player still at the
table never sees it. A par job lost on the way (a worker killed, the queue's Redis failed over)
is queued again by the reconciler (service.reconcile.reconcile_par), like a verification.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask

from engine import DAILY_DEALER, DAILY_RULES, Game, Seat, daily_seed
from service.common import keys
from service.common.jobs import INTERMEDIATE_GRACE_S
from service.dailies import par, queue
from service.reconcile import reconcile_par
from tests.support.api import resign_at_once
from tests.support.player import play_to_end
from tests.support.processes import (
    WEB_SECRET,
    WebServer,
    idle_in_dequeue,
    service_env,
    start_worker,
    wait_for,
)
from tests.support.service_app import SECRET as APP_SECRET
from tests.support.service_app import Clock
from worker.verify import verify

pytestmark = pytest.mark.integration
SECRET = WEB_SECRET  # the web fixture's (tests/service/conftest.py)


def zen_round(seed: bytes) -> Game:
    """The par's game: the day's deal (R11) with a Zen-Meister in the player's seat."""
    zen = tuple(Seat("bot", level="zen") for _ in range(DAILY_RULES.players))
    return Game.start(seed, DAILY_RULES, zen, DAILY_DEALER)


QUEUE = "verify"  # PIKDAME_QUEUE's default


def test_par_job_runs_once_and_shows_only_after_the_end(
    web: WebServer,
    redis_url: str,
    rankings: redis.Redis[str],
    queue_url: str,
    tmp_path: Path,
) -> None:
    worker = start_worker(service_env(redis_url, SECRET), tmp_path / "worker.log")
    try:
        date = web.call("GET", "/api/daily", None)[1]["date"]
        started = {}
        for name in ("Ada", "Bob"):
            status, created = web.call("POST", f"/api/daily/{date}/attempts", {"name": name})
            assert status == 201, created
            started[name] = (created["attempt"]["id"], created["token"])
        aid, token = started["Ada"]

        def call(m: str, p: str, b: Any) -> tuple[int, Any]:
            return web.call(m, p, b, token)

        play_to_end(call, aid, use_hints=False)

        def with_par() -> Any:
            status, doc = call("GET", f"/api/attempts/{aid}/place", None)
            assert status == 200, doc
            return doc if doc["ranked"] and doc["par"] is not None else None

        doc = wait_for(with_par)
        outcome = zen_round(daily_seed(SECRET.encode(), date)).state.outcome
        assert outcome is not None and doc["par"]["score"] == outcome.round_scores[0]
        # The job's id is the day's: enqueueing again while it exists changes nothing, and a
        # second computation reads the stored par.
        assert par.read(rankings, date) == doc["par"]  # the par lives with the rankings
        assert rankings.exists(keys.par(date))
        assert queue.enqueue_par(queue.queue(queue_url, QUEUE), date) is False
        bob, bob_token = started["Bob"]
        for path in (f"/api/attempts/{bob}", f"/api/attempts/{bob}/place", "/api/me/stats"):
            status, body = web.call("GET", path, None, bob_token)
            assert '"par"' not in str(body).replace("'", '"'), (path, body)
    finally:
        worker.stop()


def verified_without_par_job(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    qdb: redis.Redis[str],
) -> str:
    """A day with a verified attempt whose par job was lost before any worker ran it: the
    attempt judged in process, the queue's Redis then emptied of every job (a failover)."""
    aid, _ = resign_at_once(app.test_client(), clock.today, "Ada")
    assert verify(rdb, aid, APP_SECRET, rankings)["status"] == "verified"
    for key in qdb.scan_iter(match="rq:*"):
        qdb.delete(key)
    assert not rankings.exists(keys.par(clock.today))
    return aid


def test_a_lost_par_job_is_queued_again_by_the_workers_reconciler(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    qdb: redis.Redis[str],
    redis_url: str,
    tmp_path: Path,
) -> None:
    """No verification is left to queue the par, yet a stock worker's maintenance tick (it runs
    one at start) finds the day without a par and without a job, and queues it again."""
    verified_without_par_job(app, clock, rdb, rankings, qdb)
    worker = start_worker(service_env(redis_url, APP_SECRET.decode()), tmp_path / "worker.log")
    try:
        found = wait_for(lambda: par.read(rankings, clock.today), timeout=60, interval=0.1)
    finally:
        worker.stop()
    outcome = zen_round(daily_seed(APP_SECRET, clock.today)).state.outcome
    assert outcome is not None and found["score"] == outcome.round_scores[0]


def test_the_reconciler_requeues_a_par_job_parked_by_a_dead_worker(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    qdb: redis.Redis[str],
    queue_url: str,
) -> None:
    """The ``pikdame reconcile`` path: a par job a dying worker moved into RQ's intermediate
    queue is marked at the first sighting and requeued at a later one; a waiting job is left
    alone, and a day with its par needs no job."""
    verified_without_par_job(app, clock, rdb, rankings, qdb)
    q = queue.queue(queue_url, QUEUE)
    assert queue.enqueue_par(q, clock.today)
    jid = par.job_id(clock.today)
    assert reconcile_par(rdb, rankings, q) == []  # waiting in the queue
    qdb.lmove(f"rq:queue:{QUEUE}", f"rq:queue:{QUEUE}:intermediate", "RIGHT", "LEFT")
    assert reconcile_par(rdb, rankings, q) == []  # first sighting: a live worker starts it now
    qdb.set(keys.parked(jid), str(time.time() - INTERMEDIATE_GRACE_S - 1))
    assert reconcile_par(rdb, rankings, q) == [clock.today]
    assert qdb.lrange(f"rq:queue:{QUEUE}", 0, -1) == [jid]
    assert qdb.lrange(f"rq:queue:{QUEUE}:intermediate", 0, -1) == []
    par.store(rankings, clock.today, 0, 1)
    qdb.delete(f"rq:queue:{QUEUE}", f"rq:job:{jid}")
    assert reconcile_par(rdb, rankings, q) == []  # the par is known: nothing to do


def test_a_par_job_whose_worker_is_killed_is_computed_by_the_next(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    qdb: redis.Redis[str],
    queue_url: str,
    redis_url: str,
    tmp_path: Path,
) -> None:
    """A worker takes the par job and is SIGKILLed before it starts it (every write frozen
    meanwhile, as in test_lost_jobs): the job sits in RQ's intermediate queue as ``queued``;
    the next worker's ticks find it parked, requeue it and compute the par."""
    verified_without_par_job(app, clock, rdb, rankings, qdb)
    jid = par.job_id(clock.today)
    listed = f"rq:queue:{QUEUE}"
    assert queue.enqueue_par(queue.queue(queue_url, QUEUE), clock.today)
    assert qdb.lrem(listed, 0, jid) == 1  # held back until the worker is listening
    env = service_env(redis_url, APP_SECRET.decode())
    worker = start_worker(env, tmp_path / "worker1.log")
    try:
        wait_for(lambda: idle_in_dequeue(qdb), timeout=60)
        with qdb.pipeline(transaction=True) as pipe:  # hand it over and freeze writes at once
            pipe.rpush(listed, jid)
            pipe.execute_command("CLIENT", "PAUSE", 20_000, "WRITE")  # type: ignore[no-untyped-call]
            pipe.execute()
        wait_for(lambda: qdb.lrange(listed, 0, -1) == [])  # taken by the worker
    finally:
        worker.kill()
        qdb.execute_command("CLIENT", "UNPAUSE")
    assert qdb.hget(f"rq:job:{jid}", "status") == "queued"
    assert not rankings.exists(keys.par(clock.today))
    back = start_worker(env, tmp_path / "worker2.log")
    try:
        found = wait_for(lambda: par.read(rankings, clock.today), timeout=120, interval=0.2)
    finally:
        back.stop()
    outcome = zen_round(daily_seed(APP_SECRET, clock.today)).state.outcome
    assert outcome is not None and found["score"] == outcome.round_scores[0]
