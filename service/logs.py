"""Structured request logs: one JSON line per request, never a body, header, token or seed."""

from __future__ import annotations

import json
import logging
import sys
import time

from flask import Flask, Response, g, request

LOGGER = "pikdame.access"


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
            "bytes": response.calculate_content_length(),
        }
        logger.info(json.dumps(entry, separators=(",", ":")))
        return response
