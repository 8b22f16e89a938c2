"""Gin in the per-player features: the statistics per daily game
(``/api/me/stats?game=gin``), ``pikdame suspicious`` covering Gin's ranked starts, a league's
boards per daily game (``?game=gin``); Pik Dame's answers keep their shape without ``game``."""

from __future__ import annotations

import json

import redis
from flask import Flask
from flask.testing import FlaskClient

from service.accounts import suspicious
from tests.support.accounts import ORIGIN, sign_up
from tests.support.api import resign_at_once
from tests.support.authenticator import Authenticator
from tests.support.processes import pikdame, service_env
from tests.support.service_app import SECRET, Clock, make_app
from worker.verify import verify


def _gin_day(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str], name: str
) -> str:
    """A verified (resigned) Gin daily match of the signed-in ``client``."""
    attempt_id, _ = resign_at_once(client, clock.today, name, "gin")
    assert verify(rdb, attempt_id, SECRET, rankings)["status"] == "verified"
    return attempt_id


def test_my_statistics_of_gin_are_selected_by_game(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """``/api/me/stats?game=gin``: the Gin days' statistics; without ``game`` Pik Dame's, as
    before (GD1: one mechanism everywhere)."""
    sign_up(client, Authenticator(ORIGIN), "Ada")
    attempt_id = _gin_day(client, clock, rdb, rankings, "Ada")
    score = int(rdb.hget(f"pd:{{a:{attempt_id}}}:attempt", "score") or "0")
    gin = client.get("/api/me/stats", query_string={"game": "gin"}).get_json()
    assert gin["stats"]["game"] == "gin" and gin["stats"]["games"] == 1
    assert gin["stats"]["best"] == score
    assert gin["stats"]["recent"] == [{"date": clock.today, "score": score}]
    assert gin["streaks"]["gin"]["current"] == 1
    plain = client.get("/api/me/stats").get_json()
    assert plain["stats"]["game"] == "pikdame" and plain["stats"]["games"] == 0
    assert plain["streaks"] == gin["streaks"]
    bad = client.get("/api/me/stats", query_string={"game": "skat"})
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "bad_value"


def test_the_operator_sees_gins_shared_addresses_and_fresh_top_scores(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """``pikdame suspicious``: three accounts made from one address each start a ranked Gin
    match: listed under ``gin``; Pik Dame's lists (the top level, as before) stay empty."""
    started = []
    for name in ("Ada", "Bea", "Cleo"):
        web = app.test_client()
        sign_up(web, Authenticator(ORIGIN), name)
        started.append(_gin_day(web, clock, rdb, rankings, name))
    report = suspicious.report(rdb, rankings, clock.today)
    assert report["shared_address"] == [] and report["fresh_account_top_score"] == []
    gin = report["gin"]
    assert gin["shared_address"] == [{"address": "127.0.0.1", "attempts": sorted(started)}]
    assert sorted(f["attempt_id"] for f in gin["fresh_account_top_score"]) == sorted(started)


def test_the_suspicious_command_prints_gin(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str], redis_url: str
) -> None:
    web = app.test_client()
    sign_up(web, Authenticator(ORIGIN), "Ada")
    attempt_id = _gin_day(web, clock, rdb, rankings, "Ada")
    result = pikdame(service_env(redis_url, SECRET.decode()), "suspicious", clock.today)
    assert result.returncode == 0, result.stderr
    fresh = json.loads(result.stdout)["gin"]["fresh_account_top_score"]
    assert [f["attempt_id"] for f in fresh] == [attempt_id]


def test_a_leagues_boards_per_daily_game(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """A league's daily and all-time boards of Gin with ``game=gin``; Pik Dame's (no
    ``game``) do not count Gin days and keep their keys."""
    ada, bea = app.test_client(), app.test_client()
    sign_up(ada, Authenticator(ORIGIN), "Ada")
    sign_up(bea, Authenticator(ORIGIN), "Bea")
    code = ada.post("/api/leagues", json={"name": "Runde"}).get_json()["league"]["code"]
    assert bea.post(f"/api/leagues/{code}/join", json={}).status_code == 200
    _gin_day(ada, clock, rdb, rankings, "Ada")
    _gin_day(bea, clock, rdb, rankings, "Bea")
    gin = ada.get(f"/api/leagues/{code}", query_string={"game": "gin"}).get_json()
    assert gin["game"] == "gin"
    assert sorted(e["name"] for e in gin["day"]["entries"]) == ["Ada", "Bea"]
    assert sorted(e["name"] for e in gin["all_time"]["entries"]) == ["Ada", "Bea"]
    plain = ada.get(f"/api/leagues/{code}").get_json()
    assert "game" not in plain
    assert plain["day"]["entries"] == [] and plain["all_time"]["entries"] == []


def test_the_new_parameters_are_in_the_openapi_document(client: FlaskClient) -> None:
    doc = client.get("/api/openapi.json").get_json()
    for path in ("/api/me/stats", "/api/leagues/{code}"):
        names = [p["name"] for p in doc["paths"][path]["get"]["parameters"]]
        assert "game" in names, path


def test_the_start_limit_counts_both_games_together(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    """GD7: PIKDAME_LIMIT_ATTEMPTS counts every attempt a client creates, of either game."""
    app = make_app(
        redis_url,
        clock,
        PIKDAME_LIMITS_ENABLED=True,
        PIKDAME_LIMIT_ATTEMPTS="2 per hour",
        PIKDAME_RANK_ANONYMOUS="0",
    )
    web = app.test_client()  # anonymous: "ohne Wertung", any number a day but for the limit
    date = clock.today
    assert web.post(f"/api/daily/{date}/attempts", json={"name": "Ada"}).status_code == 201
    gin = {"name": "Ada", "game": "gin"}
    assert web.post(f"/api/daily/{date}/attempts", json=gin).status_code == 201
    third = web.post(f"/api/daily/{date}/attempts", json=gin)
    assert third.status_code == 429, third.get_json()
