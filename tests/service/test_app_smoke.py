"""The app factory builds an app that talks to the session's real Redis."""

from __future__ import annotations

import redis

from service.app import create_app


def test_healthz_against_real_redis(redis_url: str, rdb: redis.Redis[str]) -> None:
    """On an emptied Redis (``rdb``): a job left by an earlier test would count in ``queue``."""
    app = create_app({"REDIS_URL": redis_url, "PIKDAME_SECRET": "test-secret"})
    response = app.test_client().get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"redis": "ok", "queue": 0}


def test_healthz_reports_unreachable_redis() -> None:
    from tests.support.servers import free_port

    app = create_app({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0", "PIKDAME_SECRET": "x"})
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["redis"] == "unreachable"


def test_api_answers_503_json_when_redis_is_down() -> None:
    from tests.support.servers import free_port

    app = create_app({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0", "PIKDAME_SECRET": "x"})
    response = app.test_client().get("/api/daily")
    assert response.status_code == 503
    assert response.get_json()["error"]["code"] == "unavailable"
    assert response.headers["Retry-After"] == "1"  # a failover takes seconds
