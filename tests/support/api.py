"""Small helpers to drive the API through a Flask test client (the same JSON any client sends)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import redis
from flask.testing import FlaskClient

from service.common import keys


def caller(client: FlaskClient, token: str | None = None) -> Any:
    """A ``call(method, path, body)`` for :func:`tests.support.player.play_to_end`."""

    def call(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = client.open(path, method=method, json=body, headers=headers)
        return response.status_code, response.get_json()

    return call


def start(
    client: FlaskClient, date: str, name: str = "Ada", game: str = "pikdame"
) -> tuple[dict[str, Any], str]:
    """Start a ranked attempt (of daily game ``game``); returns (attempt, token)."""
    body = {"name": name} if game == "pikdame" else {"name": name, "game": game}
    response = client.post(f"/api/daily/{date}/attempts", json=body)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["attempt"], body["token"]


def resign_at_once(
    client: FlaskClient, date: str, name: str = "Ada", game: str = "pikdame"
) -> tuple[str, str]:
    """Start a ranked attempt and resign it at once: a finished attempt (its verification
    queued) in two requests; returns (attempt id, token)."""
    attempt, token = start(client, date, name, game)
    response = client.post(
        f"/api/attempts/{attempt['id']}/moves", json={"move": "resign", "seq": attempt["seq"]}
    )
    assert response.status_code == 200, response.get_json()
    return str(attempt["id"]), token


def tamper(rdb: redis.Redis[str], aid: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change a stored attempt's record (F6) in place, as a forger with Redis access could."""
    key = keys.attempt(aid)
    data = json.loads(rdb.hget(key, "game") or "")
    change(data["record"])
    rdb.hset(key, "game", json.dumps(data))
