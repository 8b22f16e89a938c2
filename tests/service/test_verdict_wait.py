"""Waiting for the verification verdict in one request: the end-of-game page asks
``GET /api/attempts/{id}/verification?wait=S`` instead of polling every second."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.common import keys
from service.dailies.verdicts import Waiters, wait
from tests.support.api import caller, start
from tests.support.player import play_to_end
from tests.support.processes import Process, service_env, start_web, start_worker, wait_for
from tests.support.service_app import SECRET, Clock, make_app
from worker.verify import verify


def finished(client: FlaskClient, clock: Clock) -> tuple[str, str]:
    """A ranked attempt played to its end: its verification is queued (no worker runs here)."""
    attempt, token = start(client, clock.today)
    final = play_to_end(caller(client), attempt["id"])
    assert final["verification"]["status"] == "queued"
    return attempt["id"], token


def verification(client: FlaskClient, attempt_id: str, query: str = "") -> Any:
    response = client.get(f"/api/attempts/{attempt_id}/verification{query}")
    assert response.status_code == 200, response.get_json()
    return response


def test_the_wait_ends_with_the_verdict(
    app: Flask, client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    attempt_id, _ = finished(client, clock)
    waiters: Waiters = app.extensions["verdict_waiters"]

    def verify_while_waited_for() -> None:
        while waiters.waiting == 0:  # the request below is waiting
            threading.Event().wait(0.01)
        verify(rdb, attempt_id, SECRET, rankings)

    judge = threading.Thread(target=verify_while_waited_for)
    judge.start()
    response = verification(client, attempt_id, "?wait=25")
    judge.join()
    verdict = response.get_json()["verification"]
    assert verdict["status"] == "verified" and verdict["rank"] == 1
    assert (
        verdict == client.get(f"/api/attempts/{attempt_id}").get_json()["attempt"]["verification"]
    )
    assert "Retry-After" not in response.headers
    assert waiters.waiting == 0


def test_the_wait_ends_queued_after_its_seconds(client: FlaskClient, clock: Clock) -> None:
    attempt_id, _ = finished(client, clock)
    response = verification(client, attempt_id, "?wait=1")
    assert response.get_json() == {
        "verification": {
            "status": "queued",
            "score": None,
            "turns": None,
            "rank": None,
            "reason": None,
        }
    }
    assert "Retry-After" not in response.headers


def test_without_wait_or_without_a_queued_verdict_it_answers_at_once(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    attempt, _ = start(client, clock.today)
    # Still playing: nothing to wait for (null, as A.verification), whatever wait says.
    assert verification(client, attempt["id"], "?wait=25").get_json() == {"verification": None}
    play_to_end(caller(client), attempt["id"])
    assert verification(client, attempt["id"]).get_json()["verification"]["status"] == "queued"
    verify(rdb, attempt["id"], SECRET, rankings)
    assert (
        verification(client, attempt["id"], "?wait=25").get_json()["verification"]["status"]
        == "verified"
    )
    practice = client.post("/api/daily/2026-11-20/practice", json={"name": "Ada"}).get_json()
    play_to_end(caller(client), practice["attempt"]["id"])
    assert verification(client, practice["attempt"]["id"], "?wait=25").get_json() == {
        "verification": None
    }


def test_when_too_many_wait_it_answers_at_once_with_retry_after(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    """The cap on waiting requests per process (a waiter holds a gthread thread): past it the
    answer comes at once, with Retry-After, instead of taking the thread."""
    client = make_app(redis_url, clock, PIKDAME_VERDICT_WAITERS=0).test_client()
    attempt_id, _ = finished(client, clock)
    response = verification(client, attempt_id, "?wait=25")
    assert response.get_json()["verification"]["status"] == "queued"
    assert int(response.headers["Retry-After"]) >= 1


def test_same_readers_as_the_attempt(client: FlaskClient, clock: Clock) -> None:
    attempt_id, token = finished(client, clock)
    path = f"/api/attempts/{attempt_id}/verification"
    stranger = client.application.test_client()
    assert stranger.get(path).status_code == 401
    start(stranger, clock.today, "Bob")
    assert stranger.get(path).status_code == 403
    assert stranger.get(path, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    unknown = client.get("/api/attempts/0123456789abcdef/verification?wait=1")
    assert unknown.status_code == 404
    assert unknown.get_json()["error"]["code"] == "unknown_attempt"


def test_wait_is_bounded(client: FlaskClient, clock: Clock) -> None:
    """0 ≤ wait ≤ 25 (422 bad_value), checked after the attempt's 404 and 401 (API.md order)."""
    attempt_id, _ = finished(client, clock)
    for query in ("?wait=26", "?wait=-1", "?wait=x", "?wait=1.5"):
        response = client.get(f"/api/attempts/{attempt_id}/verification{query}")
        assert response.status_code == 422, query
        assert response.get_json()["error"]["code"] == "bad_value"
    stranger = client.application.test_client()
    assert stranger.get(f"/api/attempts/{attempt_id}/verification?wait=26").status_code == 401
    assert client.get("/api/attempts/0123456789abcdef/verification?wait=99").status_code == 404


@pytest.mark.integration
def test_under_gunicorn_the_wait_brings_a_real_workers_verdict(
    redis_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    """gunicorn's gthread workers and a stock ``rq worker`` started once the round is over: one
    waiting request brings the verdict (no polling by the client)."""
    env = service_env(redis_url, SECRET.decode())
    web = start_web(env, tmp_path / "web.log")
    workers: list[Process] = []
    try:
        status, day = web.call("GET", "/api/daily", None)
        status, created = web.call("POST", f"/api/daily/{day['date']}/attempts", {"name": "Ada"})
        assert status == 201, created
        attempt_id, token = created["attempt"]["id"], created["token"]

        def call(method: str, path: str, body: Any) -> tuple[int, Any]:
            return web.call(method, path, body, token)

        final = play_to_end(call, attempt_id)
        assert final["verification"]["status"] == "queued"
        starter = threading.Thread(
            target=lambda: workers.append(start_worker(env, tmp_path / "worker.log"))
        )
        starter.start()
        status, answer = web.call(
            "GET", f"/api/attempts/{attempt_id}/verification?wait=25", None, token
        )
        starter.join()
        assert status == 200
        assert answer["verification"]["status"] == "verified"
        assert answer["verification"]["score"] == final["view"]["outcome"]["round_scores"][0]
    finally:
        for worker in workers:
            worker.stop()
        web.process.stop()


def waited(rdb: redis.Redis[str], attempt_id: str, **pauses: float) -> threading.Thread:
    """verdicts.wait for up to ten minutes in a thread (a request's wait, minus the route)."""
    thread = threading.Thread(target=wait, args=(rdb, attempt_id, 600), kwargs=pauses)
    thread.start()
    return thread


def subscribed(rdb: redis.Redis[str], attempt_id: str) -> bool:
    channel = keys.verdict_channel(attempt_id)
    return bool(dict(rdb.pubsub_numsub(channel)).get(channel))


def test_the_wait_is_woken_by_the_verifiers_announcement(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """The verifier publishes the verdict on ``pd:verdict:<id>`` and the wait subscribes: with
    re-reads ten minutes apart, only the announcement can end this wait."""
    attempt_id, _ = finished(client, clock)
    thread = waited(rdb, attempt_id, first_pause=600, longest_pause=600)
    wait_for(lambda: subscribed(rdb, attempt_id))
    verify(rdb, attempt_id, SECRET, rankings)
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert not subscribed(rdb, attempt_id)  # the subscription ends with the wait


def test_a_lost_announcement_is_caught_by_the_re_read(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    """A verdict recorded without an announcement (lost, or an older worker's) still ends the
    wait: the field is re-read at least once a second."""
    attempt_id, _ = finished(client, clock)
    thread = waited(rdb, attempt_id)
    wait_for(lambda: subscribed(rdb, attempt_id))
    rdb.hset(keys.attempt(attempt_id), "verification", "rejected")  # no PUBLISH
    thread.join(timeout=60)
    assert not thread.is_alive()
