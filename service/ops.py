"""Operations endpoints: ``/healthz`` (API.md, Operations)."""

from __future__ import annotations

import redis
from flask import Response, jsonify

from service import outputs
from service.apidoc import api_blueprint
from service.redisconn import get_redis, settings

bp = api_blueprint("ops", __name__)


@bp.get("/healthz", responses={200: outputs.Health, 503: outputs.Health})
def healthz() -> tuple[Response, int]:
    """200 with the queue's length when Redis answers, 503 when it does not."""
    try:
        client = get_redis()
        client.ping()
        waiting = int(client.llen(f"rq:queue:{settings().queue}"))
    except redis.RedisError:
        return jsonify({"redis": "unreachable", "queue": None}), 503
    return jsonify({"redis": "ok", "queue": waiting}), 200
