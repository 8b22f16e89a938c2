"""The lobby on a real Redis Cluster (three masters, tests/support/cluster.py) holding the game
state: a public table listed and joined, a phrase said, two accounts meeting through the rated
quick match (the matcher's scripts on the ``{m}`` slot), the absent one resigned by the timer
rule and the ratings settled in one transaction on the game's ``{r:<game>}`` slot. A cross-slot
command would fail with CROSSSLOT."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from redis.cluster import RedisCluster

from service.app import create_app
from service.tables import store as tables
from tests.support.cluster import RedisClusterNodes, start_cluster
from tests.support.lobby import LIFETIMES, play_own_turn, signed_up
from tests.support.servers import RedisServer, start_redis

# own_servers: every server started here, every role placed here (make test-roles skips them)
pytestmark = [pytest.mark.integration, pytest.mark.own_servers]

TODAY = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
HUMAN: dict[str, Any] = {"kind": "human"}


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


@pytest.fixture
def app(cluster: RedisClusterNodes, others: dict[str, RedisServer]) -> Flask:
    cluster.flush()
    for server in others.values():
        redis.Redis.from_url(server.url).flushall()
    return create_app(
        {
            "REDIS_URL": "redis://127.0.0.1:1/0",  # nothing may fall back to it
            "PIKDAME_REDIS_STATE_URL": cluster.url,
            "PIKDAME_REDIS_STATE_CLUSTER": "1",
            "PIKDAME_REDIS_QUEUE_URL": others["queue"].url,
            "PIKDAME_REDIS_RANKINGS_URL": others["rankings"].url,
            "PIKDAME_SECRET": b"lobby-cluster-secret",
            "PIKDAME_NOW": lambda: TODAY,
            "PIKDAME_LIMITS_ENABLED": False,
            "TESTING": True,
        }
    )


def test_the_lobby_the_quick_match_and_ratings_on_a_cluster(
    app: Flask, cluster: RedisClusterNodes
) -> None:
    state: Any = RedisCluster.from_url(cluster.url, decode_responses=True)
    ada, bob = signed_up(app, "Ada"), signed_up(app, "Bob")
    made = ada.post(
        "/api/tables", json={"name": "Ada", "seats": [HUMAN, HUMAN], "public": True}
    ).get_json()
    table_id = made["table"]["id"]
    assert [e["id"] for e in ada.get("/api/lobby").get_json()["open"]] == [table_id]
    assert bob.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).status_code == 200
    said = bob.post(f"/api/tables/{table_id}/phrases", json={"phrase": "hello"})
    assert said.status_code == 200
    assert ada.post(f"/api/tables/{table_id}/mute", json={"seat": 1}).status_code == 200
    body = {"game": "gin", "seats": 2, "turn_timer": 30, "rated": True, "bots_after": None}
    assert ada.post("/api/match", json={**body, "name": "Ada"}).status_code == 201
    matched = bob.post("/api/match", json={**body, "name": "Bob"}).get_json()["match"]
    assert matched["status"] == "matched", matched
    game_id = matched["table"]
    bob_seat = bob.get(f"/api/tables/{game_id}").get_json()["table"]["seat"]
    timer_turns = 0
    now = int(TODAY.timestamp() * 1000)
    while timer_turns < tables.TIMEOUT_RESIGN:
        t = ada.get(f"/api/tables/{game_id}").get_json()["table"]
        assert t["status"] == "playing"
        if t["turn"] != bob_seat:
            play_own_turn(ada, t)
            continue
        stored = tables.load(state, game_id)
        assert stored is not None and stored.deadline_ms is not None
        now = max(now, stored.deadline_ms + 1)
        assert tables.autoplay(state, game_id, stored.seq, LIFETIMES, now) is not None
        timer_turns += 1
    t = ada.get(f"/api/tables/{game_id}").get_json()["table"]
    assert t["status"] == "finished" and t["forfeits"] == [bob_seat]
    changes = {c["name"]: c["change"] for c in t["rating_changes"]}
    assert changes["Ada"] > 0 > changes["Bob"]
    board = ada.get("/api/ratings/gin?provisional=true").get_json()
    assert [e["name"] for e in board["entries"]] == ["Ada", "Bob"]
    state.close()
