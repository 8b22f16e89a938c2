"""Operations endpoints: ``/healthz`` (API.md, Operations)."""

from __future__ import annotations

import redis
from flask import Blueprint, Response, jsonify

from service.redisconn import get_redis, settings

bp = Blueprint("ops", __name__)


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    """200 with the queue's length when Redis answers, 503 when it does not."""
    try:
        client = get_redis()
        client.ping()
        waiting = int(client.llen(f"rq:queue:{settings().queue}"))
    except redis.RedisError:
        return jsonify({"redis": "unreachable", "queue": None}), 503
    return jsonify({"redis": "ok", "queue": waiting}), 200
