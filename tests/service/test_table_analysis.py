"""A table round's analysis on the real stack (service.tables.analyses, docs/TABLES.md
"Analysis"): a real Redis and the analysis worker serving the analyses' own queue.

Your own seat's round once it has ended, while the game goes on; another seat's only once the
game has ended (never a running game); the real deal once its seed is revealed (Pik Dame: the
round's end, F3; Gin: the match's, G3). The document is the engine's, cached per record and
engine version; a failed job answers 503 ``analysis_failed`` once and is then queued anew. No
answer holds a seed that is still secret. Gin's daily match by hand (``?hand=N``) too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.job import Job
from rq.serializers import JSONSerializer

from engine.gin.analysis import analyse as analyse_gin
from engine.pikdame.analysis import analyse
from service.common import keys
from service.dailies import store
from service.tables import analyses
from service.tables import store as tables
from service.tables.store import Table
from tests.support.api import caller, start
from tests.support.gin_daily import play_gin_to_end
from tests.support.gin_player import gin_choice
from tests.support.processes import service_env, start_analysis_worker, start_worker
from tests.support.service_app import SECRET, Clock
from tests.support.tables import play_turn

pytestmark = pytest.mark.integration

HUMAN: dict[str, Any] = {"kind": "human"}


def new_table(app: Flask, game: str, level: str) -> tuple[str, Any]:
    response = app.test_client().post(
        "/api/tables",
        json={"game": game, "name": "Ada", "seats": [HUMAN, {"kind": "bot", "level": level}]},
    )
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["table"]["id"], caller(app.test_client(), body["token"])


def run_jobs(redis_url: str, tmp_path: Path, name: str, verify: bool = False) -> None:
    """The analysis worker ``--burst`` (``verify``: the steady worker): every queued job done,
    then it exits."""
    env = service_env(redis_url, SECRET.decode())
    start = start_worker if verify else start_analysis_worker
    worker = start(env, tmp_path / name, burst=True)
    try:
        assert worker.popen.wait(timeout=300) == 0
    finally:
        worker.stop()


def record_of(rdb: redis.Redis[str], table_id: str) -> dict[str, Any]:
    """The game's record with every seed (the worker's input), from the stored table."""
    table = tables.load(rdb, table_id)
    assert table is not None
    first = Table(**{**table.__dict__, "seats": table.first_seats})
    return table.kind.record(table.loaded(), first.engine_seats())


def secret_seeds(rdb: redis.Redis[str], table_id: str) -> list[str]:
    """The seeds of the stored game not yet revealed (a running round's, a pending one's)."""
    stored = json.loads(str(rdb.get(keys.table(table_id))))["session"]
    found = [r["seed"] for r in stored.get("rounds", []) if "seed" in r]
    if stored.get("pending"):
        found.append(stored["pending"][1])
    return [s for s in found if s not in json.dumps(record_of(rdb, table_id))]


def code(answer: tuple[int, Any]) -> tuple[int, str]:
    return answer[0], answer[1]["error"]["code"]


def test_a_table_round_is_analysed_for_its_seat_after_the_round_and_others_after_the_game(
    app: Flask, rdb: redis.Redis[str], redis_url: str, queue_url: str, tmp_path: Path
) -> None:
    table_id, ada = new_table(app, "pikdame", "beginner")
    path = f"/api/tables/{table_id}/analysis"
    stranger = caller(app.test_client())
    assert code(ada("GET", f"{path}?round=1", None)) == (409, "not_started")
    status, body = ada("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200, body
    table = body["table"]
    assert code(ada("GET", f"{path}?round=1", None)) == (409, "round_running")
    assert stranger("GET", f"{path}?round=1", None)[0] in (401, 403)  # a running game's seats'
    assert ada("GET", f"{path}?hand=1", None)[0] == 422  # Pik Dame's part is a round
    assert ada("GET", path, None)[0] == 422
    for _ in range(3000):  # round 1 to its end
        if table["rounds"] and table["rounds"][0]["scores"] is not None:
            break
        table = play_turn(ada, table)
    assert table["status"] == "playing" and table["rounds"][0]["scores"] is not None
    assert code(ada("GET", f"{path}?round=1&seat=1", None)) == (409, "not_finished")
    assert code(ada("GET", f"{path}?round=1&seat=7", None)) == (404, "unknown_seat")
    assert code(ada("GET", f"{path}?round=9", None)) == (404, "unknown_round")

    status, body = ada("GET", f"{path}?round=1", None)
    assert (status, body) == (202, {"status": "queued"})
    stored = tables.load(rdb, table_id)
    assert stored is not None
    job = Job.fetch(
        analyses.job_id(stored, 1, 0, "view"),
        connection=redis.Redis.from_url(queue_url),  # RQ's keys: the queue role's
        serializer=JSONSerializer,
    )
    assert job.origin == "analysis"  # its own queue, never the verification's
    assert ada("GET", f"{path}?round=1&mode=deal", None)[0] == 202  # the round's seed is public
    run_jobs(redis_url, tmp_path, "worker1.log")

    record = record_of(rdb, table_id)
    secrets = secret_seeds(rdb, table_id)
    status, doc = ada("GET", f"{path}?round=1", None)
    assert status == 200, doc
    assert doc == analyse(record, 0, round=1, mode="view")  # the engine's document
    assert doc["source"] == {"format": "pikdame-game/1", "engine": record["engine"], "round": 1}
    engine = stored.kind.engine_version
    text = rdb.get(keys.table_analysis(table_id, 1, 0, "view", engine))
    assert text is not None and json.loads(text) == doc  # cached per record and engine version
    assert ada("GET", f"{path}?round=1", None) == (200, doc)  # the same document again
    assert secrets  # the next round's seed, dealt or waiting for its cut
    for secret in secrets:  # still secret: in no answer
        assert secret not in text
    status, deal = ada("GET", f"{path}?round=1&mode=deal", None)
    assert (status, deal) == (200, analyse(record, 0, round=1, mode="deal"))

    # once the game has ended: any seat's round, for anyone (the replay rules)
    status, body = ada("POST", f"/api/tables/{table_id}/resign", {})
    assert status == 200, body
    assert code(stranger("GET", f"{path}?round=1", None)) == (422, "bad_value")  # whose?
    assert stranger("GET", f"{path}?round=1&seat=0", None) == (200, doc)
    assert stranger("GET", f"{path}?round=1&seat=1", None) == (202, {"status": "queued"})
    assert ada("GET", f"{path}?round=1&seat=1", None) == (202, {"status": "queued"})


def test_a_gin_hand_waits_for_its_end_a_failed_job_answers_503_once_and_is_retried(
    app: Flask, rdb: redis.Redis[str], redis_url: str, tmp_path: Path
) -> None:
    table_id, ada = new_table(app, "gin", "plain")
    path = f"/api/tables/{table_id}/analysis"
    status, body = ada("POST", f"/api/tables/{table_id}/start", {})
    table = body["table"]
    assert code(ada("GET", f"{path}?hand=1", None)) == (409, "round_running")
    assert ada("GET", f"{path}?round=1", None)[0] == 422  # Gin's part is a hand
    for _ in range(3000):  # hand 1 to its end
        if table["rounds"]:
            break
        status, body = ada(
            "POST",
            f"/api/tables/{table_id}/moves",
            {"move": gin_choice(table["view"]), "seq": table["seq"]},
        )
        assert status == 200, body
        table = body["table"]
    assert table["status"] == "playing" and len(table["rounds"]) == 1
    assert code(ada("GET", f"{path}?hand=3", None)) == (404, "unknown_hand")
    # G3: one seed deals the match: the real deal waits for the match's end
    assert code(ada("GET", f"{path}?hand=1&mode=deal", None)) == (409, "seed_secret")

    assert ada("GET", f"{path}?hand=1", None) == (202, {"status": "queued"})
    good = rdb.get(keys.table(table_id))
    assert good is not None
    broken = json.loads(good)
    broken["session"] = {"broken": True}
    rdb.set(keys.table(table_id), json.dumps(broken))  # the job can't read the game: it fails
    run_jobs(redis_url, tmp_path, "worker1.log")
    rdb.set(keys.table(table_id), good)
    assert code(ada("GET", f"{path}?hand=1", None)) == (503, "analysis_failed")  # once
    assert ada("GET", f"{path}?hand=1", None) == (202, {"status": "queued"})  # retried
    run_jobs(redis_url, tmp_path, "worker2.log")
    status, doc = ada("GET", f"{path}?hand=1", None)
    assert status == 200, doc
    record = record_of(rdb, table_id)
    assert doc == analyse_gin(record, 0, hand=1, mode="view")
    text = json.dumps(doc)
    assert record["seeds"]["seed"] not in text  # the match's seed: secret until its end


def test_a_gin_daily_match_is_analysed_hand_by_hand(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], redis_url: str, tmp_path: Path
) -> None:
    attempt, token = start(client, clock.today, game="gin")
    aid = str(attempt["id"])
    play_gin_to_end(caller(client, token), aid)
    path = f"/api/attempts/{aid}/analysis"
    run_jobs(redis_url, tmp_path, "verify.log", verify=True)  # the verification first
    stored = store.load(rdb, aid)
    assert stored is not None and stored.verification == "verified"
    hands = stored.analysis.daily_parts(stored.played)
    assert hands >= 1
    assert client.get(f"{path}?hand={hands + 1}").get_json()["error"]["code"] == "unknown_hand"
    assert client.get(f"{path}?round=1").status_code == 422
    assert client.get(f"{path}?hand={hands}").status_code == 202
    assert client.get(path).status_code == 202  # hand 1 by default
    run_jobs(redis_url, tmp_path, "analyse.log")
    seed = stored.daily.seed(SECRET, clock.today)
    record = stored.daily.daily_record(stored.played, seed)
    last = client.get(f"{path}?hand={hands}")
    assert last.status_code == 200 and seed.hex() not in last.get_data(as_text=True)
    assert last.get_json() == analyse_gin(record, hand=hands, mode="view")
    assert client.get(path).get_json() == analyse_gin(record, hand=1, mode="view")
