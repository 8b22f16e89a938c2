"""The attempt's view before Flask: an API client's read of its own attempt in one round trip.

A client reads its attempt's view (``GET /api/attempts/{id}`` with its bearer token) after a
reload or while it polls: mostly the view it has (304) or the one its last move made. Through
Flask that answer cost three times a bare endpoint (routing, the request context, nine hooks, the
models' validation: cProfile and bench/results/front.md); the goal is half of a bare endpoint's
rate. This WSGI middleware answers exactly those cases itself, with the answer Flask gives (same
status, headers in the same order, the same body, the same request log line, the same read
counter):

- one pipelined round trip: the read's rate-limit count (service.web.limits' key for
  ``attempts.get_attempt``), the attempt's head (service.dailies.store.HEAD_FIELDS) and its
  stored view (service.dailies.store.save_view: rendered by the move that made it, or by
  Flask's last 200);
- only when the bearer token is the attempt's own, and not for a verified ranked attempt
  (its tag and view hold its rank, which Flask reads from the rankings: :func:`answers`);
- 304 when the client's tag is the current one (service.dailies.present.version_tag); 200 with
  the stored body when the stored view is the current version's.

Everything else goes on to Flask untouched, with the count already taken (``PRECOUNTED``): no
credentials or someone else's (401/403), a session cookie (its player, account and generation
are Flask's to read), no stored view of this version (Flask renders and stores it), a breached
limit (429), an unknown attempt, Redis errors. The test suite compares these answers with
Flask's (tests/service/test_early_views.py).
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any, Final

import redis
from flask import Flask
from werkzeug.http import parse_etags, quote_etag

from service.common import keys
from service.common.config import Settings
from service.dailies import store
from service.dailies.present import version_tag
from service.web import logs
from service.web.inputs import MAX_ID
from service.web.limits import PRECOUNTED, address_of, read_window
from service.web.proxies import front_adds_headers
from service.web.redisconn import EXTENSION
from service.web.security import HEADERS

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

ENDPOINT: Final = "attempts.get_attempt"  # the Flask route it stands in front of
PATH: Final = re.compile(rf"/api/attempts/([A-Za-z0-9_-]{{1,{MAX_ID}}})")
_SECURITY: Final = list(HEADERS.items())


def answers(attempt: store.Attempt | store.AttemptHead) -> bool:
    """Whether this middleware may answer for the attempt: not once verified and ranked (the rank
    in its tag and view is Flask's to read)."""
    return not (attempt.ranked and attempt.verification == "verified")


def asks_early(authorization: str | None, cookie: str | None) -> bool:
    """Whether a request with these headers is one this middleware may answer: a bearer token
    and no session cookie. The routes store a view only for such a client (a browser's pages
    read with their session cookie, through Flask, and would never read it)."""
    scheme, _, token = (authorization or "").partition(" ")
    return scheme.lower() == "bearer" and bool(token.strip()) and "session" not in (cookie or "")


class EarlyViews:
    """WSGI middleware between the trusted-proxy rewrite (REMOTE_ADDR is the client's) and
    Flask's own WSGI app."""

    def __init__(self, app: WSGIApplication, flask_app: Flask) -> None:
        self.app = app
        self.flask_app = flask_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Any:
        if environ.get("REQUEST_METHOD") == "GET" and asks_early(
            environ.get("HTTP_AUTHORIZATION"), environ.get("HTTP_COOKIE")
        ):
            match = PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match is not None:
                answered = self.early(environ, start_response, match.group(1))
                if answered is not None:
                    return answered
        return self.app(environ, start_response)

    def early(
        self, environ: WSGIEnvironment, start_response: StartResponse, attempt_id: str
    ) -> list[bytes] | None:
        started = time.perf_counter()
        token = str(environ.get("HTTP_AUTHORIZATION", "")).partition(" ")[2].strip()
        if " " in token:
            return None  # malformed: Flask's 401
        config = self.flask_app.config
        settings: Settings = config["SETTINGS"]
        client: redis.Redis[str] = self.flask_app.extensions[EXTENSION]
        remote = environ.get("REMOTE_ADDR")
        pipe = client.pipeline(transaction=False)
        counting = bool(config["RATELIMIT_ENABLED"])
        if counting:
            # service.web.limits.client_key of a request without a session: its address
            address = address_of(str(remote or "127.0.0.1"))  # flask_limiter's get_remote_address
            counter = read_window(settings.limit_default, ENDPOINT, f"addr:{address}")
            pipe.incr(counter.key)
            pipe.expire(counter.key, counter.window + 1)
        pipe.hmget(keys.attempt(attempt_id), store.HEAD_FIELDS)
        pipe.get(keys.attempt_view(attempt_id))
        try:
            results = pipe.execute()
        except redis.RedisError:
            return None  # Flask answers (503) as it always does
        if counting:
            count = int(results[0])
            environ[PRECOUNTED] = count
            if count > counter.item.amount:
                return None  # Flask's 429, with its headers
        head = store.AttemptHead.from_values(results[-2])
        if head is None or not head.owned_by_token(token) or not answers(head):
            return None
        tag = version_tag(head, None)
        if_none_match = environ.get("HTTP_IF_NONE_MATCH")
        if if_none_match and parse_etags(if_none_match).contains(tag):
            status, body = 304, b""
            headers = []
        else:
            view = store.view_of(results[-1], tag)
            if view is None:
                return None  # Flask renders this version (and stores it)
            status, body = 200, view.encode()
            headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        request_id = logs.request_id(str(environ.get("HTTP_X_REQUEST_ID", "")))
        headers += [("ETag", quote_etag(tag)), ("Cache-Control", "private, no-cache")]
        if not front_adds_headers(environ):  # else the shipped nginx adds them
            headers += [*_SECURITY, ("X-Request-ID", request_id)]
        if counting:  # Flask's limit key read the session (client_key): Flask says so
            headers.append(("Vary", "Cookie"))
        start_response("200 OK" if status == 200 else "304 NOT MODIFIED", headers)
        path = environ.get("PATH_INFO", "")
        size = len(body) if status == 200 else 0
        logs.write(logs.entry("GET", path, ENDPOINT, status, started, remote, request_id, size))
        return [body] if body else []
