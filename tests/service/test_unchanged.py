"""The 304 before Flask (service/dailies/unchanged.py): an API client's unchanged copy of its
attempt's view is confirmed by a WSGI middleware in one round trip. Its answer must be Flask's
answer: same status, headers and log line, the same read counter; and it must never answer what
Flask would refuse, nor confirm a copy a move has made stale."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from service.dailies.unchanged import UnchangedViews
from service.web.logs import LOGGER
from tests.support.api import start
from tests.support.service_app import Clock, make_app


def bearer(token: str, tag: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}", "X-Request-ID": "same-id"}
    return headers if tag is None else {**headers, "If-None-Match": tag}


@contextmanager
def flask_only(app: Flask) -> Iterator[None]:
    """The app without the middleware: Flask answers every request itself."""
    front = app.wsgi_app.app  # type: ignore[attr-defined]  # TrustedProxies' next app
    assert isinstance(front, UnchangedViews)
    app.wsgi_app.app = front.app  # type: ignore[attr-defined]
    try:
        yield
    finally:
        app.wsgi_app.app = front  # type: ignore[attr-defined]


@contextmanager
def log_lines() -> Iterator[list[dict[str, Any]]]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logging.getLogger(LOGGER).addHandler(handler)
    lines: list[dict[str, Any]] = []
    try:
        yield lines
    finally:
        logging.getLogger(LOGGER).removeHandler(handler)
        lines += [json.loads(line) for line in stream.getvalue().splitlines()]


def test_the_early_304_is_flasks_304(client: FlaskClient, app: Flask, clock: Clock) -> None:
    attempt, token = start(client, clock.today)
    api = app.test_client(use_cookies=False)
    path = f"/api/attempts/{attempt['id']}"
    tag = api.get(path, headers=bearer(token)).headers["ETag"]
    with log_lines() as early_log:
        early = api.get(path, headers=bearer(token, tag))
    with flask_only(app), log_lines() as flask_log:
        late = api.get(path, headers=bearer(token, tag))
    assert early.status_code == late.status_code == 304
    assert early.headers.to_wsgi_list() == late.headers.to_wsgi_list()
    assert early.data == late.data == b""
    ((early_line,), (late_line,)) = early_log, flask_log
    for line in (early_line, late_line):
        del line["ts"], line["ms"]
    assert early_line == late_line


def test_what_flask_refuses_the_middleware_leaves_to_it(
    client: FlaskClient, app: Flask, clock: Clock
) -> None:
    """Someone else's token, a malformed header, a made-up id: Flask's 403, 401, 404 (with
    the right tag in hand); a session cookie's reader is Flask's too (its 304)."""
    attempt, token = start(client, clock.today)
    _, other = start(app.test_client(), clock.today, "Bob")
    api = app.test_client(use_cookies=False)
    path = f"/api/attempts/{attempt['id']}"
    tag = api.get(path, headers=bearer(token)).headers["ETag"]
    assert api.get(path, headers=bearer(other, tag)).status_code == 403
    assert api.get(path, headers={"If-None-Match": tag}).status_code == 401
    broken = {"If-None-Match": tag, "Authorization": f"Token {token}"}
    assert api.get(path, headers=broken).status_code == 401
    assert api.get("/api/attempts/0000000000000000", headers=bearer(token, tag)).status_code == 404
    assert client.get(path, headers={"If-None-Match": tag}).status_code == 304


def test_a_move_makes_the_tag_stale_at_once(client: FlaskClient, app: Flask, clock: Clock) -> None:
    attempt, token = start(client, clock.today)
    api = app.test_client(use_cookies=False)
    path = f"/api/attempts/{attempt['id']}"
    tag = api.get(path, headers=bearer(token)).headers["ETag"]
    assert api.get(path, headers=bearer(token, tag)).status_code == 304
    moved = api.post(f"{path}/moves", json={"move": "draw", "seq": 0}, headers=bearer(token))
    assert moved.status_code == 200
    after = api.get(path, headers=bearer(token, tag))
    assert after.status_code == 200 and after.headers["ETag"] != tag
    assert after.get_json()["attempt"] == moved.get_json()["attempt"]
    assert api.get(path, headers=bearer(token, after.headers["ETag"])).status_code == 304


def test_the_early_304_counts_the_read_once(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    """The middleware's count is the read's count: a request it leaves to Flask is not
    counted twice, and the limit's 429 is Flask's own (with its headers)."""
    app = make_app(redis_url, clock, PIKDAME_LIMITS_ENABLED=True, PIKDAME_LIMIT_DEFAULT="3/minute")
    attempt, token = start(app.test_client(), clock.today)
    api = app.test_client(use_cookies=False)
    path = f"/api/attempts/{attempt['id']}"
    first = api.get(path, headers=bearer(token))  # 1 (no tag: Flask)
    tag = first.headers["ETag"]
    assert api.get(path, headers=bearer(token, '"stale"')).status_code == 200  # 2 (left to Flask)
    assert api.get(path, headers=bearer(token, tag)).status_code == 304  # 3 (early)
    limited = api.get(path, headers=bearer(token, tag))
    assert limited.status_code == 429
    assert limited.headers["X-RateLimit-Limit"] == "3" and "Retry-After" in limited.headers


def test_a_verified_attempts_tag_holds_its_rank(
    client: FlaskClient, app: Flask, clock: Clock, rdb: redis.Redis[str]
) -> None:
    """A verified ranked attempt's tag carries its rank, read from the rankings by Flask: the
    middleware leaves it alone, and the tag still confirms an unchanged copy."""
    from service.common import keys

    attempt, token = start(client, clock.today)
    rdb.hset(keys.attempt(attempt["id"]), "verification", "verified")
    api = app.test_client(use_cookies=False)
    path = f"/api/attempts/{attempt['id']}"
    tag = api.get(path, headers=bearer(token)).headers["ETag"]
    assert tag.endswith('.verified.-"')  # not on the board: no rank
    assert api.get(path, headers=bearer(token, tag)).status_code == 304


def test_the_early_304_is_flasks_304_with_limits_on(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    """With limits on, Flask's read counter looks at the session (Vary: Cookie): so does the
    middleware's answer."""
    app = make_app(redis_url, clock, PIKDAME_LIMITS_ENABLED=True)
    attempt, token = start(app.test_client(), clock.today)
    api = app.test_client(use_cookies=False)
    path = f"/api/attempts/{attempt['id']}"
    tag = api.get(path, headers=bearer(token)).headers["ETag"]
    early = api.get(path, headers=bearer(token, tag))
    with flask_only(app):
        late = api.get(path, headers=bearer(token, tag))
    assert early.status_code == late.status_code == 304
    assert early.headers.to_wsgi_list() == late.headers.to_wsgi_list()
    assert ("Vary", "Cookie") in early.headers.to_wsgi_list()
