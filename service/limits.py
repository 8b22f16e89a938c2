"""Rate limits (API.md): per client address, Redis-backed so every web process shares them."""

from __future__ import annotations

from flask import Flask, current_app, request
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


def init_app(app: Flask) -> None:
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config["REDIS_URL"])
    app.config.setdefault("RATELIMIT_DEFAULT", app.config["PIKDAME_LIMIT_DEFAULT"])
    app.config.setdefault("RATELIMIT_ENABLED", app.config["PIKDAME_LIMITS_ENABLED"])
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "pd:limits")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)  # Redis down: /healthz says 503
    limiter.init_app(app)
