"""Game state on a real Redis Cluster: three masters on loopback
(tests/support/cluster.py) hold the attempts, tokens and days, while the queue and the rankings
have redis-servers of their own. Daily attempts are started and played to the end through the
API, verified and ranked by a real ``rq worker``; every transaction stays on one slot (a
cross-slot one would fail with CROSSSLOT), and one player gets one ranked attempt a day."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.cluster import RedisCluster

from service.accounts import store as accounts
from service.app import create_app
from service.common import config, connect, keys
from tests.support.accounts import ORIGIN, sign_in, sign_up
from tests.support.api import caller, start
from tests.support.authenticator import Authenticator
from tests.support.cluster import RedisClusterNodes, start_cluster
from tests.support.player import play_to_end
from tests.support.processes import service_env, start_worker, wait_for
from tests.support.servers import RedisServer, start_redis
from tests.support.tables import play_game

# own_servers: every server started here, every role placed here (make test-roles skips them)
pytestmark = pytest.mark.own_servers

SECRET = b"cluster-test-secret"
TODAY = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
DAY = TODAY.date().isoformat()
PLAYERS = ("Ada", "Bo", "Cleo", "Dag")


@pytest.fixture(scope="module")
def cluster() -> Iterator[RedisClusterNodes]:
    nodes = start_cluster()
    yield nodes
    nodes.close()


@pytest.fixture(scope="module")
def others() -> Iterator[dict[str, RedisServer]]:
    started = {role: start_redis() for role in ("queue", "rankings")}
    yield started
    for server in started.values():
        server.close()


def settings(cluster: RedisClusterNodes, others: dict[str, RedisServer]) -> dict[str, str]:
    return {
        "REDIS_URL": "redis://127.0.0.1:1/0",  # nothing may fall back to it
        "PIKDAME_REDIS_STATE_URL": cluster.url,
        "PIKDAME_REDIS_STATE_CLUSTER": "1",
        "PIKDAME_REDIS_QUEUE_URL": others["queue"].url,
        "PIKDAME_REDIS_RANKINGS_URL": others["rankings"].url,
    }


@pytest.fixture
def app(cluster: RedisClusterNodes, others: dict[str, RedisServer]) -> Any:
    cluster.flush()
    for server in others.values():
        redis.Redis.from_url(server.url).flushall()
    return create_app(
        {
            **settings(cluster, others),
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_NOW": lambda: TODAY,
            # the rate limits count on the cluster too (limits' redis+cluster storage)
            "PIKDAME_LIMIT_MOVES": "1000 per second",
            "PIKDAME_LIMIT_TABLE_MOVES": "1000 per second",
            "PIKDAME_LIMIT_TABLE_ADDRESS": "10000 per second",
            "PIKDAME_LIMIT_DEFAULT": "10000 per 10 seconds",
            "TESTING": True,
        }
    )


def test_cluster_connections_read_into_a_small_buffer(
    cluster: RedisClusterNodes, others: dict[str, RedisServer]
) -> None:
    """The cluster's node connections hold a 16 KB reply buffer each, as every other role's
    (connect.READ_BUFFER)."""
    client: Any = connect.state_client(config.load(settings(cluster, others)))
    assert client.ping()
    pool = client.get_default_node().redis_connection.connection_pool
    connection = pool.get_connection()
    try:
        assert connection._socket_read_size == connect.READ_BUFFER
    finally:
        pool.release(connection)
        client.close()


def test_daily_attempts_played_verified_and_ranked_on_the_cluster(
    app: Any, cluster: RedisClusterNodes, others: dict[str, RedisServer], tmp_path: Path
) -> None:
    ids = []
    for name in PLAYERS:
        client = app.test_client()
        attempt, token = start(client, DAY, name)
        # the player's second start of the day is refused: one ranked attempt a day
        again = client.post(f"/api/daily/{DAY}/attempts", json={"name": name})
        assert again.status_code == 409, again.get_json()
        play_to_end(caller(client, token), attempt["id"], use_hints=False)
        ids.append(str(attempt["id"]))
    queue = redis.Redis.from_url(others["queue"].url, decode_responses=True)
    assert queue.llen("rq:queue:verify") == len(PLAYERS)

    env = service_env(cluster.url, SECRET.decode(), **settings(cluster, others))
    worker = start_worker(env, tmp_path / "worker.log", burst=True)
    worker.popen.wait(timeout=300)
    state: RedisCluster[str] = RedisCluster.from_url(cluster.url, decode_responses=True)
    for attempt_id in ids:
        status = wait_for(lambda a=attempt_id: state.hget(keys.attempt(a), "verification"))
        assert status == "verified", (tmp_path / "worker.log").read_text()
    assert state.zcard(keys.FINISHED) == 0
    assert state.get(keys.day_count(DAY)) == str(len(PLAYERS))
    assert state.smembers(keys.day_ids(DAY)) == set(ids)

    board = app.test_client().get(f"/api/leaderboard/{DAY}").get_json()
    assert sorted(e["attempt_id"] for e in board["entries"]) == sorted(ids)
    rankings = redis.Redis.from_url(others["rankings"].url, decode_responses=True)
    assert rankings.zcard(keys.day_rank(DAY)) == len(PLAYERS)
    assert sum(int(rankings.hget(k, "days") or 0) for k in rankings.keys("pd:player:*")) == len(
        PLAYERS
    )

    # each attempt lives on exactly one master (the one owning its tag's slot), and the
    # cluster holds game state only
    per_node = [set(c.keys("*")) for c in cluster.clients()]
    for attempt_id in ids:
        assert sum(keys.attempt(attempt_id) in n for n in per_node) == 1
    every = set().union(*per_node)
    assert not any(k.startswith("rq:") for k in every)
    assert keys.ALLTIME not in every and keys.day_rank(DAY) not in every


def test_a_table_played_to_the_end_on_the_cluster(app: Any, cluster: RedisClusterNodes) -> None:
    """A table's document and event log share the hash tag ``{t:ID}``: every change is one
    transaction on one slot; the invite and the announcement follow outside it."""
    created = app.test_client().post(
        "/api/tables",
        json={"game": "pikdame", "name": "Ada", "seats": [{"kind": "human"}, {"kind": "human"}]},
    )
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    joined = app.test_client().post(f"/api/tables/join/{body['invite']}", json={"name": "Bo"})
    assert joined.status_code == 200, joined.get_json()
    assert joined.get_json()["table"]["seats"][1]["name"] == "Bo"

    created = app.test_client().post(
        "/api/tables",
        json={
            "game": "pikdame",
            "name": "Ada",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "advanced"}],
        },
    )
    assert created.status_code == 201, created.get_json()
    table_id, token = created.get_json()["table"]["id"], created.get_json()["token"]
    call = caller(app.test_client(), token)
    status, answer = call("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200, answer
    table = play_game(call, table_id, 0)
    assert table["status"] == "finished" and max(table["totals"]) >= 1000
    state: RedisCluster[str] = RedisCluster.from_url(cluster.url, decode_responses=True)
    assert state.llen(keys.table_events(table_id)) == table["seq"]


def test_a_table_stream_reads_and_holds_its_leases_on_the_cluster(
    app: Any, cluster: RedisClusterNodes
) -> None:
    """A stream message reads the table and its log in one transaction on the table's slot; a
    stream's leases (docs/TABLES.md, "Streams per seat and per address") are one-key scripts
    and a pipeline over two slots: taken when the stream opens, given back when it closes."""
    created = app.test_client().post(
        "/api/tables",
        json={"name": "Ada", "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]},
    )
    assert created.status_code == 201, created.get_json()
    table_id, token = created.get_json()["table"]["id"], created.get_json()["token"]
    call = caller(app.test_client(), token)
    assert call("POST", f"/api/tables/{table_id}/start", {})[0] == 200
    assert call("POST", f"/api/tables/{table_id}/moves", {"move": "cut 9", "seq": 0})[0] == 200
    state: RedisCluster[str] = RedisCluster.from_url(cluster.url, decode_responses=True)
    held = [keys.table_presence(table_id), keys.stream_address("127.0.0.1")]
    response = app.test_client().get(
        f"/api/tables/{table_id}/events?after=0",
        headers={"Authorization": f"Bearer {token}"},
        environ_base={"REMOTE_ADDR": "127.0.0.1"},
        buffered=False,
    )
    assert response.status_code == 200
    chunks = iter(response.response)
    text = ""
    while "data: " not in text:
        text += next(chunks).decode()
    message = json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])
    assert message["seq"] == len(message["events"]) == state.llen(keys.table_events(table_id))
    assert [state.zcard(key) for key in held] == [1, 1]
    response.close()
    assert [state.zcard(key) for key in held] == [0, 0]


def test_accounts_on_the_cluster(
    app: Any, cluster: RedisClusterNodes, others: dict[str, RedisServer]
) -> None:
    """The accounts with the game state on the cluster: every account transaction stays
    on one slot (a cross-slot one fails with CROSSSLOT). A device that started today's ranked
    attempt signs up (attaching its history), signs in on another device, adds and removes a
    passkey, signs out everywhere, and deletes the account; a second account is untouched."""
    web = app.test_client()
    attempt, _ = start(web, DAY, "Ada")  # this deployment ranks anonymous play (tests/conftest)
    phone = Authenticator(ORIGIN)
    account = sign_up(web, phone, "Ada")
    again = web.post(f"/api/daily/{DAY}/attempts", json={"name": "Ada"})
    assert again.status_code == 409  # the device's ranked attempt is the account's of the day
    laptop = app.test_client()
    assert sign_in(laptop, phone)["id"] == account["id"]

    key = Authenticator(ORIGIN)
    options = web.post("/api/account/devices/options", json={}).get_json()
    body = {"handle": options["handle"], "credential": key.create(options["options"])}
    added = web.post("/api/account/devices", json={**body, "label": "Schlüssel"})
    assert added.status_code == 201, added.get_json()
    devices = {d["label"]: d["id"] for d in added.get_json()["account"]["devices"]}
    removed = web.delete(f"/api/account/devices/{devices['Schlüssel']}", json={})
    assert removed.status_code == 200 and len(removed.get_json()["account"]["devices"]) == 1

    other = app.test_client()
    bo = sign_up(other, Authenticator(ORIGIN), "Bo", attach=False)
    assert laptop.post("/api/account/signout", json={"everywhere": True}).status_code == 200
    assert web.get("/api/account").status_code == 401
    sign_in(web, phone)
    assert web.delete("/api/account", json={}).status_code == 200
    refused = app.test_client().post("/api/account/signin/options", json={}).get_json()
    answer = phone.get(refused["options"])
    gone = app.test_client().post(
        "/api/account/signin", json={"handle": refused["handle"], "credential": answer}
    )
    assert gone.status_code == 400
    state: RedisCluster[str] = RedisCluster.from_url(cluster.url, decode_responses=True)
    assert state.hget(keys.attempt(attempt["id"]), "name") == accounts.DELETED_NAME
    assert other.get("/api/account").get_json()["account"]["id"] == bo["id"]
