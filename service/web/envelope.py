"""The one error envelope: every failure leaves as ``{"error": {"code", "message"}}`` with a fitting
status; the exceptions themselves are service.errors'."""

from __future__ import annotations

from typing import Any

import redis
from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from engine.core.errors import EngineError
from service.common import metrics
from service.errors import ApiError, AttemptExists, Stale

# Werkzeug's HTTP errors mapped onto stable codes (API.md lists the statuses).
HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "bad_value",
    429: "rate_limited",
    500: "internal",
    503: "unavailable",
}


RETRY_AFTER_S = 1  # what a 503 for an unavailable Redis asks the client to wait


def error_response(status: int, code: str, message: str, **extra: Any) -> Response:
    response = jsonify({"error": {"code": code, "message": message, **extra}})
    response.status_code = status
    return response


def register(app: Flask) -> None:
    """Install handlers so no error leaves as HTML or leaks a traceback."""

    @app.errorhandler(ApiError)
    def _api(e: ApiError) -> Response:
        response = error_response(e.status, e.code, e.message, **e.extra)
        if e.status == 503:
            response.headers.setdefault("Retry-After", str(RETRY_AFTER_S))
        return response

    @app.errorhandler(AttemptExists)
    def _exists(e: AttemptExists) -> Response:
        return error_response(
            409, "attempt_exists", "you already started today's challenge", attempt_id=e.attempt_id
        )

    @app.errorhandler(Stale)
    def _stale(e: Stale) -> Response:
        seq = getattr(e, "seq", None)  # the current seq, where the raiser knows it
        extra = {} if seq is None else {"seq": seq}
        return error_response(409, "stale", "the client's seq is not current", **extra)

    @app.errorhandler(EngineError)
    def _engine(e: EngineError) -> Response:
        return error_response(422, e.code, e.message)

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException) -> Response:
        status = e.code or 500
        code = HTTP_CODES.get(status, "error")
        message = e.description or e.name
        if status == 429:
            message = f"rate limit exceeded ({e.description})"
        response = error_response(status, code, message)
        if status == 405 and e.get_response().headers.get("Allow"):
            response.headers["Allow"] = e.get_response().headers["Allow"]
        return response

    @app.errorhandler(redis.RedisError)
    def _redis(e: redis.RedisError) -> Response:
        # A server down or failing over (Sentinel promotes a replica within seconds): the client
        # asks again after Retry-After.
        app.logger.error("redis unavailable: %s", type(e).__name__)
        metrics.redis_error("request")
        response = error_response(503, "unavailable", "storage unavailable, try again shortly")
        response.headers["Retry-After"] = str(RETRY_AFTER_S)
        return response

    @app.errorhandler(Exception)
    def _internal(e: Exception) -> Response:
        app.logger.exception("unhandled error")
        return error_response(500, "internal", "internal server error")
