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
            "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
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
        logger.info(json.dumps(entry, separators=(",", ":")))
        if g.get("request_id"):
            response.headers["X-Request-ID"] = g.request_id
        return response
