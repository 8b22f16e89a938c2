"""Structured request logs: one JSON line per request, never a body, header, token or seed."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid

from flask import Flask, Response, g, request

LOGGER = "pikdame.access"
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


_encode = json.JSONEncoder(separators=(",", ":")).encode  # one encoder, not one per line
_stamp: list[tuple[int, str]] = [(-1, "")]  # (second, its text): one strftime per second


def _timestamp() -> str:
    now = int(time.time())
    second, text = _stamp[0]
    if second != now:
        text = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))
        _stamp[0] = (now, text)
    return text


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
        given = request.headers.get("X-Request-ID", "")
        g.request_id = given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex

    @app.after_request
    def _log(response: Response) -> Response:
        started = g.get("started", time.perf_counter())
        entry = {
            "ts": _timestamp(),
            "method": request.method,
            "path": request.path,  # no query string, no body: nothing secret can ride along
            "endpoint": request.endpoint,
            "status": response.status_code,
            "ms": round((time.perf_counter() - started) * 1000, 2),
            "remote": request.remote_addr,
            "request_id": g.get("request_id"),
            # A stream (the tables' events) has no length: measuring it would read it all.
            "bytes": None if response.is_streamed else response.calculate_content_length(),
        }
        if logger.isEnabledFor(logging.INFO):
            # The record made directly: Logger.info would walk the stack for a caller this
            # format never prints (a measurable part of a cheap read, bench/results).
            record = logger.makeRecord(LOGGER, logging.INFO, __file__, 0, _encode(entry), (), None)
            logger.handle(record)
        if g.get("request_id"):
            response.headers["X-Request-ID"] = g.request_id
        return response
