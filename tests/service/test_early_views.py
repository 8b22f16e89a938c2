"""The attempt's view before Flask (service/dailies/early_views.py): an API client's unchanged copy
is confirmed (304), and the view its last move made is answered (200), by a WSGI middleware in one
round trip. Its answer must be Flask's answer: same status, headers, body and log line, the same
read counter; and it must never answer what Flask would refuse, nor confirm or send a view a move
or a verdict has made stale."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.dailies.early_views import EarlyViews
from service.web.logs import LOGGER
from tests.support.api import caller, start
from tests.support.gin_daily import play_gin_to_end
from tests.support.player import play_to_end
from tests.support.service_app import Clock, make_app


def bearer(token: str, tag: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}", "X-Request-ID": "same-id"}
    return headers if tag is None else {**headers, "If-None-Match": tag}


def around_early_views(app: Flask) -> Any:
    """The middleware whose next app is the early views (TrustedProxies, inside the requests'
    metrics: service.web.measure is outermost)."""
    outer: Any = app.wsgi_app
    while not isinstance(outer.app, EarlyViews):
        outer = outer.app
    return outer


@contextmanager
def flask_only(app: Flask) -> Iterator[None]:
    """The app without the middleware: Flask answers every request itself."""
    outer = around_early_views(app)
    front = outer.app
    outer.app = front.app
    try:
        yield
    finally:
        outer.app = front


@contextmanager
def flask_calls(app: Flask) -> Iterator[list[str]]:
    """The paths of the requests that reached Flask (the middleware left them to it)."""
    front = around_early_views(app).app
    assert isinstance(front, EarlyViews)
    inner, calls = front.app, []

    def counted(environ: Any, start_response: Any) -> Any:
        calls.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    front.app = counted
    try:
        yield calls
    finally:
        front.app = inner


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


def test_the_early_200_is_flasks_200(client: FlaskClient, app: Flask, clock: Clock) -> None:
    """After a move, the view it made is answered before Flask, byte for byte Flask's answer
    (status, headers in order, body, log line); Flask renders a view only when none of this
    version is stored."""
    attempt, token = start(client, clock.today)
    api = app.test_client(use_cookies=False)
    path = f"/api/attempts/{attempt['id']}"
    moved = api.post(f"{path}/moves", json={"move": "draw", "seq": 0}, headers=bearer(token))
    assert moved.status_code == 200
    with flask_calls(app) as calls, log_lines() as early_log:
        early = api.get(path, headers=bearer(token))
    assert calls == []  # the move stored its view: Flask never saw the read
    with flask_only(app), log_lines() as flask_log:
        late = api.get(path, headers=bearer(token))
    assert early.status_code == late.status_code == 200
    assert early.headers.to_wsgi_list() == late.headers.to_wsgi_list()
    assert early.data == late.data
    assert early.get_json()["attempt"] == moved.get_json()["attempt"]
    ((early_line,), (late_line,)) = early_log, flask_log
    for line in (early_line, late_line):
        del line["ts"], line["ms"]
    assert early_line == late_line
    # A stale tag is answered with the current view, early too.
    with flask_calls(app) as calls:
        stale = api.get(path, headers=bearer(token, '"stale"'))
    assert calls == [] and stale.status_code == 200 and stale.data == late.data


def test_a_view_not_stored_is_flasks_and_stored_after(
    client: FlaskClient, app: Flask, clock: Clock, rdb: redis.Redis[str]
) -> None:
    """No stored view (expired, or never rendered) or one of another version: Flask renders the
    current one, stores it, and the next read is answered early with it."""
    from service.common import keys

    attempt, token = start(client, clock.today)
    api = app.test_client(use_cookies=False)
    path = f"/api/attempts/{attempt['id']}"
    rdb.delete(keys.attempt_view(attempt["id"]))
    with flask_calls(app) as calls:
        first = api.get(path, headers=bearer(token))
        second = api.get(path, headers=bearer(token))
    assert calls == [path]
    assert first.status_code == second.status_code == 200 and first.data == second.data
    # A view stored for an earlier version is never sent: the tag decides.
    tag = first.headers["ETag"].strip('"')
    old = tag.replace(".0.", ".-1.")
    rdb.set(keys.attempt_view(attempt["id"]), f'{old}\n{{"attempt": "old"}}', ex=60)
    with flask_calls(app) as calls:
        third = api.get(path, headers=bearer(token))
    assert calls == [path] and third.data == first.data


def test_the_early_200_opens_nothing_flask_would_refuse(
    client: FlaskClient, app: Flask, clock: Clock, rdb: redis.Redis[str]
) -> None:
    """A stored view is the owner's: another player's token, no token, a session cookie of
    someone else get Flask's 403/401; a verified ranked attempt's view (its rank) is Flask's."""
    from service.common import keys

    attempt, token = start(client, clock.today)
    _, other = start(app.test_client(), clock.today, "Bob")
    api = app.test_client(use_cookies=False)
    path = f"/api/attempts/{attempt['id']}"
    assert api.get(path, headers=bearer(token)).status_code == 200  # stored now
    assert rdb.exists(keys.attempt_view(attempt["id"]))
    with flask_calls(app) as calls:
        assert api.get(path, headers=bearer(other)).status_code == 403
        assert api.get(path, headers={"Authorization": "Bearer x"}).status_code == 403
        assert api.get(path, headers={"Authorization": f"Token {token}"}).status_code == 401
        stranger = app.test_client()
        start(stranger, clock.today, "Cy")
        assert stranger.get(path).status_code == 403
    assert calls.count(path) == 4  # every one of them reached Flask
    rdb.hset(keys.attempt(attempt["id"]), "verification", "verified")
    with flask_calls(app) as calls:
        verified = api.get(path, headers=bearer(token))
    assert calls == [path] and verified.status_code == 200
    assert verified.headers["ETag"].endswith('.verified.-"')


@pytest.mark.parametrize("game", ["pikdame", "gin"])
def test_every_stored_view_is_the_view_flask_renders(
    client: FlaskClient, app: Flask, clock: Clock, game: str
) -> None:
    """A whole daily attempt of each game, move by move: the view the move stored (from the game
    just played, bots' face-down cards hidden) is byte for byte the view Flask renders from the
    stored record, and it is what the owner's next read gets, before Flask."""
    attempt, token = start(client, clock.today, game=game)
    api = app.test_client(use_cookies=False)
    path = f"/api/attempts/{attempt['id']}"
    inner = caller(api, token)
    compared = 0

    def call(method: str, url: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        nonlocal compared
        status, answer = inner(method, url, body)
        if method == "POST" and status == 200:
            with flask_calls(app) as calls:
                early = api.get(path, headers=bearer(token))
            with flask_only(app):
                late = api.get(path, headers=bearer(token))
            assert calls == [] and early.status_code == late.status_code == 200
            assert early.data == late.data
            assert early.get_json()["attempt"] == answer["attempt"]
            compared += 1
        return status, answer

    final = (
        play_to_end(call, attempt["id"])
        if game == "pikdame"
        else play_gin_to_end(call, attempt["id"])
    )
    assert final["status"] == "finished" and compared > 5


def test_a_browsers_moves_and_reads_store_no_view(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    """A browser plays and reads with its session cookie, through Flask, so a view stored for it
    would never be read: its moves and reads store none (they cost nothing more)."""
    from service.common import keys

    attempt, _ = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}"
    assert client.post(f"{path}/moves", json={"move": "draw", "seq": 0}).status_code == 200
    assert client.get(path).status_code == 200
    assert not rdb.exists(keys.attempt_view(attempt["id"]))
