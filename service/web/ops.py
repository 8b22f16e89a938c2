"""Operations endpoints: ``/healthz`` (API.md, Operations)."""

from __future__ import annotations

import redis
from flask import Response, jsonify

from service.web import outputs
from service.web.apidoc import api_blueprint
from service.web.redisconn import get_queue, get_rankings, get_redis

bp = api_blueprint("ops", __name__)


@bp.get("/healthz", responses={200: outputs.Health, 503: outputs.Health})
def healthz() -> tuple[Response, int]:
    """200 with the queue's length when Redis answers, 503 when it does not."""
    try:
        get_redis().ping()
        get_rankings().ping()
        waiting = int(get_queue().count)  # the queue's own server
    except redis.RedisError:
        return jsonify({"redis": "unreachable", "queue": None}), 503
    return jsonify({"redis": "ok", "queue": waiting}), 200
