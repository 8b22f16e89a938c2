"""The Gin daily's whole flow over HTTP: gunicorn + a real Redis + a stock ``rq worker``
on real jobs: start → a whole match to 100 → verified by replay → ranked on Gin's board; and a
lost Gin verification job found by the reconciler."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask

from service.common import keys
from service.dailies.queue import job_id
from tests.support.gin_daily import play_gin_to_end
from tests.support.processes import WebServer, service_env, start_web, start_worker, wait_for
from tests.support.service_app import SECRET as APP_SECRET
from tests.support.service_app import Clock

pytestmark = pytest.mark.integration
SECRET = "gin-flow-secret"


@pytest.fixture
def web(redis_url: str, rdb: redis.Redis[str], tmp_path: Path) -> Iterator[WebServer]:
    server = start_web(service_env(redis_url, SECRET), tmp_path / "web.log")
    yield server
    server.process.stop()


def test_start_play_verify_rank_a_gin_daily_over_http(
    web: WebServer, redis_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    worker = start_worker(service_env(redis_url, SECRET), tmp_path / "worker.log")
    try:
        status, daily = web.call("GET", "/api/daily?game=gin", None)
        assert status == 200 and daily["game"] == "gin"
        date = daily["date"]
        players: list[tuple[str, str, dict[str, Any]]] = []
        for name in ("Ada", "Bob", "Cy"):
            status, created = web.call(
                "POST", f"/api/daily/{date}/attempts", {"name": name, "game": "gin"}
            )
            assert status == 201, created
            token, aid = created["token"], created["attempt"]["id"]

            def call(m: str, p: str, b: Any, token: str = token) -> tuple[int, Any]:
                return web.call(m, p, b, token)

            final = play_gin_to_end(call, aid)
            assert final["status"] == "finished" and final["game"] == "gin"
            players.append((aid, token, final))
            again = web.call(
                "POST", f"/api/daily/{date}/attempts", {"name": name, "game": "gin"}, token
            )
            assert again[0] == 409 and again[1]["error"]["code"] == "attempt_exists"
        for aid, token, final in players:

            def judged(aid: str = aid, token: str = token) -> Any:
                attempt = web.call("GET", f"/api/attempts/{aid}", None, token)[1]["attempt"]
                v = attempt["verification"]
                return v if v["status"] != "queued" else None

            v = wait_for(judged)
            assert v["status"] == "verified", v["reason"]
            totals = final["view"]["totals"]
            assert v["score"] == totals[0] - totals[1]
            assert v["hands"] == len(final["view"]["results"])
        status, board = web.call("GET", f"/api/leaderboard/{date}?game=gin", None)
        assert status == 200 and board["total"] == 3 and board["game"] == "gin"
        # One seed, one deterministic player, one deterministic bot: the same match three times,
        # so equal scores and hands; the earlier finish ranks first (docs/GIN_DAILY.md).
        entries = board["entries"]
        assert len({(e["score"], e["hands"]) for e in entries}) == 1
        assert [e["attempt_id"] for e in entries] == [p[0] for p in players]
        assert [e["rank"] for e in entries] == [1, 2, 3]
        status, pikdame = web.call("GET", f"/api/leaderboard/{date}", None)
        assert status == 200 and pikdame["total"] == 0
        status, health = web.call("GET", "/healthz", None)
        assert status == 200 and health == {"redis": "ok", "queue": 0}
        assert rdb.zcard(keys.FINISHED) == 0
    finally:
        worker.stop()


def test_a_lost_gin_verification_job_is_found_by_the_reconciler(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    redis_url: str,
    tmp_path: Path,
    qdb: redis.Redis[str],
) -> None:
    """The finishing move is stored but its job is gone (a web process died between the two):
    the next worker's reconciler queues the Gin attempt's job like a Pik Dame one."""
    client = app.test_client()
    created = client.post(
        f"/api/daily/{clock.today}/attempts", json={"name": "Ada", "game": "gin"}
    ).get_json()
    aid = created["attempt"]["id"]
    headers = {"Authorization": f"Bearer {created['token']}"}

    def call(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        response = client.open(path, method=method, json=body, headers=headers)
        return response.status_code, response.get_json()

    play_gin_to_end(call, aid)
    jid = job_id(aid)
    qdb.delete(f"rq:job:{jid}")
    qdb.lrem("rq:queue:verify", 0, jid)
    worker = start_worker(service_env(redis_url, APP_SECRET.decode()), tmp_path / "worker.log")
    try:
        wait_for(
            lambda: rdb.hget(keys.attempt(aid), "verification") == "verified",
            timeout=60,
            interval=0.2,
        )
    finally:
        worker.stop()
    assert rankings.zscore(keys.day_rank(clock.today, "gin"), aid) is not None
