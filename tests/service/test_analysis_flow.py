"""A finished daily attempt's analysis on the real stack: a real Redis, the steady worker that
verifies and the analysis worker serving the analyses' own queue (service.dailies.analyses).

The owner asks once the attempt is verified: 202 ``queued`` while the worker computes it, then
the document, cached per record and engine version; the real deal's analysis only after the day
has closed (F4: its seed is secret until then), and anyone's then, like replays. No answer before
the close holds the day's seed or its commitment (docs/ANALYSIS.md "What a document never holds").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.job import Job
from rq.serializers import JSONSerializer

from engine.gin.analysis import analyse as analyse_gin
from engine.pikdame.analysis import analyse
from service import games
from service.common import keys
from service.dailies import analyses, store
from service.web.redisconn import settings_of
from tests.support.api import caller, start
from tests.support.gin_daily import play_gin_to_end
from tests.support.player import play_to_end
from tests.support.processes import service_env, start_analysis_worker, start_worker, wait_for
from tests.support.service_app import SECRET, Clock

pytestmark = pytest.mark.integration


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.get_json()["error"]["code"]


def secrets_of(date: str) -> list[str]:
    """What must not leave the service before the close: the day's seed and its commitment."""
    seed = games.daily("pikdame").seed(SECRET, date)
    return [seed.hex(), games.daily("pikdame").day_facts(seed).get("commitment", seed.hex())]


def test_an_analysis_is_queued_computed_cached_and_served_by_the_rules(
    app: Flask,
    client: FlaskClient,
    clock: Clock,
    rdb: redis.Redis[str],
    redis_url: str,
    queue_url: str,
    tmp_path: Path,
) -> None:
    attempt, token = start(client, clock.today)
    aid = str(attempt["id"])
    path = f"/api/attempts/{aid}/analysis"
    stranger = app.test_client()
    assert client.get("/api/attempts/nosuchattempt/analysis").status_code == 404

    # never of a running game
    assert error(client.get(path)) == (409, "not_finished")
    assert play_to_end(caller(client, token), aid)["status"] == "finished"
    # finished but not verified yet (no worker runs)
    answer = client.get(path)
    assert error(answer) == (409, "not_verified")
    assert stranger.get(path).status_code in (401, 403)  # the owner's alone before the close
    for secret in secrets_of(clock.today):
        assert secret not in answer.get_data(as_text=True)

    env = service_env(redis_url, SECRET.decode())
    worker = start_worker(env, tmp_path / "worker.log")
    analyst = start_analysis_worker(env, tmp_path / "analysis.log")
    try:

        def verified() -> bool:
            stored = store.load(rdb, aid)
            return stored is not None and stored.verification == "verified"

        wait_for(verified)
        assert error(client.get(f"{path}?mode=deal")) == (409, "day_open")
        assert client.get(f"{path}?mode=other").status_code == 422
        first = client.get(path)
        if first.status_code == 202:  # the worker may already have answered
            assert first.get_json() == {"status": "queued"}
            job = Job.fetch(
                analyses.job_id(aid, "view", games.get("pikdame").engine_version),
                connection=redis.Redis.from_url(queue_url),  # RQ's keys: the queue role's
                serializer=JSONSerializer,
            )
            assert job.origin == "analysis"  # its own queue, never the verification's

        answer = wait_for(lambda: (r := client.get(path)).status_code == 200 and r, timeout=60)
        text = answer.get_data(as_text=True)
        for secret in secrets_of(clock.today):
            assert secret not in text
        doc = json.loads(text)
        stored = store.load(rdb, aid)
        assert stored is not None
        record = stored.daily.daily_record(stored.played, stored.daily.seed(SECRET, clock.today))
        assert doc == analyse(record, mode="view")  # the engine's document, unchanged
        engine = stored.daily.engine_version
        assert rdb.get(keys.analysis(aid, "view", engine)) == text  # cached: served from Redis
        assert stranger.get(path).status_code in (401, 403)

        # after the close: the real deal's analysis, and anyone's (like replays)
        clock.advance(days=2)
        assert stranger.get(path).get_data(as_text=True) == text
        deal = wait_for(
            lambda: (r := stranger.get(f"{path}?mode=deal")).status_code == 200 and r, timeout=60
        )
        assert deal.get_json() == analyse(record, mode="deal")
        assert rdb.get(keys.analysis(aid, "deal", engine)) is not None
    finally:
        worker.stop()
        analyst.stop()


def test_a_gin_attempts_analysis_is_its_first_hands_from_the_players_view(
    app: Flask, client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    """The job's work, in process: the adapter hands the record with its seed to Gin's engine
    (G6: the first hand, seat 0); the cached document holds no seed and is the engine's."""
    attempt, token = start(client, clock.today, game="gin")
    aid = str(attempt["id"])
    play_gin_to_end(caller(client, token), aid)
    assert analyses.compute(rdb, aid, "view", settings_of(app))
    stored = store.load(rdb, aid)
    assert stored is not None
    seed = stored.daily.seed(SECRET, clock.today)
    text = rdb.get(keys.analysis(aid, "view", stored.daily.engine_version))
    assert text is not None and seed.hex() not in text
    doc = json.loads(text)
    assert doc["format"] == "gin-analysis/1" and doc["seat"] == 0 and doc["mode"] == "view"
    assert doc == analyse_gin(stored.daily.daily_record(stored.played, seed), mode="view")
