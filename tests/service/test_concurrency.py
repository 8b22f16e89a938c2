"""The same move sent twice at once: exactly one is applied, the other is 409 stale."""

from __future__ import annotations

import threading
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from service.common import keys
from tests.support.api import start
from tests.support.player import next_move
from tests.support.service_app import Clock


def twice_at_once(
    app: Flask, path: str, body: dict[str, Any], headers: dict[str, str]
) -> list[tuple[int, Any]]:
    """POST the same body from two threads released together (two tabs, one double click)."""
    barrier = threading.Barrier(2)
    results: list[tuple[int, Any]] = []
    lock = threading.Lock()

    def send() -> None:
        tab = app.test_client()  # its own connection, the same credentials
        barrier.wait()
        response = tab.post(path, json=body, headers=headers)
        with lock:
            results.append((response.status_code, response.get_json()))

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_same_move_twice_at_once_applies_once(
    app: Flask, client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    attempt, token = start(client, clock.today)
    aid = attempt["id"]
    headers = {"Authorization": f"Bearer {token}"}
    rounds = 0
    while attempt["status"] == "playing" and rounds < 30:
        move = next_move(attempt["view"], None)
        body = {"move": move, "seq": attempt["seq"]}
        results = twice_at_once(app, f"/api/attempts/{aid}/moves", body, headers)
        statuses = sorted(status for status, _ in results)
        assert statuses == [200, 409], results
        loser = next(b for s, b in results if s == 409)
        assert loser["error"]["code"] == "stale"
        winner = next(b for s, b in results if s == 200)
        stored = rdb.hgetall(keys.attempt(aid))
        # the record holds the move once: its length is exactly the winner's seq
        assert int(stored["seq"]) == winner["attempt"]["seq"]
        assert winner["attempt"]["seq"] == body["seq"] + len(winner["events"])
        attempt = winner["attempt"]
        rounds += 1
    assert rounds == 30 or attempt["status"] == "finished"
