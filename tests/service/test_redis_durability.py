"""The systemd path's Redis (deploy/README.md): with Debian's redis.conf and the settings the
service ships (deploy/redis/pikdame.conf), a redis-server killed with SIGKILL mid-play comes back
with every move the app acknowledged.

redis-server runs Debian's own /etc/redis/redis.conf, then the shipped file included last (as the
README says to install it), then only where it listens and keeps its files (a free port, a temp
directory). Moves go through the real app; the server is SIGKILLed and started again with the
same settings and directory.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.support.api import caller, start
from tests.support.player import next_move
from tests.support.processes import ROOT, wait_for
from tests.support.servers import end, free_port, one_server
from tests.support.service_app import Clock, make_app

# own_servers: every server started here, every role placed here (make test-roles skips them)
pytestmark = [pytest.mark.integration, pytest.mark.own_servers]

DEBIAN_CONF = Path("/etc/redis/redis.conf")
SHIPPED = ROOT / "deploy" / "redis" / "pikdame.conf"
PLAYERS = 4
MOVES = 120  # acknowledged moves before the crash


@dataclass
class Server:
    """redis-server from a config file (Debian's, the shipped one, then port and directory)."""

    conf: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        probe = redis.Redis.from_url(self.url)

        def up() -> bool:
            assert self.process is not None and self.process.poll() is None, "redis-server died"
            try:
                return bool(probe.ping())
            except redis.exceptions.RedisError:  # not listening yet, or loading its AOF
                return False

        try:
            wait_for(up, timeout=30)
        finally:
            probe.close()

    def crash(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            end(self.process)
            self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    if not DEBIAN_CONF.is_file() or not os.access(DEBIAN_CONF, os.R_OK):
        pytest.skip("needs Debian's redis-server package (/etc/redis/redis.conf)")
    port = free_port()
    conf = tmp_path / "redis.conf"
    conf.write_text(
        f"include {DEBIAN_CONF}\n"
        f"include {SHIPPED}\n"
        # where this one listens and keeps its files: nothing about durability
        f"port {port}\nbind 127.0.0.1\ndir {tmp_path}\ndaemonize no\nsupervised no\n"
        f"pidfile {tmp_path}/redis.pid\nlogfile {tmp_path}/redis.log\n"
    )
    s = Server(conf, port)
    s.start()
    try:
        yield s
    finally:
        s.stop()


def test_the_shipped_settings_are_the_ones_durability_needs(server: Server) -> None:
    client = redis.Redis.from_url(server.url, decode_responses=True)
    assert client.config_get("appendonly") == {"appendonly": "yes"}
    assert client.config_get("appendfsync") == {"appendfsync": "always"}
    text = SHIPPED.read_text()
    assert "port" not in text.split() and "dir" not in text.split()  # settings, not a location


def test_a_killed_redis_loses_no_acknowledged_move(server: Server, clock: Clock) -> None:
    """Acknowledged moves (200) through the real app, redis-server SIGKILLed, started again
    with the same settings and directory: every acknowledged seq is still there."""
    app = make_app(server.url, clock, **one_server(server.url))  # its crash is the subject
    client = app.test_client()
    games: list[tuple[dict[str, Any], str]] = [
        start(app.test_client(), clock.today, f"D{i}") for i in range(PLAYERS)
    ]
    acknowledged: list[tuple[str, int]] = []  # (attempt, its seq) of every 200 to a move
    while len(acknowledged) < MOVES:
        playing = [(n, g) for n, g in enumerate(games) if g[0]["status"] != "finished"]
        if not playing:
            games.append(start(app.test_client(), clock.today, f"D{len(games)}"))
            continue
        for n, (attempt, token) in playing:
            call = caller(client, token)
            aid = attempt["id"]
            hint = None
            if attempt["view"]["phase"] == "play":
                status, hint = call("GET", f"/api/attempts/{aid}/hint", None)
                assert status == 200, hint
            body = {"move": next_move(attempt["view"], hint), "seq": attempt["seq"]}
            status, answer = call("POST", f"/api/attempts/{aid}/moves", body)
            assert status == 200, answer
            acknowledged.append((aid, answer["attempt"]["seq"]))
            games[n] = (answer["attempt"], token)
    server.crash()
    server.start()
    client = make_app(server.url, clock, **one_server(server.url)).test_client()
    stored: dict[str, int] = {}
    for attempt, token in games:
        status, found = caller(client, token)("GET", f"/api/attempts/{attempt['id']}", None)
        assert status in (200, 404), found  # 404: the attempt itself is gone
        stored[attempt["id"]] = found["attempt"]["seq"] if status == 200 else -1
    lost = len([aid for aid, seq in acknowledged if stored[aid] < seq])
    assert lost == 0, f"{lost} of {len(acknowledged)} acknowledged moves lost"
