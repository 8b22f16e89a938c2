"""Structured request logs: one JSON line per request, never a body, header, token or seed."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid
from typing import Any

from flask import Flask, Response, g, request

from service.web.proxies import front_adds_headers

LOGGER = "pikdame.access"
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


_logger = logging.getLogger(LOGGER)
_encode = json.JSONEncoder(separators=(",", ":")).encode  # one encoder, not one per line
_stamp: list[tuple[int, str]] = [(-1, "")]  # (second, its text): one strftime per second


def _timestamp() -> str:
    now = int(time.time())
    second, text = _stamp[0]
    if second != now:
        text = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))
        _stamp[0] = (now, text)
    return text


def request_id(given: str) -> str:
    """The client's X-Request-ID when it is a sane one, else a fresh id."""
    return given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


def write(entry: dict[str, Any]) -> None:
    """One request's line (the fields of :func:`register`'s ``_log``, in its order)."""
    logger = _logger
    if logger.isEnabledFor(logging.INFO):
        # The record made directly: Logger.info would walk the stack for a caller this
        # format never prints (a measurable part of a cheap read, bench/results).
        record = logger.makeRecord(LOGGER, logging.INFO, __file__, 0, _encode(entry), (), None)
        logger.handle(record)


def entry(
    method: str,
    path: str,
    endpoint: str | None,
    status: int,
    started: float,
    remote: str | None,
    request_id: str | None,
    size: int | None,
) -> dict[str, Any]:
    return {
        "ts": _timestamp(),
        "method": method,
        "path": path,  # no query string, no body: nothing secret can ride along
        "endpoint": endpoint,
        "status": status,
        "ms": round((time.perf_counter() - started) * 1000, 2),
        "remote": remote,
        "request_id": request_id,
        "bytes": size,
    }


def register(app: Flask) -> None:
    logger = logging.getLogger(LOGGER)
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False

    @app.before_request
    def _start() -> None:
        g.started = time.perf_counter()
        g.request_id = request_id(request.headers.get("X-Request-ID", ""))

    @app.after_request
    def _log(response: Response) -> Response:
        started = g.get("started", time.perf_counter())
        write(
            entry(
                request.method,
                request.path,
                request.endpoint,
                response.status_code,
                started,
                request.remote_addr,
                g.get("request_id"),
                # A stream (the tables' events) has no length: measuring it would read it all.
                None if response.is_streamed else response.calculate_content_length(),
            )
        )
        if g.get("request_id") and not front_adds_headers(request.environ):
            response.headers["X-Request-ID"] = g.request_id
        return response
