"""The daily challenge documents (API.md: Daily challenge; FORMATS.md F4)."""

from __future__ import annotations

import hashlib

from flask.testing import FlaskClient

from engine import daily_seed
from tests.support.api import start
from tests.support.service_app import SECRET, Clock


def test_today_has_commitment_and_no_seed(client: FlaskClient, clock: Clock) -> None:
    body = client.get("/api/daily").get_json()
    seed = daily_seed(SECRET, clock.today)
    assert body["date"] == "2026-11-30"
    assert body["commitment"] == hashlib.sha256(seed).hexdigest()
    assert body["seed"] is None
    assert seed.hex() not in client.get("/api/daily").get_data(as_text=True)
    assert body["opens_at"] == "2026-11-30T00:00:00Z"
    assert body["closes_at"] == "2026-12-01T02:00:00Z"  # 24:00 + 120 minutes' grace
    assert body["rules"] == {"players": 4, "hand_out_double": True, "strict_1000": False}
    assert [s["kind"] for s in body["seats"]] == ["human", "bot", "bot", "bot"]
    assert body["attempts"] == 0


def test_seed_is_published_only_after_the_grace(client: FlaskClient, clock: Clock) -> None:
    day = clock.today
    clock.advance(hours=15, minutes=1)  # 00:01 next day: in the grace period
    assert client.get(f"/api/daily/{day}").get_json()["seed"] is None
    clock.advance(hours=2)  # 02:01: closed
    body = client.get(f"/api/daily/{day}").get_json()
    assert body["seed"] == daily_seed(SECRET, day).hex()
    assert hashlib.sha256(bytes.fromhex(body["seed"])).hexdigest() == body["commitment"]


def test_future_and_malformed_days_are_unknown(client: FlaskClient) -> None:
    for date in ("2026-12-01", "2027-01-01", "2026-13-01", "yesterday", "2026-11-30x"):
        response = client.get(f"/api/daily/{date}")
        assert response.status_code == 404, date
        assert response.get_json()["error"]["code"] == "unknown_day"


def test_attempt_count_and_archive_of_days(client: FlaskClient, clock: Clock) -> None:
    first = clock.today
    start(client, first)
    clock.advance(days=1)
    second = clock.today
    other = client.application.test_client()
    start(client, second)
    start(other, second, "Bob")
    assert client.get("/api/daily").get_json()["attempts"] == 2
    clock.advance(hours=16)  # 01:00 on the day after the second: its grace runs
    days = client.get("/api/days").get_json()["days"]
    assert [(d["date"], d["attempts"]) for d in days] == [(second, 2), (first, 1)]
    assert days[1]["seed"] == daily_seed(SECRET, first).hex()
    assert days[0]["seed"] is None  # still in its grace
    limited = client.get(f"/api/days?before={second}&limit=1").get_json()["days"]
    assert [d["date"] for d in limited] == [first]
    bad = client.get("/api/days?limit=0")
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "bad_value"


def test_bad_query_values_are_422(client: FlaskClient, clock: Clock) -> None:
    for query in ("limit=--5", "limit=abc", "limit=101", "limit=1e3", "offset=-1", "limit=٣"):
        response = client.get(f"/api/leaderboard/{clock.today}?{query}")
        assert response.status_code == 422, query
        assert response.get_json()["error"]["code"] == "bad_value"
    assert client.get(f"/api/leaderboard/{clock.today}?limit=100").status_code == 200
