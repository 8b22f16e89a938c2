"""The answer to a document a worker computes (an analysis): the cached document as it is, else
202 ``queued`` (ask again after ``Retry-After``), or 503 ``analysis_failed`` once after the job
failed (asked again, the job is queued anew). Never kept by a cache: the answer changes."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, jsonify

from service.errors import ApiError


def analysis_answer(cached: str | None, enqueue: Callable[[], str]) -> Response:
    """``cached``: the stored document, or None; ``enqueue()``: queue the job, returning its state
    (``failed`` when the last run failed)."""
    if cached is not None:
        response = Response(cached, mimetype="application/json")
    elif enqueue() == "failed":
        raise ApiError(503, "analysis_failed", "the analysis failed: ask again to retry it")
    else:
        response = jsonify({"status": "queued"})
        response.status_code = 202
        response.headers["Retry-After"] = "1"
    response.headers["Cache-Control"] = "private, no-cache"
    return response
