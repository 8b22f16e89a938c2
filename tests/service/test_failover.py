"""Issue 16, failover: a primary, one replica and Debian's redis-sentinel on loopback, under a real
gunicorn and rq worker connected through Sentinel (PIKDAME_REDIS_SENTINELS), with every move and
start acknowledged only once the replica has it (PIKDAME_REDIS_WAIT_REPLICAS=1). The primary is
SIGKILLed during play: players see 503s with Retry-After and ask again, no acknowledged move is
lost, and every finished attempt is verified and ranked exactly once afterwards.

The killed server is started again, as systemd's Restart=always would (deploy/systemd): Sentinel
makes it the new primary's replica, and WAIT is satisfied again (until then moves answer 503: the
choice of no loss over availability, deploy/SCALING.md)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.support.http import fetch
from tests.support.player import next_move
from tests.support.processes import WebServer, service_env, start_web, start_worker, wait_for
from tests.support.servers import (
    RedisServer,
    SentinelServer,
    one_server,
    start_redis,
    start_sentinel,
)

pytestmark = pytest.mark.integration
SECRET = "failover-test-secret"
PLAYERS = 4
KILL_AFTER = 12  # acknowledged moves before the primary dies


@dataclass
class Players:
    """The players' HTTP calls, asking again after a 503 as its Retry-After says, and a record
    of every acknowledged attempt state (its seq may never go back)."""

    web: WebServer
    acknowledged: dict[str, int] = field(default_factory=dict)
    unavailable: int = 0
    calls: list[str] = field(default_factory=list)  # what each call answered, for a failure

    def call(self, method: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
        deadline = time.monotonic() + 90
        while True:
            answer = fetch(
                self.web.base, path, method, body, headers={"Authorization": f"Bearer {token}"}
            )
            self.calls.append(f"{time.monotonic():.3f} {method} {path} {answer.status}")
            if answer.status != 503:
                return answer
            assert "Retry-After" in answer.headers, answer.body
            self.unavailable += 1
            assert time.monotonic() < deadline, "503s for 90 s"
            time.sleep(min(2, int(answer.headers["Retry-After"])))

    def seen(self, attempt: dict[str, Any]) -> None:
        before = self.acknowledged.get(attempt["id"], -1)
        assert attempt["seq"] >= before, f"acknowledged seq {before} lost: now {attempt['seq']}"
        self.acknowledged[attempt["id"]] = attempt["seq"]

    def move(self, attempt: dict[str, Any], token: str) -> dict[str, Any]:
        """One move of the test's simple player; the attempt as it is after it."""
        aid = attempt["id"]
        hint = None
        if attempt["view"]["phase"] == "play":
            hint = self.call("GET", f"/api/attempts/{aid}/hint", token).json()
        body = {"move": next_move(attempt["view"], hint), "seq": attempt["seq"]}
        answer = self.call("POST", f"/api/attempts/{aid}/moves", token, body)
        if answer.status == 409 and answer.json()["error"]["code"] == "stale":
            # applied, but its acknowledgement was lost to the failover: read where it stands
            answer = self.call("GET", f"/api/attempts/{aid}", token)
        assert answer.status == 200, answer.body
        now: dict[str, Any] = answer.json()["attempt"]
        self.seen(now)
        return now


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[RedisServer, RedisServer, SentinelServer]]:
    primary = start_redis()
    replica = start_redis(extra=("--replicaof", "127.0.0.1", str(primary.port)))
    sentinel = start_sentinel(primary.port)
    yield primary, replica, sentinel
    sentinel.close()
    replica.close()
    primary.close()


def linked(replica: RedisServer) -> bool:
    client = redis.Redis.from_url(replica.url, decode_responses=True)
    info = client.info("replication")
    client.close()
    return info.get("master_link_status") == "up"


def test_a_killed_primary_loses_no_acknowledged_move_and_ranks_everyone_once(
    cluster: tuple[RedisServer, RedisServer, SentinelServer], tmp_path: Path
) -> None:
    primary, replica, sentinel = cluster
    wait_for(lambda: linked(replica), timeout=30)
    wait_for(lambda: sentinel.replicas() == 1, timeout=30)  # Sentinel has found the replica
    env = service_env(
        primary.url,
        SECRET,
        **one_server(primary.url),  # every role through Sentinel: the failover is its subject
        PIKDAME_REDIS_SENTINELS=sentinel.address,
        PIKDAME_REDIS_MASTER=sentinel.master,
        PIKDAME_REDIS_WAIT_REPLICAS="1",
        PYTHONUNBUFFERED="1",  # the worker's log complete whenever it is read
    )
    web = start_web(env, tmp_path / "web.log")
    worker = start_worker(env, tmp_path / "worker.log")
    # listening before the primary dies (a worker started during an outage exits; systemd
    # starts it again)
    watcher = redis.Redis.from_url(primary.url)
    wait_for(lambda: watcher.scard("rq:workers"), timeout=60)
    watcher.close()
    players = Players(web)
    try:
        play(web, players, primary, replica, sentinel)
    except BaseException:
        # what each server saw, for the report of a failure (Sentinel's decisions above all)
        for name, log in (
            ("sentinel", sentinel.directory / "sentinel.log"),
            ("primary", primary.directory / "redis.log"),
            ("replica", replica.directory / "redis.log"),
            ("web", tmp_path / "web.log"),
            ("worker", tmp_path / "worker.log"),
        ):
            text = log.read_text(errors="replace") if log.exists() else "(none)"
            print(f"===== {name}\n{text[-20000:]}")
        print("===== calls", *players.calls, sep="\n")
        raise
    finally:
        worker.stop()
        web.process.stop()


def play(
    web: WebServer,
    players: Players,
    primary: RedisServer,
    replica: RedisServer,
    sentinel: SentinelServer,
) -> None:
    """The players start, play until the primary dies, and finish; then the verdicts and boards."""
    date = fetch(web.base, "/api/daily").json()["date"]
    games: list[tuple[dict[str, Any], str]] = []
    for i in range(PLAYERS):
        created = fetch(web.base, f"/api/daily/{date}/attempts", "POST", {"name": f"F{i}"})
        assert created.status == 201, created.body
        games.append((created.json()["attempt"], created.json()["token"]))
    moves, killed = 0, False
    while any(a["status"] != "finished" for a, _ in games):
        for i, (attempt, token) in enumerate(games):
            if attempt["status"] == "finished":
                continue
            games[i] = (players.move(attempt, token), token)
            moves += 1
            if moves == KILL_AFTER and not killed:
                primary.stop(kill=True)  # SIGKILL, mid-play
                killed = True
                wait_for(lambda: sentinel.primary_port() == replica.port, timeout=60)
                # systemd restarts it. It kept nothing on disk, so it must come back as
                # the new primary's replica, never as an empty primary that a client could
                # reach before Sentinel demotes it (deploy/SCALING.md, Failover).
                primary.extra = ("--replicaof", "127.0.0.1", str(replica.port))
                primary.start()
    assert killed
    assert players.unavailable > 0  # the failover was seen, as 503s with Retry-After
    # every finished attempt verified, and on the board exactly once
    for attempt, token in games:
        path = f"/api/attempts/{attempt['id']}/verification?wait=10"

        def verdict(path: str = path, token: str = token) -> Any:
            found = players.call("GET", path, token).json()["verification"]
            return found if found["status"] != "queued" else None

        assert wait_for(verdict, timeout=120)["status"] == "verified"
    board = fetch(web.base, f"/api/leaderboard/{date}?limit=50").json()
    ids = [e["attempt_id"] for e in board["entries"]]
    assert sorted(ids) == sorted(a["id"] for a, _ in games)
    alltime = fetch(web.base, "/api/leaderboard/all-time?limit=50").json()
    assert sorted(e["days"] for e in alltime["entries"]) == [1] * PLAYERS
