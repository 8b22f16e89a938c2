"""Security headers, JSON-only state changes (CSRF), rate limits and secret-free request logs."""

from __future__ import annotations

import datetime as dt
import io
import logging
import re

import redis
from flask.testing import FlaskClient

from engine import daily_seed
from service.common import keys
from service.web import caching
from service.web.logs import LOGGER
from tests.support.api import caller, start
from tests.support.player import play_to_end
from tests.support.service_app import SECRET, Clock, make_app


def test_security_headers_on_every_response(client: FlaskClient) -> None:
    for path in ("/api/daily", "/healthz", "/api/attempts/nope", "/api/openapi.json"):
        response = client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["Referrer-Policy"] == "no-referrer"
    # private API answers are never stored; a public read only for an anonymous caller
    assert client.get("/api/attempts/nope").headers["Cache-Control"] == "no-store"
    assert client.get("/api/daily").headers["Cache-Control"] == (
        "public, max-age=1, stale-while-revalidate=1"
    )
    with_token = client.get("/api/daily", headers={"Authorization": "Bearer x"})
    assert with_token.headers["Cache-Control"] == "no-store"


def test_cross_site_form_posts_are_refused(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    for ctype in ("application/x-www-form-urlencoded", "multipart/form-data", "text/plain"):
        response = client.post(
            f"/api/daily/{clock.today}/attempts", data="name=Eve", content_type=ctype
        )
        assert response.status_code == 415
        assert response.get_json()["error"]["code"] == "unsupported_media_type"
    assert rdb.keys(keys.attempt("*")) == []


def test_session_cookie_is_httponly_and_samesite(client: FlaskClient, clock: Clock) -> None:
    response = client.post(f"/api/daily/{clock.today}/attempts", json={"name": "Ada"})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_attempt_creation_is_rate_limited(
    redis_url: str, clock: Clock, rdb: redis.Redis[str]
) -> None:
    app = make_app(
        redis_url, clock, PIKDAME_LIMITS_ENABLED=True, PIKDAME_LIMIT_ATTEMPTS="2 per hour"
    )
    statuses = []
    for i in range(3):
        other = app.test_client()  # new players from the same address
        statuses.append(
            other.post(f"/api/daily/{clock.today}/attempts", json={"name": f"P{i}"}).status_code
        )
    assert statuses == [201, 201, 429]
    limited = app.test_client().post(f"/api/daily/{clock.today}/attempts", json={"name": "Q"})
    assert limited.get_json()["error"]["code"] == "rate_limited"
    assert app.test_client().get("/api/daily").status_code == 200  # other endpoints unaffected
    assert len(rdb.keys(keys.attempt("*"))) == 2


def test_logs_are_json_lines_without_tokens_views_or_seeds(
    client: FlaskClient, clock: Clock
) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logging.getLogger(LOGGER).addHandler(handler)
    try:
        attempt, token = start(client, clock.today)
        final = play_to_end(caller(client, token), attempt["id"])
        client.get(f"/api/attempts/{attempt['id']}/log")
    finally:
        logging.getLogger(LOGGER).removeHandler(handler)
    import json

    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) > 20 and all({"method", "path", "status", "ms"} <= set(x) for x in lines)
    text = stream.getvalue()
    assert token not in text
    assert daily_seed(SECRET, clock.today).hex() not in text
    assert final["view"]["hand"][0] not in json.dumps([x["path"] for x in lines])
    assert '"hand"' not in text and "Bearer" not in text


def test_moves_are_rate_limited_per_attempt(
    redis_url: str, clock: Clock, rdb: redis.Redis[str]
) -> None:
    app = make_app(
        redis_url, clock, PIKDAME_LIMITS_ENABLED=True, PIKDAME_LIMIT_MOVES="2 per minute"
    )
    client = app.test_client()
    attempt, _ = start(client, clock.today)
    other, other_token = start(app.test_client(), clock.today, "Bob")
    path = f"/api/attempts/{attempt['id']}/moves"
    assert client.post(path, json={"move": "draw", "seq": 0}).status_code == 200
    assert client.post(path, json={"move": "draw", "seq": 0}).status_code == 409
    limited = client.post(path, json={"move": "draw", "seq": 1})
    assert limited.status_code == 429
    assert rdb.hget(keys.attempt(attempt["id"]), "seq") == "1"
    # another attempt from the same address has its own budget
    moved = app.test_client().post(
        f"/api/attempts/{other['id']}/moves",
        json={"move": "draw", "seq": 0},
        headers={"Authorization": f"Bearer {other_token}"},
    )
    assert moved.status_code == 200


def test_request_ids_are_echoed_and_logged(client: FlaskClient) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logging.getLogger(LOGGER).addHandler(handler)
    try:
        given = client.get("/api/daily", headers={"X-Request-ID": "abc-123"})
        made = client.get("/api/daily", headers={"X-Request-ID": "bad id {}"})
    finally:
        logging.getLogger(LOGGER).removeHandler(handler)
    assert given.headers["X-Request-ID"] == "abc-123"
    # a made id of its own: 32 hex digits (which may spell "bad" by chance), never the one given
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["X-Request-ID"])
    assert '"request_id":"abc-123"' in stream.getvalue()
    assert "bad id" not in stream.getvalue()


def test_limits_see_the_client_behind_the_proxy(
    redis_url: str, clock: Clock, rdb: redis.Redis[str]
) -> None:
    app = make_app(
        redis_url,
        clock,
        PIKDAME_LIMITS_ENABLED=True,
        PIKDAME_LIMIT_ATTEMPTS="1 per hour",
        PIKDAME_PROXIES="127.0.0.1",
    )
    path = f"/api/daily/{clock.today}/attempts"

    def post(address: str) -> int:
        headers = {"X-Forwarded-For": address}
        return app.test_client().post(path, json={"name": address}, headers=headers).status_code

    assert [post("203.0.113.1"), post("203.0.113.1"), post("203.0.113.2")] == [201, 429, 201]


def test_a_day_bound_public_read_is_never_kept_past_the_days_change(
    client: FlaskClient, clock: Clock
) -> None:
    """A day's documents change at its end (today's becomes the next day's) and its close (the
    seed): a shared cache is told to keep them, stale-while-revalidate included, only as long as
    the micro-cache and then a browser may keep them before then, on the app's clock; in the
    last seconds not at all (below). The all-time board has no day; a
    closed day's document changes at no day's change."""
    day = clock.today
    long = "public, max-age=1, stale-while-revalidate=1"
    end = dt.datetime.combine(dt.date.fromisoformat(day), dt.time(), dt.UTC) + dt.timedelta(1)
    cases = [
        (
            end - dt.timedelta(seconds=5.5),
            "/api/daily",
            "public, max-age=1, stale-while-revalidate=1",
        ),
        (end - dt.timedelta(seconds=3.5), "/api/daily", "public, max-age=1"),
        (end - dt.timedelta(seconds=1.5), "/api/daily", "no-store"),
        (end - dt.timedelta(seconds=0.5), "/api/daily", "no-store"),
        (end - dt.timedelta(seconds=0.5), f"/api/leaderboard/{day}", "no-store"),
        (end - dt.timedelta(seconds=0.5), "/api/days", "no-store"),
        (end - dt.timedelta(seconds=0.5), "/api/daily/2026-11-01", long),
        (
            end - dt.timedelta(seconds=0.5),
            "/api/leaderboard/all-time",
            "public, max-age=1, stale-while-revalidate=1",
        ),
        # the next day, in the day's grace: its close (120 minutes) bounds every day-bound read
        (
            end + dt.timedelta(minutes=120, seconds=-5.5),
            f"/api/daily/{day}",
            "public, max-age=1, stale-while-revalidate=1",
        ),
        (end + dt.timedelta(minutes=120, seconds=-3.5), f"/api/daily/{day}", "public, max-age=1"),
        (end + dt.timedelta(minutes=120, seconds=-2.5), f"/api/daily/{day}", "no-store"),
        (end + dt.timedelta(minutes=120, seconds=-0.5), "/api/daily", "no-store"),
        (
            end + dt.timedelta(minutes=120, seconds=0.5),
            f"/api/daily/{day}",
            "public, max-age=1, stale-while-revalidate=1",
        ),
    ]
    for moment, path, expected in cases:
        clock.moment = moment
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.get_json())
        assert answer.headers["Cache-Control"] == expected, (moment, path)


def held(control: str) -> int:
    """The seconds a cache may answer with a response saying ``control``: max-age plus
    stale-while-revalidate (0: not to be stored)."""
    if "public" not in control:
        return 0
    found = dict(re.findall(r"([a-z-]+)=(\d+)", control))
    return int(found.get("max-age", 0)) + int(found.get("stale-while-revalidate", 0))


def test_a_day_bound_read_held_by_nginx_then_a_browser_ends_by_the_change(
    client: FlaskClient, clock: Clock
) -> None:
    """Defect: nginx's cache answered with "max-age=1, stale-while-revalidate=1" in the day's last
    second, and a browser then kept yesterday's challenge until about 1.8 s after midnight. nginx
    sends a stored answer's Cache-Control as the app wrote it (no Age), so a browser's hold starts
    where nginx's ends, and nginx counts its hold in whole seconds of its clock (up to
    NGINX_LATE_S past). So an answer of moment m holding h seconds is gone from every cache by
    m + h + NGINX_LATE_S + h: on the tests' clock, that never passes the change (midnight, and
    the day's close in the next day's grace), at any moment of the last seconds before it."""
    day = clock.today
    end = dt.datetime.combine(dt.date.fromisoformat(day), dt.time(), dt.UTC) + dt.timedelta(1)
    close = end + dt.timedelta(minutes=120)
    cases = [(end, "/api/daily"), (end, f"/api/leaderboard/{day}"), (close, f"/api/daily/{day}")]
    for change, path in cases:
        for tenth in range(80, 0, -1):  # every tenth of a second of the last eight
            clock.moment = change - dt.timedelta(seconds=tenth / 10)
            answer = client.get(path)
            assert answer.status_code == 200, (path, answer.get_json())
            hold = held(answer.headers["Cache-Control"])
            gone = clock.moment + dt.timedelta(seconds=2 * hold + caching.NGINX_LATE_S)
            assert hold == 0 or gone <= change, (clock.moment, path, hold)
        clock.moment = change - dt.timedelta(seconds=8)
        assert held(client.get(path).headers["Cache-Control"]) == 2  # cached as long as may be
