"""The attempt view's 304 before Flask: an API client's unchanged copy confirmed in one round trip.

A client polling its attempt's view (``GET /api/attempts/{id}`` with ``If-None-Match`` and its
bearer token) is mostly told "unchanged". Through Flask that answer cost three times a bare
endpoint (routing, the request context, nine hooks, the models' validation: cProfile and
bench/results/front.md); the goal is half of a bare endpoint's rate. This WSGI middleware
answers exactly that case itself, with the answer Flask gives (same status, headers in the same
order, the same request log line, the same read counter):

- one pipelined round trip: the read's rate-limit count (service.web.limits' key for
  ``attempts.get_attempt``) and the attempt's head (service.dailies.store.HEAD_FIELDS);
- 304 only when the bearer token is the attempt's own and the client's tag is the current one
  (service.dailies.present.version_tag: a verified ranked attempt's tag needs its rank, so it is
  left to Flask).

Everything else goes on to Flask untouched, with the count already taken (``PRECOUNTED``): no
credentials or someone else's (401/403), a session cookie (its player, account and generation
are Flask's to read), a stale tag (the new view), a breached limit (429), an unknown attempt,
Redis errors. The test suite compares this answer with Flask's (tests/service/test_attempts.py).
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


class UnchangedViews:
    """WSGI middleware between the trusted-proxy rewrite (REMOTE_ADDR is the client's) and
    Flask's own WSGI app."""

    def __init__(self, app: WSGIApplication, flask_app: Flask) -> None:
        self.app = app
        self.flask_app = flask_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Any:
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_IF_NONE_MATCH"):
            match = PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match is not None and "session" not in environ.get("HTTP_COOKIE", ""):
                answered = self.unchanged(environ, start_response, match.group(1))
                if answered is not None:
                    return answered
        return self.app(environ, start_response)

    def unchanged(
        self, environ: WSGIEnvironment, start_response: StartResponse, attempt_id: str
    ) -> list[bytes] | None:
        started = time.perf_counter()
        scheme, _, token = str(environ.get("HTTP_AUTHORIZATION", "")).partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token or " " in token:
            return None  # none or malformed: Flask's 401
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
        try:
            results = pipe.execute()
        except redis.RedisError:
            return None  # Flask answers (503) as it always does
        if counting:
            count = int(results[0])
            environ[PRECOUNTED] = count
            if count > counter.item.amount:
                return None  # Flask's 429, with its headers
        head = store.AttemptHead.from_values(results[-1])
        if head is None or not head.owned_by_token(token):
            return None
        if head.ranked and head.verification == "verified":
            return None  # the tag holds the rank: Flask reads it from the rankings
        tag = version_tag(head, None)
        if not parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains(tag):
            return None
        request_id = logs.request_id(str(environ.get("HTTP_X_REQUEST_ID", "")))
        headers = [("ETag", quote_etag(tag)), ("Cache-Control", "private, no-cache")]
        if not front_adds_headers(environ):  # else the shipped nginx adds them
            headers += [*_SECURITY, ("X-Request-ID", request_id)]
        if counting:  # Flask's limit key read the session (client_key): Flask says so
            headers.append(("Vary", "Cookie"))
        start_response("304 NOT MODIFIED", headers)
        path = environ.get("PATH_INFO", "")
        logs.write(logs.entry("GET", path, ENDPOINT, 304, started, remote, request_id, 0))
        return []
