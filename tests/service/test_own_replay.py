"""A player's own replays: the owner of a finished attempt sees it again right after finishing,
as seat 0 saw it (no seed, no hidden card: R10, R4.3, G6), while everyone else waits for the
close; and "Meine Spiele" (``GET /api/me/games``) lists every finished game of the caller's
that is still kept, each with its replay page."""

from __future__ import annotations

import json
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from engine import view
from service import games
from service.common import keys
from service.dailies import store
from service.games.pikdame import positions
from tests.support.accounts import ORIGIN, sign_in, sign_up
from tests.support.api import caller, resign_at_once, start
from tests.support.authenticator import Authenticator
from tests.support.gin_daily import check_gin_hidden, play_gin_to_end
from tests.support.player import play_to_end
from tests.support.service_app import SECRET, Clock

HIDDEN = "??"


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.get_json()["error"]["code"]


def finished_pikdame(client: FlaskClient, date: str) -> tuple[str, str]:
    """A ranked Pik Dame attempt played to its end (bots' moves in it); (id, token)."""
    attempt, token = start(client, date)
    final = play_to_end(caller(client, token), attempt["id"])
    assert final["status"] == "finished"
    return str(attempt["id"]), token


def test_the_owner_replays_a_finished_attempt_as_seen_before_the_close(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    aid, token = finished_pikdame(client, clock.today)
    path = f"/replay/{aid}/positions"
    own = client.get(path)  # the session cookie of the player who played it
    assert own.status_code == 200
    assert own.headers["Cache-Control"] == "private, no-store"
    text = own.get_data(as_text=True)
    doc = json.loads(text)
    assert doc["seen_by"] == 0 and doc["date"] == clock.today

    # Nothing the owner did not see at the table: not the day's seed, no bot's hand, no stock.
    seed = games.daily("pikdame").seed(SECRET, clock.today)
    assert seed.hex() not in text
    assert doc["record"]["deal"]["seed"] is None
    stored = store.load(rdb, aid)
    assert stored is not None
    game = stored.played
    full = positions(game.to_record(seed), seed)
    assert len(doc["positions"]) == len(full) == len(doc["record"]["moves"]) + 1
    for seen, whole in zip(doc["positions"], full, strict=True):
        assert seen["hands"][0] == whole["hands"][0]  # the owner's own hand
        for seat in range(1, len(whole["hands"])):
            assert seen["hands"][seat] == [HIDDEN] * len(whole["hands"][seat])
        assert seen["stock"] == [HIDDEN] * len(whole["stock"])
        assert seen["discard"] == whole["discard"] and seen["melds"] == whole["melds"]
    last = doc["positions"][-1]
    assert last["removed"] == view(game.state, 0).to_json()["removed"]  # R4.3's card face down
    # the moves as the owner saw them: the attempt's log before the close
    assert doc["record"]["moves"] == client.get(f"/api/attempts/{aid}/log").get_json()["moves"]
    assert not rdb.exists(keys.replay(aid))  # the owner's early view is never cached

    # The attempt's bearer token is its owner too.
    by_token = client.application.test_client().get(
        path, headers={"Authorization": f"Bearer {token}"}
    )
    assert by_token.status_code == 200 and json.loads(by_token.data) == doc


def test_no_one_else_replays_an_attempt_before_the_close(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    aid, _ = resign_at_once(client, clock.today)
    path = f"/replay/{aid}/positions"
    assert client.get(path).status_code == 200
    anonymous = client.application.test_client()
    assert error(anonymous.get(path)) == (409, "day_open")
    other = client.application.test_client()
    _, other_token = resign_at_once(other, clock.today, "Bob")
    assert error(other.get(path)) == (409, "day_open")  # another player's session
    foreign = {"Authorization": f"Bearer {other_token}"}
    assert error(anonymous.get(path, headers=foreign)) == (409, "day_open")
    # the owner's unfinished attempt is refused too (the round still runs)
    clock.advance(days=1)
    playing, _ = start(client, clock.today)
    assert error(client.get(f"/replay/{playing['id']}/positions")) == (409, "day_open")
    # once the day has closed, the full public document (seed and every hand) for anyone
    public = anonymous.get(path).get_json()
    assert "seen_by" not in public and public["record"]["deal"]["seed"] is not None


def test_the_owner_replays_a_finished_gin_match_without_hidden_cards(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    attempt, token = start(client, clock.today, game="gin")
    play_gin_to_end(caller(client, token), attempt["id"])
    aid = attempt["id"]
    path = f"/replay/{aid}/positions"
    stranger = client.application.test_client()
    assert error(stranger.get(path)) == (409, "day_open")
    own = client.get(path)
    assert own.status_code == 200 and own.headers["Cache-Control"] == "private, no-store"
    text = own.get_data(as_text=True)
    doc = json.loads(text)
    assert doc["game"] == "gin" and doc["seen_by"] == 0
    assert doc["record"]["seeds"]["seed"] is None
    assert doc["record"] == client.get(f"/api/attempts/{aid}/log").get_json()
    stored = store.load(rdb, aid)
    assert stored is not None
    match = stored.played
    seed_hex = match.to_record(reveal_seed=True)["seeds"]["seed"]
    assert seed_hex not in text
    for position in [*doc["positions"], *doc["deals"]]:
        assert set(position["stock"]) <= {HIDDEN}
        assert (
            position["knock"] is None
            or position["knock"]["seat"] == 0
            or (position["knock"]["card"] is None)
        )
    # the last hand's hidden cards as the live view hid them (the bot's hand unless laid open)
    last = json.dumps(doc["positions"][-1])
    check_gin_hidden(
        last.replace('"stock":', '"s":').replace('"hands":[', '"h":['), match, seed_hex
    )


def test_my_games_lists_every_finished_game_with_its_replay(
    app: Flask, client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    assert client.get("/api/me/games").get_json() == {"games": []}  # a new browser
    ranked, token = resign_at_once(client, clock.today)
    practice = client.post("/api/daily/2026-11-28/practice", json={"name": "Ada"})
    assert practice.status_code == 201
    pid = practice.get_json()["attempt"]["id"]
    resigned = client.post(f"/api/attempts/{pid}/moves", json={"move": "resign", "seq": 0})
    assert resigned.status_code == 200
    gin_id, _ = resign_at_once(client, clock.today, game="gin")
    made = client.post(
        "/api/tables",
        json={
            "game": "pikdame",
            "name": "Ada",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}],
        },
    )
    assert made.status_code == 201, made.get_json()
    table_id = made.get_json()["table"]["id"]
    assert client.post(f"/api/tables/{table_id}/start", json={}).status_code == 200
    assert client.post(f"/api/tables/{table_id}/resign", json={}).status_code == 200
    playing = client.post("/api/daily/2026-11-28/practice", json={"name": "Ada"})
    assert playing.status_code == 201  # never finished: not listed

    answer = client.get("/api/me/games")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "private, no-store"
    games = answer.get_json()["games"]
    # the list holds what finished, newest first
    assert {(g["type"], g["id"]) for g in games} == {
        ("attempt", ranked),
        ("attempt", pid),
        ("attempt", gin_id),
        ("table", table_id),
    }
    by_id = {g["id"]: g for g in games}
    assert by_id[ranked]["replay"] == f"/replay/{ranked}" and by_id[ranked]["ranked"] is True
    assert by_id[pid]["ranked"] is False and by_id[pid]["date"] == "2026-11-28"
    assert by_id[gin_id]["replay"] == f"/gin/replay/{gin_id}" and by_id[gin_id]["game"] == "gin"
    assert by_id[table_id]["replay"] == f"/tables/{table_id}/replay"
    stamps = [g["finished_ms"] for g in games]
    assert stamps == sorted(stamps, reverse=True)

    # an API client's token lists its player's games; someone else's list is their own
    with_token = app.test_client().get(
        "/api/me/games", headers={"Authorization": f"Bearer {token}"}
    )
    assert {g["id"] for g in with_token.get_json()["games"]} == set(by_id)
    assert app.test_client().get("/api/me/games").get_json() == {"games": []}
    bad = app.test_client().get("/api/me/games", headers={"Authorization": "Bearer nope"})
    assert error(bad) == (401, "unauthorized")

    # a game the store no longer keeps (a practice attempt past its day) leaves the list
    rdb.delete(keys.attempt(pid))
    assert pid not in {g["id"] for g in client.get("/api/me/games").get_json()["games"]}


def test_my_games_keeps_the_newest_fifty(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    for _ in range(52):
        practice = client.post("/api/daily/2026-11-28/practice", json={"name": "Ada"})
        pid = practice.get_json()["attempt"]["id"]
        client.post(f"/api/attempts/{pid}/moves", json={"move": "resign", "seq": 0})
        clock.advance(minutes=1)
    games = client.get("/api/me/games").get_json()["games"]
    assert len(games) == 50
    player = store.load(rdb, games[0]["id"])
    assert player is not None and rdb.zcard(keys.player_games(player.player)) == 50


def test_an_account_replays_and_lists_the_games_of_its_devices(
    app: Flask, client: FlaskClient, clock: Clock
) -> None:
    """A game played on a device before sign-up is the account's: another device signed in to
    the account replays it before the close and finds it in the list; others are still refused."""
    aid, _ = resign_at_once(client, clock.today)
    phone = Authenticator(ORIGIN)
    sign_up(client, phone, "Ada", attach=True)
    laptop = app.test_client()
    assert error(laptop.get(f"/replay/{aid}/positions")) == (409, "day_open")  # not yet signed in
    sign_in(laptop, phone)
    early = laptop.get(f"/replay/{aid}/positions")
    assert early.status_code == 200 and early.get_json()["seen_by"] == 0
    assert [g["id"] for g in laptop.get("/api/me/games").get_json()["games"]] == [aid]
    stranger = app.test_client()
    assert error(stranger.get(f"/replay/{aid}/positions")) == (409, "day_open")
    assert stranger.get("/api/me/games").get_json() == {"games": []}
