"""Leaderboards through the API: R11 order, around-me, all-time sums; practice is never ranked."""

from __future__ import annotations

import json
from typing import Any

import redis
from flask.testing import FlaskClient

from tests.support.api import caller, start
from tests.support.player import play_to_end
from tests.support.service_app import SECRET, Clock
from worker.verify import verify


def test_alltime_sums_days_and_best_per_player(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    scores = []
    for day in range(2):
        attempt, _ = start(client, clock.today, f"Ada{day}")
        final = play_to_end(caller(client), attempt["id"], use_hints=day == 0)
        assert verify(rdb, attempt["id"], SECRET, rankings)["status"] == "verified"
        scores.append(final["view"]["outcome"]["round_scores"][0])
        clock.advance(days=1)
    other = client.application.test_client()
    attempt, _ = start(other, clock.today, "Bob")
    bob = play_to_end(caller(other), attempt["id"])["view"]["outcome"]["round_scores"][0]
    verify(rdb, attempt["id"], SECRET, rankings)
    board = client.get("/api/leaderboard/all-time").get_json()
    assert board["total"] == 2
    rows = {e["name"]: e for e in board["entries"]}
    assert rows["Ada1"] == {
        "rank": rows["Ada1"]["rank"],
        "name": "Ada1",  # the latest name the player used
        "total": sum(scores),
        "days": 2,
        "best": max(scores),
    }
    assert rows["Bob"]["total"] == bob and rows["Bob"]["days"] == 1
    ordered = [e["total"] for e in board["entries"]]
    assert ordered == sorted(ordered, reverse=True)
    page = client.get("/api/leaderboard/all-time?offset=1&limit=1").get_json()
    assert [e["rank"] for e in page["entries"]] == [2]


def test_around_me_and_unranked(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    ids = []
    for i in range(7):
        tab = client.application.test_client()
        attempt, _ = start(tab, clock.today, f"P{i}")
        play_to_end(caller(tab), attempt["id"], use_hints=i % 2 == 0)
        verify(rdb, attempt["id"], SECRET, rankings)
        ids.append(attempt["id"])
        clock.advance(seconds=1)
    board = client.get(f"/api/leaderboard/{clock.today}?limit=100").get_json()
    assert board["total"] == 7
    order = [e["attempt_id"] for e in board["entries"]]
    keys = [(-e["score"], e["turns"]) for e in board["entries"]]
    assert keys == sorted(keys)
    mid = order[3]
    around = client.get(f"/api/leaderboard/{clock.today}/around/{mid}?radius=2").get_json()
    assert around["rank"] == 4
    assert [e["attempt_id"] for e in around["entries"]] == order[1:6]
    top = client.get(f"/api/leaderboard/{clock.today}/around/{order[0]}?radius=2").get_json()
    assert [e["rank"] for e in top["entries"]] == [1, 2, 3]
    missing = client.get(f"/api/leaderboard/{clock.today}/around/nope")
    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "not_ranked"
    future = client.get("/api/leaderboard/2027-01-01")
    assert future.status_code == 404


def test_practice_is_never_queued_or_ranked(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    response = client.post("/api/daily/2026-11-20/practice", json={"name": "Ada"})
    attempt: dict[str, Any] = response.get_json()["attempt"]
    final = play_to_end(caller(client), attempt["id"])
    assert final["status"] == "finished" and final["verification"] is None
    assert rdb.exists(f"rq:job:verify-{attempt['id']}") == 0
    assert rdb.zcard("pd:finished") == 0
    log = client.get(f"/api/attempts/{attempt['id']}/log").get_json()
    assert log["deal"]["seed"] is not None  # the day has closed: its seed is public
    assert client.get("/api/leaderboard/2026-11-20").get_json()["total"] == 0


def test_openapi_document_is_served_and_its_refs_resolve(client: FlaskClient) -> None:
    served = client.get("/api/openapi.json").get_json()
    assert served == json.loads(json.dumps(client.application.api_doc))  # type: ignore[attr-defined]
    assert served["openapi"].startswith("3.")
    text = json.dumps(served)
    for ref in {part.split('"')[0] for part in text.split('"$ref": "#/components/schemas/')[1:]}:
        assert ref in served["components"]["schemas"], ref
    for item in served["paths"].values():
        for operation in item.values():
            assert operation["responses"] and operation["summary"]
