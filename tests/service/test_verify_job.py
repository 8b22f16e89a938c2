"""The verification job's own Redis traffic (worker.jobs.verify_attempt), in process on real
redis-servers: at the reset hour every job is a round trip of the worker's time, so the job reads
the attempt once, records its verdict in one script, and looks for the day's par once a process
(the reconciler queues a lost par job again)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from flask import Flask

from service.dailies import par
from service.dailies.queue import queue
from service.reconcile import reconcile_par
from tests.support.api import resign_at_once
from tests.support.processes import service_env
from tests.support.servers import command_calls
from tests.support.service_app import SECRET as APP_SECRET
from tests.support.service_app import Clock
from worker import jobs

pytestmark = pytest.mark.integration


@pytest.fixture
def job_env(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The worker's environment for this test's servers, and a fresh worker context."""
    for name, value in service_env(redis_url, APP_SECRET.decode()).items():
        monkeypatch.setenv(name, value)
    jobs.context.cache_clear()
    jobs._days_par_asked.clear()
    yield
    jobs.context.cache_clear()
    jobs._days_par_asked.clear()


def test_a_job_reads_its_attempt_once_and_asks_for_the_days_par_once(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    qdb: redis.Redis[str],
    queue_url: str,
    job_env: None,
) -> None:
    ids = [resign_at_once(app.test_client(), clock.today, n)[0] for n in ("Ada", "Bob", "Cy", "Di")]
    par_job = f"rq:job:{par.job_id(clock.today)}"
    rankings_apart = rankings.info("server")["run_id"] != rdb.info("server")["run_id"]
    rdb.config_resetstat()
    assert jobs.verify_attempt(ids[0])["status"] == "verified"
    assert command_calls(rdb, "hgetall") == 1  # the attempt, read once
    assert command_calls(rdb, "watch") == 0  # the verdict: recorded and announced in one script
    assert command_calls(rdb, "eval") == (1 if rankings_apart else 2)  # (and the ranking's)
    assert qdb.exists(par_job)  # no par yet: its job is queued
    qdb.delete(par_job)  # and lost
    rankings.config_resetstat()
    assert jobs.verify_attempt(ids[1])["status"] == "verified"
    assert command_calls(rankings, "exists") == 0  # asked once a process: not looked for again
    assert not qdb.exists(par_job)
    # the reconciler's tick queues the lost par job again (service.reconcile.reconcile_par)
    assert reconcile_par(rdb, rankings, queue(queue_url, "verify")) == [clock.today]
    assert qdb.exists(par_job)
    par.store(rankings, clock.today, 0, 1)  # the par job ran
    jobs._days_par_asked.clear()  # a fresh process
    rankings.config_resetstat()
    assert jobs.verify_attempt(ids[2])["status"] == "verified"
    assert command_calls(rankings, "exists") == 1  # it looks once, finds the par stored ...
    assert jobs.verify_attempt(ids[3])["status"] == "verified"
    assert command_calls(rankings, "exists") == 1  # ... and never looks again
    assert command_calls(rdb, "hmget") == 0
