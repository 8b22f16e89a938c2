"""Gin's week's tournament through the API (issue 42, docs/EVENTS.md): each deal is one hand
against the strong bot, the same hand for everyone (duplicate), scored as the player's points
minus the bot's for that hand; a real ``rq worker`` verifies every record as a daily record and
folds it into the standings, whose matchpoints are recomputed here by brute force from the raw
scores (service.events.scoring). A forged record is rejected and scores nothing; an event
record is not a day's, nor a day's an event deal's (the setup pins ``rules``)."""

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

from engine import gin
from engine.core.events import event_seed
from service import games
from service.common import keys
from service.events import deals, scoring, store
from service.games.adapter import EVENT
from tests.support import engine_cli
from tests.support.accounts import ORIGIN, sign_up
from tests.support.api import caller, tamper
from tests.support.authenticator import Authenticator
from tests.support.events import resign_deal, start_deal
from tests.support.gin_daily import play_gin_to_end
from tests.support.processes import service_env, start_worker, wait_for
from tests.support.service_app import SECRET, Clock
from worker.events import verified_event

GAME = "gin"
WEEK = "2026-W49"  # Monday 2026-11-30 (the service tests' clock) to Sunday 2026-12-06
BASE = f"/api/events/{GAME}/{WEEK}"


@pytest.fixture(autouse=True)
def accounts_deployment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default deployment: anonymous play is not ranked."""
    monkeypatch.setenv("PIKDAME_RANK_ANONYMOUS", "0")


def _get(client: FlaskClient, path: str) -> dict[str, Any]:
    response = client.get(path)
    assert response.status_code == 200, (path, response.get_json())
    doc: dict[str, Any] = response.get_json()
    return doc


def progress_ids(client: FlaskClient) -> list[str]:
    """The attempt ids of the caller's deals, in order."""
    return [d["attempt_id"] for d in _get(client, BASE)["event"]["progress"]["deals"]]


def test_gin_is_an_event_game_declared_by_its_adapter() -> None:
    """Both daily games declare the week's tournament (``EVENT``): no list names them."""
    assert {"pikdame", GAME} <= set(deals.EVENT_GAMES) <= set(games.DAILY_GAMES)


def test_a_gin_week_verified_by_a_worker_scored_against_the_field(
    app: Flask, clock: Clock, rdb: redis.Redis[str], redis_url: str, tmp_path: Path
) -> None:
    players = {}
    for name in ("Ada", "Bob", "Cy"):
        players[name] = app.test_client()
        sign_up(players[name], Authenticator(ORIGIN), name)
    # Ada plays every hand out, Bob plays the odd deals out and resigns the even ones, Cy plays
    # deals 1 to 3 out and abandons deal 4: ties at the resignations' score, an abandoned deal
    # and an incomplete player.
    finished: list[str] = []
    first_hands: dict[int, list[str]] = {}
    hands: dict[tuple[str, int], dict[str, Any]] = {}  # each played-out hand's final view
    abandoned = ""
    for n in range(1, 7):
        for name, web in players.items():
            if name == "Cy" and n > 4:
                continue
            created = start_deal(web, BASE, name)
            attempt = created["attempt"]
            assert created["n"] == n and attempt["event"] == f"{WEEK}/{n}"
            assert attempt["ranked"] is True and attempt["game"] == GAME
            # duplicate: everyone is dealt the same hand of deal n, seat 1 dealing (G2)
            view = attempt["view"]
            assert (view["hand_no"], view["dealer"], view["seat"]) == (1, 1, 0)
            first_hands.setdefault(n, view["hand"])
            assert view["hand"] == first_hands[n], (name, n)
            if name == "Cy" and n == 4:
                abandoned = attempt["id"]
                continue
            if name == "Bob" and n % 2 == 0:
                done = resign_deal(web, attempt)
            else:
                done = play_gin_to_end(caller(web), attempt["id"])
                hands[(name, n)] = done["view"]
            assert done["status"] == "finished"
            finished.append(keys.attempt(attempt["id"]))
            clock.advance(seconds=1)  # distinct finishes: tie-break 3 decides before the ids
    assert len({tuple(h) for h in first_hands.values()}) == 6  # six deals, six seeds (F4e)
    for view in hands.values():  # one hand, however it ended (G6, G7): no second is dealt
        assert view["outcome"] is not None and len(view["results"]) == 1
        assert view["hand_no"] == 1 and view["match_winner"] in (0, 1, None)
    assert all(d["seed"] is None for d in _get(players["Ada"], BASE)["event"]["deals"])
    # before the close the owner's record hides the seed (F4e) and the bot's knock card (G6)
    own = players["Ada"].get(f"/api/attempts/{progress_ids(players['Ada'])[0]}/log")
    assert own.status_code == 200 and own.get_json()["seeds"]["seed"] is None
    seed_hex = event_seed(SECRET, GAME, WEEK, 1).hex()
    assert seed_hex not in own.get_data(as_text=True)
    assert all(
        m["move"].startswith("knock ??")
        for m in own.get_json()["moves"]
        if m["seat"] == 1 and m["move"].startswith("knock")
    )

    worker = start_worker(service_env(redis_url, SECRET.decode()), tmp_path / "worker.log")
    try:
        assert len(finished) == 6 + 6 + 3
        wait_for(
            lambda: all(rdb.hget(k, "verification") == "verified" for k in finished),
            timeout=120,
            interval=0.2,
        )
    finally:
        worker.stop()

    # the raw scores, as each player's progress reports them, and their records' finish times
    progress = {n: _get(web, BASE)["event"]["progress"]["deals"] for n, web in players.items()}
    raw: dict[str, dict[int, tuple[int, int]]] = {}
    for name, rows in progress.items():
        raw[name] = {
            d["n"]: (d["score"], int(rdb.hget(keys.attempt(d["attempt_id"]), "finished") or 0))
            for d in rows
            if d["verification"] == "verified"
        }
        for d in rows:
            if (name, d["n"]) in hands:  # the hand's points difference (issue 42)
                totals = hands[(name, d["n"])]["totals"]
                assert d["score"] == totals[0] - totals[1]
            elif d["status"] == "finished":  # a resignation: the most a hand gives, lost
                assert d["score"] == -gin.HAND_MOST
    assert sum(len(r) for r in raw.values()) == len(finished)
    for name, rows in progress.items():
        for d in (d for d in rows if d["verification"] == "verified"):
            others = [r[d["n"]][0] for p, r in raw.items() if p != name and d["n"] in r]
            assert d["result"]["percent"] == round(float(scoring.percentage(d["score"], others)), 2)
            assert d["result"]["others"] == len(others)
    clock.advance(seconds=61)  # the live standings are at most 60 s old
    live = _get(players["Ada"], f"{BASE}/standings")
    assert live["final"] is False
    expected, incomplete = scoring.standings(raw, 6)
    assert [e["name"] for e in live["entries"]] == [s.player for s in expected] != []
    assert [e["percent"] for e in live["entries"]] == [round(float(s.score), 2) for s in expected]
    assert {e["name"]: e["deals"] for e in live["incomplete"]} == incomplete == {"Cy": 3}

    # the close: Cy's abandoned deal 4 counts as the field's worst score on it
    clock.set_day("2026-12-07", hour=3)  # Sunday 24:00 + the grace (120 min) has passed
    worst = min(raw[p][4][0] for p in ("Ada", "Bob"))
    assert _get(players["Cy"], BASE)["event"]["progress"]["deals"][3]["result"]["score"] == worst
    final = _get(players["Bob"], f"{BASE}/standings")
    assert final["final"] is True
    raw["Cy"][4] = (worst, int(dt.datetime(2026, 12, 7, 2, tzinfo=dt.UTC).timestamp() * 1000))
    expected, incomplete = scoring.standings(raw, 6)
    assert [e["name"] for e in final["entries"]] == [s.player for s in expected]
    assert [e["percent"] for e in final["entries"]] == [round(float(s.score), 2) for s in expected]
    assert {e["name"]: e["deals"] for e in final["incomplete"]} == incomplete == {"Cy": 4}
    assert rdb.hget(keys.attempt(abandoned), "status") != "finished"
    event = _get(app.test_client(), BASE)["event"]
    for deal in event["deals"]:
        assert hashlib.sha256(bytes.fromhex(deal["seed"])).hexdigest() == deal["commitment"]
    # a deal's record is public now, with its event seed; it says it is one hand, and the
    # engine's command line verifies it as it verifies a Gin daily record (G9 replay)
    ada6 = progress["Ada"][5]
    record = _get(app.test_client(), f"/api/attempts/{ada6['attempt_id']}/log")
    assert record["rules"] == {"hands": 1} and len(record["hands"]) == 1
    assert record["seeds"]["seed"] == event["deals"][5]["seed"]
    code, outcome, err = engine_cli.run("gin", "replay", stdin=json.dumps(record))
    assert code == 0, err
    totals = outcome["result"]["totals"]
    assert outcome["ok"] is True and totals[0] - totals[1] == ada6["score"]
    # the replay viewer shows the one hand: its deal and a position after every move
    steps = _get(app.test_client(), f"/replay/{ada6['attempt_id']}/positions")
    assert len(steps["deals"]) == 1 and len(steps["positions"]) == len(record["moves"])
    assert steps["positions"][-1]["outcome"] == {
        k: v for k, v in record["hands"][0].items() if k not in ("hand", "dealer")
    }


def test_only_a_verified_gin_record_scores_and_once(
    app: Flask, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """The verifier judges a Gin event deal's record against the event deal's setup (one hand of
    the event's seed): a forged score, a record without its one-hand rules (a match to 100 would
    go on) and another deal's record are rejected and fold nothing; an honest one is folded
    once however often it is judged."""
    ids = []
    for name in ("Ada", "Bob", "Cy", "Dee"):
        web = app.test_client()
        sign_up(web, Authenticator(ORIGIN), name)
        attempt = start_deal(web, BASE, name)["attempt"]
        play_gin_to_end(caller(web), attempt["id"])
        ids.append(attempt["id"])

    def inflate(record: dict[str, Any]) -> None:
        record["hands"][0]["scores"][0] += 50
        record["totals"][0] += 50
        record["result"]["totals"][0] += 50

    def match_to_100(record: dict[str, Any]) -> None:
        del record["rules"]

    tamper(rdb, ids[0], inflate)
    tamper(rdb, ids[1], match_to_100)
    rdb.hset(keys.attempt(ids[2]), "event", f"{WEEK}/2")  # judged against deal 2's seed
    reasons = []
    for aid in ids[:3]:
        assert verified_event(rdb, aid, SECRET, rankings).result["status"] == "rejected"
        reasons.append(rdb.hget(keys.attempt(aid), "reason"))
    assert reasons == ["score_mismatch", "setup_mismatch in rules", "setup_mismatch in seeds"]
    for _ in range(2):
        verified_event(rdb, ids[3], SECRET, rankings)
    assert rdb.hget(keys.attempt(ids[3]), "verification") == "verified"
    score = int(rdb.hget(keys.attempt(ids[3]), "score") or 0)
    assert store.distribution(rankings, GAME, WEEK, 1) == {score: 1}
    assert rankings.zcard(store.deal_key(GAME, WEEK, 2)) == 0


def test_an_event_deal_is_not_a_day_nor_a_day_an_event_deal() -> None:
    """The setup pins ``rules`` both ways: a day's verifier rejects a one-hand record of the
    day's seed, the event's verifier a day's match of the event's seed."""
    adapter = games.offering(EVENT)[GAME]
    seed = event_seed(SECRET, GAME, WEEK, 1)
    hand = adapter.event_new(seed, "Ada")
    hand.play("resign", 0)
    record = hand.to_record(reveal_seed=True)
    score = adapter.result(hand)[0]
    assert adapter.event_judge(record, seed, "Ada", score).status == "verified"
    assert adapter.judge(record, seed, "Ada", score).reason == "setup_mismatch in rules"
    day = adapter.new(seed, "Ada")
    day.play("resign", 0)
    record = day.to_record(reveal_seed=True)
    score = adapter.result(day)[0]
    assert adapter.judge(record, seed, "Ada", score).status == "verified"
    assert adapter.event_judge(record, seed, "Ada", score).reason == "setup_mismatch in rules"
