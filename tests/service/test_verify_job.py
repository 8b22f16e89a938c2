"""The verification job's own Redis traffic (worker.jobs.verify_attempt), in process on real
redis-servers: at the reset hour every job is a round trip of the worker's time, so the job reads
the attempt once and looks for the day's par only until it has seen it stored."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from flask import Flask

from service.dailies import par
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
    jobs._days_with_par.clear()
    yield
    jobs.context.cache_clear()
    jobs._days_with_par.clear()


def test_a_job_reads_its_attempt_once_and_the_days_par_until_it_is_stored(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    qdb: redis.Redis[str],
    job_env: None,
) -> None:
    ids = [resign_at_once(app.test_client(), clock.today, n)[0] for n in ("Ada", "Bob", "Cy", "Di")]
    par_job = f"rq:job:{par.job_id(clock.today)}"
    rdb.config_resetstat()
    assert jobs.verify_attempt(ids[0])["status"] == "verified"
    assert command_calls(rdb, "hgetall") == 2  # the attempt, then again under the verdict's WATCH
    assert qdb.exists(par_job)  # no par yet: its job is queued
    qdb.delete(par_job)  # and lost
    assert jobs.verify_attempt(ids[1])["status"] == "verified"
    assert qdb.exists(par_job)  # still no par: looked for again, and queued again
    par.store(rankings, clock.today, 0, 1)  # the par job ran
    rankings.config_resetstat()
    assert jobs.verify_attempt(ids[2])["status"] == "verified"
    assert command_calls(rankings, "exists") == 1  # seen stored once ...
    assert jobs.verify_attempt(ids[3])["status"] == "verified"
    assert command_calls(rankings, "exists") == 1  # ... and never looked for again
    assert command_calls(rdb, "hmget") == 0
