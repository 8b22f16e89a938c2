"""The week's tournament through the API (issue 42, docs/EVENTS.md): accounts play the event's
deals in order, a real ``rq worker`` verifies every record as a daily record and folds it into
the standings, whose matchpoints are recomputed here by brute force from the raw scores
(service.events.scoring); the close folds an abandoned deal as the field's worst and publishes
seeds that match the commitments (F4e). A rehearsal and a second ranked play are refused."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.common import keys
from service.events import scoring, store
from tests.support import engine_cli
from tests.support.accounts import ORIGIN, sign_in, sign_up
from tests.support.api import caller, tamper
from tests.support.authenticator import Authenticator
from tests.support.events import resign_deal, start_deal
from tests.support.player import play_to_end
from tests.support.processes import service_env, start_worker, wait_for
from tests.support.service_app import SECRET, Clock
from worker.events import verified_event

GAME = "pikdame"
WEEK = "2026-W49"  # Monday 2026-11-30 (the service tests' clock) to Sunday 2026-12-06
BASE = f"/api/events/{GAME}/{WEEK}"


@pytest.fixture(autouse=True)
def accounts_deployment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default deployment: anonymous play is not ranked."""
    monkeypatch.setenv("PIKDAME_RANK_ANONYMOUS", "0")


def _refused(client: FlaskClient, code: str) -> None:
    response = client.post(f"{BASE}/deals", json={"name": "X"})
    assert response.status_code == 409, response.get_json()
    assert response.get_json()["error"]["code"] == code
    assert "token" not in response.get_json()


def _event(client: FlaskClient) -> dict[str, Any]:
    response = client.get(BASE)
    assert response.status_code == 200, response.get_json()
    event: dict[str, Any] = response.get_json()["event"]
    return event


def _standings(client: FlaskClient) -> dict[str, Any]:
    response = client.get(f"{BASE}/standings")
    assert response.status_code == 200, response.get_json()
    doc: dict[str, Any] = response.get_json()
    return doc


def test_a_whole_event_verified_by_a_worker_scored_against_the_field(
    app: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    redis_url: str,
    tmp_path: Path,
) -> None:
    assert _event(app.test_client())["week"] == WEEK  # the clock's week, not the real date's
    players = {}
    for name in ("Ada", "Bob", "Cy", "Dee"):
        players[name] = app.test_client()
        sign_up(players[name], Authenticator(ORIGIN), name)
    # Ada plays every deal out, Bob resigns every deal at once (ties with Cy where Cy resigns
    # too), Cy abandons deal 6, Dee plays deal 1 only: a field with ties, an abandoned deal and
    # an incomplete player.
    finished: list[str] = []
    for n in range(1, 7):
        for name, web in players.items():
            if name == "Dee" and n > 1:
                continue
            created = start_deal(web, BASE, name)
            assert created["n"] == n and created["attempt"]["event"] == f"{WEEK}/{n}"
            assert created["attempt"]["ranked"] is True
            attempt = created["attempt"]
            if name == "Cy" and n == 2:
                _refused(web, "deal_running")  # the next deal waits for this one
            if name == "Cy" and n == 6:
                continue  # abandoned
            finished.append(keys.attempt(attempt["id"]))
            if name == "Ada" or (name == "Cy" and n % 2):
                play_to_end(caller(web), attempt["id"], use_hints=False)
            else:
                resign_deal(web, attempt)
            clock.advance(seconds=1)  # distinct finishes: tie-break 3 decides before the ids
    _refused(players["Ada"], "event_done")  # each deal once: no seventh, no second play
    ada = _event(players["Ada"])
    assert ada["progress"]["started"] == 6 and ada["progress"]["next"] is None
    assert all(d["seed"] is None for d in ada["deals"])  # F4e: secret until the close

    worker = start_worker(service_env(redis_url, SECRET.decode()), tmp_path / "worker.log")
    try:
        assert len(finished) == 6 + 6 + 5 + 1
        wait_for(
            lambda: all(rdb.hget(k, "verification") == "verified" for k in finished),
            timeout=120,
            interval=0.2,
        )
    finally:
        worker.stop()

    # the raw scores, as each player's progress reports them, and their records' finish times
    raw: dict[str, dict[int, tuple[int, int]]] = {}
    progress = {name: _event(web)["progress"]["deals"] for name, web in players.items()}
    for name, deals in progress.items():
        raw[name] = {
            d["n"]: (d["score"], int(rdb.hget(keys.attempt(d["attempt_id"]), "finished") or 0))
            for d in deals
            if d["verification"] == "verified"
        }
    assert sum(len(r) for r in raw.values()) == len(finished)
    for name, deals in progress.items():
        for d in (d for d in deals if d["verification"] == "verified"):
            others = [r[d["n"]][0] for p, r in raw.items() if p != name and d["n"] in r]
            reference = scoring.percentage(d["score"], others)
            assert d["result"]["percent"] == round(float(reference), 2)
            assert d["result"]["others"] == len(others)
    clock.advance(seconds=61)  # the live standings are at most 60 s old
    live = _standings(players["Ada"])
    assert live["final"] is False
    expected, incomplete = scoring.standings(raw, 6)
    assert len(expected) == 2  # Ada and Bob
    assert [e["name"] for e in live["entries"]] == [s.player for s in expected]
    assert [e["percent"] for e in live["entries"]] == [round(float(s.score), 2) for s in expected]
    assert {e["name"]: e["deals"] for e in live["incomplete"]} == incomplete == {"Cy": 5, "Dee": 1}
    assert [e["you"] for e in live["entries"]] == [s.player == "Ada" for s in expected]

    # the close: Cy's abandoned deal 6 counts as the field's worst score on it
    clock.set_day("2026-12-07", hour=3)  # Sunday 24:00 + the grace (120 min) has passed
    cy6 = progress["Cy"][5]
    assert cy6["status"] == "playing"
    path = f"/api/attempts/{cy6['attempt_id']}"
    seq = players["Cy"].get(path).get_json()["attempt"]["seq"]
    late = players["Cy"].post(f"{path}/moves", json={"move": "resign", "seq": seq})
    assert late.status_code == 409 and late.get_json()["error"]["code"] == "day_closed"
    # the event's page closes it too: Cy's abandoned deal has the field's worst score on it
    worst = min(raw[p][6][0] for p in ("Ada", "Bob"))
    assert _event(players["Cy"])["progress"]["deals"][5]["result"]["score"] == worst
    final = _standings(players["Bob"])
    assert final["final"] is True
    raw["Cy"][6] = (worst, int(dt.datetime(2026, 12, 7, 2, tzinfo=dt.UTC).timestamp() * 1000))
    expected, incomplete = scoring.standings(raw, 6)
    assert len(expected) == 3  # and Cy, with the worst score on deal 6
    assert [e["name"] for e in final["entries"]] == [s.player for s in expected]
    assert [e["percent"] for e in final["entries"]] == [round(float(s.score), 2) for s in expected]
    assert {e["name"]: e["deals"] for e in final["incomplete"]} == incomplete == {"Dee": 1}
    event = _event(app.test_client())
    assert event["closed"] is True and event["seconds_left"] == 0
    for deal in event["deals"]:
        assert hashlib.sha256(bytes.fromhex(deal["seed"])).hexdigest() == deal["commitment"]
    # a deal's record is public now, with its event seed, and the engine's command line
    # verifies it as it verifies a daily record (F7 replay)
    ada6 = progress["Ada"][5]
    record = app.test_client().get(f"/api/attempts/{ada6['attempt_id']}/log").get_json()
    assert record["deal"]["seed"] == event["deals"][5]["seed"]
    code, outcome, err = engine_cli.run("replay", stdin=json.dumps(record))
    assert code == 0, err
    assert outcome["ok"] is True
    assert outcome["result"]["round_scores"][0] == ada6["score"]


@pytest.mark.parametrize("attach", [True, False])
def test_a_rehearsal_gets_no_ranked_play_of_the_deal(app: Flask, attach: bool) -> None:
    """A device plays deal 1 "ohne Wertung", then signs up (its device attached or not): the
    account has seen deal 1 and may not play it ranked (409 ``event_deal_seen``), on this
    device or another; a stranger may."""
    web = app.test_client()
    rehearsal = start_deal(web, BASE, "Ada")
    assert rehearsal["n"] == 1 and rehearsal["attempt"]["ranked"] is False
    phone = Authenticator(ORIGIN)
    sign_up(web, phone, "Ada", attach=attach)
    _refused(web, "event_deal_seen")
    laptop = app.test_client()
    sign_in(laptop, phone)
    _refused(laptop, "event_deal_seen")
    other = app.test_client()
    sign_up(other, Authenticator(ORIGIN), "Bob")
    assert start_deal(other, BASE, "Bob")["attempt"]["ranked"] is True
    _refused(other, "deal_running")


def test_no_event_before_its_opening_nor_for_a_game_without_one(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No commitment before Monday 00:00 (issue 42), for either daily game; a daily game that
    does not declare the week's tournament (``EVENT``) has none."""
    for path in ("/api/events/pikdame/2026-W50", "/api/events/gin/2026-W50"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.get_json()["error"]["code"] == "unknown_event"
    assert client.get("/api/events/pikdame/2025-W53").status_code == 404  # 2025 has 52 weeks
    assert client.get("/api/events/gin/2026-W49").status_code == 200
    monkeypatch.setattr("service.events.deals.EVENT_GAMES", ("pikdame",))
    for path in ("/api/events/gin/2026-W49", "/api/events/gin"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.get_json()["error"]["code"] == "unknown_event"


def test_a_deal_started_before_sunday_24_00_may_be_finished_within_the_grace(
    app: Flask, clock: Clock
) -> None:
    """Issue 42: the event is open Monday 00:00 to Sunday 24:00 UTC, and a deal started before
    the end may be finished within the daily grace (PIKDAME_GRACE_MINUTES, 120 in the tests):
    its move after midnight is taken; no deal starts after the end (409 ``event_not_open``)."""
    web = app.test_client()
    clock.set_day("2026-12-06", hour=23)  # Sunday of 2026-W49
    clock.advance(minutes=59, seconds=59)
    started = start_deal(web, BASE, "Ada")
    assert started["n"] == 1
    clock.advance(minutes=30)  # Monday 00:29:59: past the end, within the grace
    done = resign_deal(web, started["attempt"])
    assert done["status"] == "finished"
    _refused(web, "event_not_open")  # the next deal: the event has ended
    assert _event(web)["progress"]["deals"][0]["status"] == "finished"


def test_only_a_verified_record_scores_and_once(
    app: Flask, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """The verifier judges an event deal's record against the event's seed (F4e): a forged one
    is rejected and folds nothing; an honest one is folded once however often it is judged."""
    ids = []
    for name in ("Ada", "Bob"):
        web = app.test_client()
        sign_up(web, Authenticator(ORIGIN), name)
        attempt = start_deal(web, BASE, name)["attempt"]
        resign_deal(web, attempt)
        ids.append(attempt["id"])

    def inflate(record: dict[str, Any]) -> None:
        record["result"]["round_scores"][0] += 500

    # on the reconciler's list like a daily attempt's (a lost job is queued again)
    assert all(rdb.zscore(keys.FINISHED, i) is not None for i in ids)
    tamper(rdb, ids[0], inflate)
    forged = verified_event(rdb, ids[0], SECRET, rankings).result
    assert forged == {"attempt_id": ids[0], "status": "rejected", "new": True}
    assert rdb.hget(keys.attempt(ids[0]), "reason") == "score_mismatch"
    for _ in range(2):
        verified_event(rdb, ids[1], SECRET, rankings)
    assert rdb.hget(keys.attempt(ids[1]), "verification") == "verified"
    assert all(rdb.zscore(keys.FINISHED, i) is None for i in ids)  # judged: off the list
    assert store.distribution(rankings, GAME, WEEK, 1) == {
        int(rdb.hget(keys.attempt(ids[1]), "score") or 0): 1
    }
    # judged against another deal's seed, an honest record is not that deal's
    web = app.test_client()
    sign_up(web, Authenticator(ORIGIN), "Cy")
    attempt = start_deal(web, BASE, "Cy")["attempt"]
    resign_deal(web, attempt)
    rdb.hset(keys.attempt(attempt["id"]), "event", f"{WEEK}/2")
    assert verified_event(rdb, attempt["id"], SECRET, rankings).result["status"] == "rejected"
    assert str(rdb.hget(keys.attempt(attempt["id"]), "reason")).startswith("setup_mismatch")
    assert rankings.zcard(store.deal_key(GAME, WEEK, 2)) == 0
