"""Rate limits (API.md): per client address, Redis-backed so every web process shares them.

Each limited request costs one Redis round trip (the counter's increment). Flask-Limiter's
``X-RateLimit-*`` headers on every response cost two more (GET and TTL of the counter): under
load those round trips were the largest part of a read (py-spy, bench/results/service.md), so the
headers, with ``Retry-After``, are sent only on a 429, where a client needs them.
"""

from __future__ import annotations

import time

from flask import Flask, Response, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

limiter = Limiter(key_func=get_remote_address)


def attempts_limit() -> str:
    return str(current_app.config["PIKDAME_LIMIT_ATTEMPTS"])


def moves_limit() -> str:
    return str(current_app.config["PIKDAME_LIMIT_MOVES"])


def per_attempt_key() -> str:
    """Moves are limited per client address and attempt."""
    attempt_id = (request.view_args or {}).get("attempt_id", "")
    return f"{get_remote_address()}:{attempt_id}"


def _limit_headers(response: Response) -> Response:
    """On a 429: the breached limit, what remains of it and when it resets (RFC 6585)."""
    current = limiter.current_limit if response.status_code == 429 else None
    if current is None:
        return response
    try:
        reset_at = current.reset_at
        response.headers["X-RateLimit-Limit"] = str(current.limit.amount)
        response.headers["X-RateLimit-Remaining"] = str(current.remaining)
        response.headers["X-RateLimit-Reset"] = str(reset_at)
        response.headers["Retry-After"] = str(max(1, int(reset_at - time.time())))
    except Exception:  # Redis gone between the hit and now: the 429 stands without headers
        current_app.logger.warning("rate limit headers unavailable")
    return response


def init_app(app: Flask) -> None:
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config["REDIS_URL"])
    app.config.setdefault("RATELIMIT_DEFAULT", app.config["PIKDAME_LIMIT_DEFAULT"])
    app.config.setdefault("RATELIMIT_ENABLED", app.config["PIKDAME_LIMITS_ENABLED"])
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "pd:limits")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)  # see _limit_headers
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)  # Redis down: /healthz says 503
    limiter.init_app(app)
    app.after_request(_limit_headers)
