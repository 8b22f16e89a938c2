"""``make run``'s launcher: embedded Redis (AOF) and a kept secret under var/, gunicorn, a worker.

Runs ``python -m service.run`` for real, plays a round over HTTP until it is verified, stops it with
SIGTERM, and starts it again to check the secret and the data survived.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

from tests.support.launcher import healthy, launch
from tests.support.processes import WebServer, descendants, wait_for
from tests.support.servers import free_port

pytestmark = pytest.mark.integration


def test_make_run_serves_verifies_and_keeps_its_state(tmp_path: Path) -> None:
    var = tmp_path / "var"
    web_port, redis_port = free_port(), free_port()
    web = WebServer(launch(var, web_port, redis_port, tmp_path / "run.log"), "")
    web.base = f"http://127.0.0.1:{web_port}"
    try:
        wait_for(lambda: healthy(web), timeout=60, interval=0.2)
        status, daily = web.call("GET", "/api/daily", None)
        status, created = web.call("POST", f"/api/daily/{daily['date']}/attempts", {"name": "A"})
        assert status == 201
        aid, token = created["attempt"]["id"], created["token"]
        status, moved = web.call(
            "POST", f"/api/attempts/{aid}/moves", {"move": "resign", "seq": 0}, token
        )
        assert status == 200 and moved["attempt"]["status"] == "finished"

        def verified() -> Any:
            v = web.call("GET", f"/api/attempts/{aid}", None, token)[1]["attempt"]["verification"]
            return v["status"] == "verified"

        wait_for(verified, timeout=60, interval=0.2)
        children = descendants(web.process.popen.pid)
        assert len(children) >= 3  # redis-server, gunicorn (+ its workers), rq worker
    finally:
        if web.process.popen.poll() is None:
            web.process.popen.send_signal(signal.SIGINT)
            web.process.popen.wait(timeout=60)
    assert web.process.popen.returncode == 0
    assert all(not Path(f"/proc/{pid}").exists() for pid in children)
    assert (var / "pikdame_secret").stat().st_mode & 0o077 == 0
    assert any((var / "redis").rglob("*.aof*"))
    # a second start: the same secret (the same commitment) and the verified attempt is still there
    again = WebServer(launch(var, web_port, redis_port, tmp_path / "run2.log"), web.base)
    try:
        wait_for(lambda: healthy(again), timeout=60, interval=0.2)
        assert again.call("GET", "/api/daily", None)[1]["commitment"] == daily["commitment"]
        board = again.call("GET", f"/api/leaderboard/{daily['date']}", None)[1]
        assert [e["attempt_id"] for e in board["entries"]] == [aid]
    finally:
        again.process.popen.send_signal(signal.SIGINT)
        again.process.popen.wait(timeout=60)
