"""Failover: a primary, one replica and Debian's redis-sentinel on loopback, under a real
gunicorn and rq worker connected through Sentinel (PIKDAME_REDIS_SENTINELS), with every move and
start acknowledged only once the replica has it (PIKDAME_REDIS_WAIT_REPLICAS=1). The primary is
SIGKILLed during play: players see 503s with Retry-After and ask again, no acknowledged move is
lost, and every finished attempt is verified and ranked exactly once afterwards.

The killed server is started again, as systemd's Restart=always would (deploy/systemd), as the
new primary's replica with replica-priority 0: Sentinel must not promote it before its first sync
has finished (the defect once seen under load: a second failover to that empty server, every
attempt 404). Until the sync, moves answer 503: the choice of no loss over availability
(deploy/SCALING.md, Failover). The other tests here pin the acknowledgement itself: WAIT on the
request's own connection, on every acknowledged write, and in the verify job before its verdict.
On a failure the servers' logs are printed (Sentinel's decisions above all)."""

from __future__ import annotations

import datetime as dt
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis

from service.common import config, connect, keys
from service.errors import NotReplicated
from tests.support.api import caller, start
from tests.support.clock import Clock
from tests.support.http import fetch
from tests.support.player import next_move, play_to_end
from tests.support.processes import (
    WebServer,
    pikdame,
    service_env,
    start_web,
    start_worker,
    wait_for,
)
from tests.support.servers import (
    RedisServer,
    SentinelServer,
    one_server,
    start_redis,
    start_sentinel,
)
from tests.support.service_app import SECRET, make_app
from worker.verify import verify

# own_servers: every server started here, every role placed here (make test-roles skips them)
pytestmark = [pytest.mark.integration, pytest.mark.own_servers]
WEB_SECRET = "failover-test-secret"
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

    def unconfirmed_move(self, attempt: dict[str, Any], token: str) -> None:
        """A move while no replica can confirm it: answered 503 with Retry-After, once."""
        aid = attempt["id"]
        hint = None
        if attempt["view"]["phase"] == "play":
            hint = self.call("GET", f"/api/attempts/{aid}/hint", token).json()
        body = {"move": next_move(attempt["view"], hint), "seq": attempt["seq"]}
        headers = {"Authorization": f"Bearer {token}"}
        answer = fetch(self.web.base, f"/api/attempts/{aid}/moves", "POST", body, headers=headers)
        self.calls.append(f"{time.monotonic():.3f} POST /api/attempts/{aid}/moves {answer.status}")
        assert answer.status == 503, answer.body
        assert "Retry-After" in answer.headers
        self.unavailable += 1

    def seen(self, attempt: dict[str, Any]) -> None:
        before = self.acknowledged.get(attempt["id"], -1)
        assert attempt["seq"] >= before, f"acknowledged seq {before} lost: now {attempt['seq']}"
        self.acknowledged[attempt["id"]] = attempt["seq"]

    def read(self, aid: str, token: str) -> dict[str, Any]:
        answer = self.call("GET", f"/api/attempts/{aid}", token)
        assert answer.status == 200, answer.body
        now: dict[str, Any] = answer.json()["attempt"]
        self.seen(now)
        return now

    def move(self, attempt: dict[str, Any], token: str) -> dict[str, Any]:
        """One move of the test's simple player; the attempt as it is after it."""
        aid = attempt["id"]
        hint = None
        if attempt["view"]["phase"] == "play":
            asked = self.call("GET", f"/api/attempts/{aid}/hint", token)
            if asked.status == 409:
                # the view is behind: a move answered 503 (unconfirmed_move) was applied and
                # replicated after all; read where the attempt stands, as a client does
                return self.read(aid, token)
            hint = asked.json()
        body = {"move": next_move(attempt["view"], hint), "seq": attempt["seq"]}
        answer = self.call("POST", f"/api/attempts/{aid}/moves", token, body)
        if answer.status == 409 and answer.json()["error"]["code"] == "stale":
            # applied, but its acknowledgement was lost to the failover: read where it stands
            return self.read(aid, token)
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
        WEB_SECRET,
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
        play(web, players, (primary, replica), sentinel, env)
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
    servers: tuple[RedisServer, RedisServer],
    sentinel: SentinelServer,
    env: dict[str, str],
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
                victim, survivor = fail_over(servers, sentinel)
                # until the restarted server has finished its first sync no replica can
                # confirm a move: it answers 503 with Retry-After (and is not lost: asked
                # again, it is 409 stale and the attempt is read back)
                j = next(k for k, (a, _) in enumerate(games) if a["status"] != "finished")
                players.unconfirmed_move(*games[j])
                rejoin(victim, survivor, sentinel, env)
                killed = True
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


def fail_over(
    servers: tuple[RedisServer, RedisServer], sentinel: SentinelServer
) -> tuple[RedisServer, RedisServer]:
    """SIGKILL Sentinel's primary mid-play; systemd starts it again, empty (it kept nothing on
    disk), as the new primary's replica with replica-priority 0 (deploy/SCALING.md, Failover).
    Returns (the restarted server, the new primary), its first sync held back.

    Then the defect this test once showed under load: Sentinel took the new primary for down
    (a stall; here SIGSTOP) while the restarted server was still in its first sync, and
    promoted that empty server: every attempt answered 404 unknown_attempt. Sentinel must
    abort that failover instead (no promotable replica)."""
    victim = next(s for s in servers if s.port == sentinel.primary_port())
    survivor = next(s for s in servers if s is not victim)
    promoted = sentinel.events("+switch-master") + 1
    victim.stop(kill=True)  # SIGKILL, mid-play
    wait_for(lambda: sentinel.primary_port() == survivor.port, timeout=60)
    wait_for(lambda: sentinel.events("+switch-master") == promoted)  # logged
    new_primary = redis.Redis.from_url(survivor.url)
    new_primary.config_set("repl-diskless-sync-delay", 3600)  # holds the first sync back
    new_primary.close()
    victim.extra = ("--replicaof", "127.0.0.1", str(survivor.port), "--replica-priority", "0")
    victim.start()
    assert survivor.process is not None
    os.kill(survivor.process.pid, signal.SIGSTOP)
    try:
        wait_for(
            lambda: (
                sentinel.events("-failover-abort-no-good-slave")
                or sentinel.events("+switch-master") > promoted
            ),
            timeout=60,
        )
    finally:
        os.kill(survivor.process.pid, signal.SIGCONT)
    assert sentinel.events("+switch-master") == promoted, "the empty replica was promoted"
    assert sentinel.primary_port() == survivor.port
    return victim, survivor


def rejoin(
    victim: RedisServer, survivor: RedisServer, sentinel: SentinelServer, env: dict[str, str]
) -> None:
    """Let the restarted server's first sync run; ``pikdame redis-promotable`` (systemd's
    ExecStartPost) waits for it, then lets Sentinel promote that server again."""
    new_primary = redis.Redis.from_url(survivor.url)
    new_primary.config_set("repl-diskless-sync-delay", 0)
    new_primary.close()
    done = pikdame(env, "redis-promotable", victim.url)
    assert done.returncode == 0, done.stderr
    wait_for(lambda: sentinel.replica_priority(victim.port) == connect.PROMOTABLE_PRIORITY)


def test_connections_through_sentinel_read_into_a_small_buffer(
    cluster: tuple[RedisServer, RedisServer, SentinelServer],
) -> None:
    """The master's connections found through Sentinel hold a 16 KB reply buffer each, as the
    pooled ones do (connect.READ_BUFFER: a stream worker fills its pool under load)."""
    primary, _, sentinel = cluster
    settings = config.load(
        {
            "REDIS_URL": primary.url,
            "PIKDAME_REDIS_SENTINELS": sentinel.address,
            "PIKDAME_REDIS_MASTER": sentinel.master,
        }
    )
    client = connect.client(settings, settings.redis_url)
    assert client.ping()
    connection = client.connection_pool.get_connection()
    try:
        assert connection._socket_read_size == connect.READ_BUFFER
    finally:
        client.connection_pool.release(connection)
        client.close()


def test_an_acknowledgement_covers_writes_made_on_another_pooled_connection(
    cluster: tuple[RedisServer, RedisServer, SentinelServer],
) -> None:
    """WAIT confirms only its own connection's writes; a request's WAIT may run on another
    pooled connection than its transaction did (gthread). With the replica stalled (SIGSTOP),
    a write on one connection is not confirmed by an acknowledgement asked on a fresh one."""
    primary, replica, _ = cluster
    wait_for(lambda: linked(replica), timeout=30)
    writer = redis.Redis.from_url(primary.url, decode_responses=True)
    asker = redis.Redis.from_url(primary.url, decode_responses=True)
    assert connect.acknowledged(asker, 1)  # the replica is there and confirms
    assert replica.process is not None
    os.kill(replica.process.pid, signal.SIGSTOP)
    try:
        writer.set("pd:move", "acknowledged?")
        assert not connect.acknowledged(asker, 1)
    finally:
        os.kill(replica.process.pid, signal.SIGCONT)
    assert wait_for(lambda: connect.acknowledged(asker, 1), timeout=30)
    writer.close()
    asker.close()


def test_every_acknowledged_write_waits_for_the_replica(
    cluster: tuple[RedisServer, RedisServer, SentinelServer],
) -> None:
    """Not only moves and starts: a league, a table (and every other successful POST, PUT or
    DELETE) is answered only once the replica has it; with the replica stalled (SIGSTOP) it
    is a 503 with Retry-After, while reads go on."""
    primary, replica, _ = cluster
    wait_for(lambda: linked(replica), timeout=30)
    app = make_app(
        primary.url,
        Clock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)),
        **one_server(primary.url),
        PIKDAME_REDIS_WAIT_REPLICAS=1,
    )
    web = app.test_client()
    league = {"name": "Stammtisch"}
    table = {"name": "Ada", "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]}
    assert web.post("/api/leagues", json=league).status_code == 201
    assert web.post("/api/tables", json=table).status_code == 201
    assert replica.process is not None
    os.kill(replica.process.pid, signal.SIGSTOP)
    try:
        for path, body in (("/api/leagues", league), ("/api/tables", table)):
            answer = web.post(path, json=body)
            assert answer.status_code == 503, (path, answer.get_json())
            assert answer.get_json()["error"]["code"] == "unavailable"
            assert "Retry-After" in answer.headers
        started = web.post("/api/daily/2026-11-30/attempts", json={"name": "Bea"})
        assert started.status_code == 503 and "Retry-After" in started.headers
        assert web.get("/api/daily").status_code == 200  # reads need no replica
    finally:
        os.kill(replica.process.pid, signal.SIGCONT)
    assert wait_for(lambda: web.post("/api/leagues", json=league).status_code == 201)


def test_a_verdict_is_recorded_only_once_its_ranking_is_on_the_replica(
    cluster: tuple[RedisServer, RedisServer, SentinelServer],
) -> None:
    """The verify job with PIKDAME_REDIS_WAIT_REPLICAS: ranked, but the replica has not
    confirmed it (stalled), so no verdict yet and the job fails (RQ retries it); the retry
    ranks nothing twice and records the verdict. A failover in between can then never leave a
    verified attempt off the board."""
    primary, replica, _ = cluster
    wait_for(lambda: linked(replica), timeout=30)
    clock = Clock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))
    web = make_app(primary.url, clock, **one_server(primary.url)).test_client()
    attempt, _ = start(web, clock.today, "Ada")
    play_to_end(caller(web), attempt["id"], use_hints=False)
    client = redis.Redis.from_url(primary.url, decode_responses=True)
    assert replica.process is not None
    os.kill(replica.process.pid, signal.SIGSTOP)
    try:
        with pytest.raises(NotReplicated):
            verify(client, attempt["id"], SECRET, client, 1)
    finally:
        os.kill(replica.process.pid, signal.SIGCONT)
    assert client.hget(keys.attempt(attempt["id"]), "verification") == "queued"
    assert client.zcard(keys.day_rank(clock.today)) == 1  # ranked, not yet confirmed
    assert verify(client, attempt["id"], SECRET, client, 1)["status"] == "verified"
    (days,) = [client.hget(k, "days") for k in client.keys(keys.player("*"))]
    assert days == "1"  # the player's facts counted once
    assert client.zcard(keys.day_rank(clock.today)) == 1
    assert client.zcard(keys.ALLTIME) == 1
    client.close()
