"""The daily habit on the real stack: gunicorn, a real Redis and a stock ``rq worker``.

The first verified attempt of a day enqueues the bot's par job (worker.jobs.compute_par); the
worker computes it once and the finished player's place shows it, while a player still at the
table never sees it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis

from engine import daily_seed
from service.data import keys, par, queue
from tests.support.player import play_to_end
from tests.support.processes import WEB_SECRET, WebServer, service_env, start_worker, wait_for
from worker import par as par_job

pytestmark = pytest.mark.integration
SECRET = WEB_SECRET  # the web fixture's (tests/service/conftest.py)
QUEUE = "verify"  # PIKDAME_QUEUE's default


def test_par_job_runs_once_and_shows_only_after_the_end(
    web: WebServer, redis_url: str, rdb: redis.Redis[str], tmp_path: Path
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
        outcome = par_job.bot_game(daily_seed(SECRET.encode(), date)).state.outcome
        assert outcome is not None and doc["par"]["score"] == outcome.round_scores[0]
        # The job's id is the day's: enqueueing again while it exists changes nothing, and a
        # second computation reads the stored par.
        assert par.read(rdb, date) == doc["par"]
        assert rdb.exists(keys.par(date))
        assert queue.enqueue_par(queue.queue(redis_url, QUEUE), date) is False
        bob, bob_token = started["Bob"]
        for path in (f"/api/attempts/{bob}", f"/api/attempts/{bob}/place", "/api/me/stats"):
            status, body = web.call("GET", path, None, bob_token)
            assert '"par"' not in str(body).replace("'", '"'), (path, body)
    finally:
        worker.stop()
