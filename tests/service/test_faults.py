"""Faults: a worker killed in the middle of a job, then the reconciler; Redis restarted (AOF)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient
from rq.job import Job
from rq.serializers import JSONSerializer

from service.common import keys
from service.dailies.queue import job_id, queue
from service.reconcile import reconcile
from tests.support.api import caller, start
from tests.support.player import play_to_end
from tests.support.processes import service_env, start_worker, wait_for
from tests.support.servers import one_server, start_redis
from tests.support.service_app import SECRET, Clock, make_app

pytestmark = pytest.mark.integration


def finished(client: FlaskClient, clock: Clock, name: str = "Ada") -> str:
    attempt, _ = start(client, clock.today, name)
    play_to_end(caller(client), attempt["id"])
    return str(attempt["id"])


def job_status(url: str, aid: str) -> str:
    connection = redis.Redis.from_url(url)
    job = Job.fetch(job_id(aid), connection=connection, serializer=JSONSerializer)
    status = job.get_status(refresh=True)
    return "" if status is None else str(status.value)


def test_worker_killed_mid_job_then_reconciler_verifies_once(
    clock: Clock,
    rdb: redis.Redis[str],
    redis_url: str,
    queue_url: str,
    tmp_path: Path,
) -> None:
    # The rankings on a server of this test's own, whose writes it pauses before the worker
    # starts: the job dequeues (the queue's server), reads and judges the attempt (reads pass a
    # write pause) and then waits at its ranking, held there for as long as the test needs: no
    # race to catch it mid-job (writers hammering the attempt to keep its transaction retrying
    # left gaps on a busy box, where the job slipped through and was never seen "started").
    ranks_server = start_redis()
    ranks: redis.Redis[str] = redis.Redis.from_url(ranks_server.url, decode_responses=True)
    own_rankings = {"PIKDAME_REDIS_RANKINGS_URL": ranks_server.url}
    try:
        app = make_app(redis_url, clock, **own_rankings)
        aid = finished(app.test_client(), clock)
        key = keys.attempt(aid)
        env = service_env(redis_url, SECRET.decode(), **own_rankings)
        ranks.execute_command("CLIENT", "PAUSE", 120_000, "WRITE")
        worker = start_worker(env, tmp_path / "worker1.log")
        try:
            wait_for(lambda: ranks.info("clients")["blocked_clients"] >= 1, timeout=120)
            assert job_status(queue_url, aid) == "started"
            assert rdb.hget(key, "verification") == "queued"
        finally:
            worker.kill()
            ranks.execute_command("CLIENT", "UNPAUSE")
        time.sleep(0.5)  # a surviving work horse would rank and commit now
        assert ranks.zcard(f"pd:day:{clock.today}:rank") == 0
        assert rdb.hget(key, "verification") == "queued"
        assert job_status(queue_url, aid) == "started"  # lost with its worker
        q = queue(queue_url, "verify")
        now_ms = int(clock().timestamp() * 1000)  # the service stamped the finish with this clock
        assert reconcile(rdb, q, now_ms, older_than_s=3600) == []  # too recent to touch
        assert reconcile(rdb, q, now_ms + 10_000, older_than_s=5) == [aid]
        assert reconcile(rdb, q, now_ms + 10_000, older_than_s=5) == []  # queued: left alone
        burst = start_worker(env, tmp_path / "worker2.log", burst=True)
        burst.popen.wait(timeout=60)
        assert rdb.hget(key, "verification") == "verified"
        player = rdb.hget(key, "player")
        assert ranks.zcard(f"pd:day:{clock.today}:rank") == 1
        assert ranks.hget(f"pd:player:{player}", "days") == "1"
        assert rdb.zcard("pd:finished") == 0
        assert reconcile(rdb, q, now_ms + 10_000, older_than_s=5) == []
        # running the job once more (a duplicate delivery) changes nothing
        from service.dailies.queue import requeue_verify

        assert requeue_verify(q, aid)
        start_worker(env, tmp_path / "worker3.log", burst=True).popen.wait(timeout=60)
        assert ranks.hget(f"pd:player:{player}", "days") == "1"
        assert ranks.zcard(f"pd:day:{clock.today}:rank") == 1
    finally:
        ranks.close()
        ranks_server.close()


@pytest.mark.own_servers  # every role on the server it crashes
def test_redis_crash_with_aof_keeps_every_verified_attempt(clock: Clock, tmp_path: Path) -> None:
    server = start_redis(appendonly=True, directory=tmp_path)
    try:
        app = make_app(server.url, clock, **one_server(server.url))  # the crash of this one
        ids = [finished(app.test_client(), clock, name) for name in ("Ada", "Bob")]
        env = service_env(server.url, SECRET.decode(), **one_server(server.url))
        start_worker(env, tmp_path / "worker.log", burst=True).popen.wait(timeout=60)
        client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
        board = app.test_client().get(f"/api/leaderboard/{clock.today}").get_json()
        assert board["total"] == 2
        alltime = app.test_client().get("/api/leaderboard/all-time").get_json()
        client.close()
        server.stop(kill=True)  # a crash: no shutdown save
        server.start()
        again = app.test_client()  # the same app: its connection pool reconnects by itself
        assert again.get(f"/api/leaderboard/{clock.today}").get_json() == board
        assert again.get("/api/leaderboard/all-time").get_json() == alltime
        client = redis.Redis.from_url(server.url, decode_responses=True)
        for aid in ids:
            assert client.hget(keys.attempt(aid), "verification") == "verified"
        client.close()
    finally:
        server.close()


def test_a_failing_job_retries_with_back_off_then_lands_in_failed_registry(
    rdb: redis.Redis[str], redis_url: str, tmp_path: Path, queue_url: str
) -> None:
    from rq.registry import FailedJobRegistry

    from service.dailies.queue import enqueue_verify

    q = queue(queue_url, "verify", retry_intervals=(1, 1))
    assert enqueue_verify(q, "ghost")  # no such attempt: the job raises AttemptNotFinished
    assert not enqueue_verify(q, "ghost")  # the deterministic id cannot be queued twice
    worker = start_worker(service_env(redis_url, SECRET.decode()), tmp_path / "worker.log")
    try:
        registry = FailedJobRegistry("verify", connection=q.connection, serializer=JSONSerializer)
        wait_for(lambda: job_id("ghost") in registry.get_job_ids(), timeout=60, interval=0.2)
    finally:
        worker.stop()
    job = Job.fetch(job_id("ghost"), connection=q.connection, serializer=JSONSerializer)
    assert job.retries_left == 0
    assert "AttemptNotFinished" in (job.latest_result().exc_string or "")  # type: ignore[union-attr]
    log = (tmp_path / "worker.log").read_text()
    assert log.count("exception raised while executing") == 3  # the first run and two retries
