"""Any date, any hour: the app's clock is the only one that says what day it is.

Redis counts an expiry's seconds and RQ's scheduler a job's wait on the system's clock; the app
only ever hands them durations measured on its own clock (service.dailies.store.Expiry,
service.tables.timers.schedule). Here the app's clock stands decades away from the real one, behind
it and ahead of it, a minute before midnight UTC and inside a closed day's grace, and every expiry
and schedule still falls where the app's clock says it should.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import time
from typing import Any

import pytest
import redis
from flask import Flask

from service.common import clock as service_clock
from service.common import keys
from service.tables import timers
from service.web.redisconn import settings_of
from tests.support.api import start
from tests.support.service_app import SECRET, Clock, make_app
from worker.verify import verify

# Decades behind and ahead of any real date, each a minute before its day ends (the tests then
# step into the day's grace: past 24:00 UTC, before the close).
MOMENTS = {
    "behind": dt.datetime(2001, 3, 4, 23, 59, tzinfo=dt.UTC),
    "ahead": dt.datetime(2090, 7, 8, 23, 59, tzinfo=dt.UTC),
}


@pytest.fixture(params=list(MOMENTS), ids=list(MOMENTS))
def far(request: pytest.FixtureRequest) -> Clock:
    return Clock(MOMENTS[request.param])


@pytest.fixture
def app(redis_url: str, rdb: redis.Redis[str], far: Clock) -> Flask:
    return make_app(redis_url, far, PIKDAME_LAUNCH_DATE=far.today)


def left_s(client: redis.Redis[str], key: str) -> int:
    """The whole seconds a key was given (its PTTL rounded up: what ran since is under one)."""
    left_ms = client.pttl(key)
    assert left_ms > 0, (key, left_ms)
    return -(-left_ms // 1000)


def token_key(token: str) -> str:
    return keys.token(hashlib.sha256(token.encode()).hexdigest())


def test_a_ranked_attempt_lives_by_the_apps_clock(
    app: Flask, far: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """The token of a ranked attempt lasts until a day after its day closed, counted from the
    app's now; through the grace the owner still moves, is refused a second attempt (with the
    cookie and with only the token) and reads the verdict."""
    day = far.today
    client = app.test_client()
    attempt, token = start(client, day)
    closes = service_clock.closes_at(day, settings_of(app))
    until = closes + dt.timedelta(days=1)
    assert far() + dt.timedelta(seconds=left_s(rdb, token_key(token))) == until
    assert rdb.ttl(keys.attempt(attempt["id"])) == -1  # kept for the archive

    far.advance(hours=1)  # past 24:00 UTC, inside the grace: the day is over, not closed
    assert far.today != day and not service_clock.is_closed(day, settings_of(app))
    again = client.post(f"/api/daily/{day}/attempts", json={"name": "Ada2"})
    assert again.status_code in (403, 409), again.get_json()
    bearer: dict[str, Any] = {"Authorization": f"Bearer {token}"}
    fresh = app.test_client()
    by_token = fresh.post(f"/api/daily/{day}/attempts", json={"name": "Ada3"}, headers=bearer)
    assert by_token.status_code in (403, 409), by_token.get_json()
    assert by_token.get_json()["error"]["code"] != "unauthorized"
    moved = fresh.post(
        f"/api/attempts/{attempt['id']}/moves",
        json={"move": "resign", "seq": attempt["seq"]},
        headers=bearer,
    )
    assert moved.status_code == 200, moved.get_json()
    assert verify(rdb, attempt["id"], SECRET, rankings)["status"] == "verified"
    read = fresh.get(f"/api/attempts/{attempt['id']}", headers=bearer)
    assert read.status_code == 200, read.get_json()
    assert read.get_json()["attempt"]["verification"]["status"] == "verified"


def test_a_practice_attempt_lives_the_keep_days(
    app: Flask, far: Clock, rdb: redis.Redis[str]
) -> None:
    day = far.today
    far.advance(hours=3)  # the day closed (24:00 + the grace): its practice opens
    response = app.test_client().post(f"/api/daily/{day}/practice", json={"name": "Ada"})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    keep = settings_of(app).keep_days * 86400
    assert left_s(rdb, keys.attempt(body["attempt"]["id"])) == keep
    assert left_s(rdb, token_key(body["token"])) == keep


def test_a_turn_timer_is_due_its_seconds_from_now_on_the_schedulers_clock(
    app: Flask, far: Clock, qdb: redis.Redis[str]
) -> None:
    """A 30-second turn timer set on a far clock is due 30 seconds from the system's now in RQ's
    registry and in the scheduler's own index, not decades away (or long overdue)."""
    client = app.test_client()
    made = client.post(
        "/api/tables",
        json={
            "name": "Ada",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}],
            "rules": {"turn_timer": 30},
        },
    )
    assert made.status_code == 201, made.get_json()
    table_id = made.get_json()["table"]["id"]
    before_ms = time.time() * 1000
    started = client.post(f"/api/tables/{table_id}/start", json={})
    after_ms = time.time() * 1000
    assert started.status_code == 200, started.get_json()
    shown = started.get_json()["table"]
    deadline = dt.datetime.fromisoformat(shown["deadline"].replace("Z", "+00:00"))
    assert deadline == far() + dt.timedelta(seconds=30)  # the app's clock, as clients see it
    queue = settings_of(app).table_queue
    due = qdb.zscore(timers.due_key(queue), timers.job_id(table_id, 0))
    assert due is not None and before_ms + 30_000 - 1 <= due <= after_ms + 30_000 + 1
    backstop = qdb.zscore(f"rq:scheduled:{queue}", timers.job_id(table_id, 0))
    assert backstop is not None and abs(backstop - (due / 1000)) <= 1
