"""The whole flow over HTTP: gunicorn + a real Redis + a stock ``rq worker`` on real jobs.

start → play to the end with a simple strategy → verified → ranked → leaderboard and around-me.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis

from service.common import keys
from tests.support.player import play_to_end
from tests.support.processes import WEB_SECRET, WebServer, service_env, start_worker, wait_for

pytestmark = pytest.mark.integration
SECRET = WEB_SECRET  # the web fixture's (tests/service/conftest.py)


def test_start_play_verify_rank_over_http(
    web: WebServer, redis_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    worker = start_worker(service_env(redis_url, SECRET), tmp_path / "worker.log")
    try:
        status, daily = web.call("GET", "/api/daily", None)
        assert status == 200
        players: list[tuple[str, str, dict[str, Any]]] = []
        for i, name in enumerate(["Ada", "Bob", "Cy"]):
            status, created = web.call(
                "POST", f"/api/daily/{daily['date']}/attempts", {"name": name}
            )
            assert status == 201, created
            token, aid = created["token"], created["attempt"]["id"]

            def call(m: str, p: str, b: Any, token: str = token) -> tuple[int, Any]:
                return web.call(m, p, b, token)

            final = play_to_end(call, aid, use_hints=i != 1)
            assert final["status"] == "finished"
            players.append((aid, token, final))
        for aid, token, final in players:

            def verified(aid: str = aid, token: str = token) -> Any:
                attempt = web.call("GET", f"/api/attempts/{aid}", None, token)[1]["attempt"]
                v = attempt["verification"]
                return v if v["status"] == "verified" else None

            verification = wait_for(verified)
            assert verification["score"] == final["view"]["outcome"]["round_scores"][0]
            assert verification["rank"] in (1, 2, 3)
        status, board = web.call("GET", f"/api/leaderboard/{daily['date']}", None)
        assert status == 200 and board["total"] == 3
        entries = board["entries"]
        assert [e["rank"] for e in entries] == [1, 2, 3]
        keys = [(-e["score"], e["turns"]) for e in entries]
        assert keys == sorted(keys)  # R11: score desc, then fewer turns (then earlier finish)
        assert {e["attempt_id"] for e in entries} == {p[0] for p in players}
        for entry in entries:
            aid, token, _ = next(p for p in players if p[0] == entry["attempt_id"])
            mine = web.call("GET", f"/api/attempts/{aid}", None, token)[1]["attempt"]
            assert mine["verification"]["rank"] == entry["rank"]
        middle = entries[1]["attempt_id"]
        status, around = web.call(
            "GET", f"/api/leaderboard/{daily['date']}/around/{middle}?radius=1", None
        )
        assert status == 200 and around["rank"] == 2
        assert [e["attempt_id"] for e in around["entries"]] == [e["attempt_id"] for e in entries]
        status, alltime = web.call("GET", "/api/leaderboard/all-time", None)
        assert status == 200 and alltime["total"] == 3
        assert sorted(e["total"] for e in alltime["entries"]) == sorted(e["score"] for e in entries)
        assert all(e["days"] == 1 for e in alltime["entries"])
        status, health = web.call("GET", "/healthz", None)
        assert status == 200 and health == {"redis": "ok", "queue": 0}
        assert rdb.zcard("pd:finished") == 0
    finally:
        worker.stop()


def test_double_submit_over_http_applies_once(web: WebServer, rdb: redis.Redis[str]) -> None:
    """Two real connections to gunicorn (2 processes × 2 threads) send the same move at once."""
    import threading

    _, daily = web.call("GET", "/api/daily", None)
    _, created = web.call("POST", f"/api/daily/{daily['date']}/attempts", {"name": "Tab"})
    aid, token = created["attempt"]["id"], created["token"]
    attempt = created["attempt"]
    for _ in range(10):
        if attempt["status"] != "playing":
            break
        view = attempt["view"]
        move = "draw" if view["phase"] == "draw" else f"discard {view['hand'][0]}"
        body = {"move": move, "seq": attempt["seq"]}
        barrier = threading.Barrier(2)
        results: list[tuple[int, Any]] = []

        def send(
            body: dict[str, Any] = body,
            barrier: threading.Barrier = barrier,
            results: list[tuple[int, Any]] = results,
        ) -> None:
            barrier.wait()
            results.append(web.call("POST", f"/api/attempts/{aid}/moves", body, token))

        threads = [threading.Thread(target=send) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(s for s, _ in results) == [200, 409], results
        winner = next(b for s, b in results if s == 200)
        assert int(rdb.hget(keys.attempt(aid), "seq") or 0) == winner["attempt"]["seq"]
        attempt = winner["attempt"]
