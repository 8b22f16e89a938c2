"""The lobby and public tables through the API on a real Redis (docs/LOBBY.md): public or private
at creation, join by id, the lobby's listing with presence and whose turn (never a card), rated
tables for accounts only, table talk (fixed phrases, rate-limited, muted per seat) and the
rematch with strangers on consent. Bad input gets a clear error and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from service.common import keys
from service.tables import store as tables
from service.tables import talk
from tests.support.clock import Clock
from tests.support.lobby import play_own_turn, signed_up
from tests.support.tables import assert_nothing_hidden

HUMAN: dict[str, Any] = {"kind": "human"}


def create(client: FlaskClient, **body: Any) -> tuple[int, Any]:
    body = {"game": "pikdame", "name": "Ada", "seats": [HUMAN, HUMAN], **body}
    response = client.post("/api/tables", json=body)
    return response.status_code, response.get_json()


def lobby(client: FlaskClient, query: str = "") -> dict[str, Any]:
    response = client.get(f"/api/lobby{query}")
    assert response.status_code == 200, response.get_json()
    doc: dict[str, Any] = response.get_json()
    return doc


def state(rdb: redis.Redis[str]) -> dict[str, Any]:
    """Every key and its value: what a refused request must leave as it was."""
    found: dict[str, Any] = {}
    for key in sorted(rdb.scan_iter("pd:*")):
        if key.startswith("pd:limits"):
            continue
        kind = rdb.type(key)  # type: ignore[no-untyped-call]
        if kind == "string":
            found[key] = rdb.get(key)
        elif kind == "hash":
            found[key] = rdb.hgetall(key)
        elif kind == "list":
            found[key] = rdb.lrange(key, 0, -1)
        elif kind == "zset":
            found[key] = rdb.zrange(key, 0, -1, withscores=True)
        elif kind == "set":
            found[key] = sorted(rdb.smembers(key))
    return found


def test_a_public_table_is_in_the_lobby_and_a_private_one_is_not(app: Flask) -> None:
    ada = app.test_client()
    status, private = create(ada)
    assert status == 201 and private["table"]["public"] is False
    status, made = create(app.test_client(), game="tausende", public=True, rules={"turn_timer": 30})
    assert status == 201, made
    t = made["table"]
    assert t["public"] is True and t["rated"] is False
    listed = lobby(ada)
    assert [e["id"] for e in listed["open"]] == [t["id"]]
    entry = listed["open"][0]
    assert entry["game"] == "tausende" and entry["free"] == 1 and entry["status"] == "waiting"
    assert entry["rules"]["turn_timer"] == 30 and entry["rules"]["players"] == 2
    assert entry["seats"][0]["name"] == "Ada" and entry["seats"][1]["name"] is None
    assert lobby(ada, "?game=gin")["open"] == []
    assert listed["playing"] == [] and listed["queued"] == {}


def test_a_public_table_is_joined_by_id_and_starts_when_full(
    app: Flask, rdb: redis.Redis[str]
) -> None:
    _, made = create(app.test_client(), public=True, rules={"turn_timer": 60})
    table_id = made["table"]["id"]
    bob = app.test_client()
    response = bob.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})
    assert response.status_code == 200, response.get_json()
    t = response.get_json()["table"]
    assert t["status"] == "playing" and t["seat"] == 1 and t["deadline"] is not None
    listed = lobby(bob)
    assert listed["open"] == []
    playing = listed["playing"][0]
    assert playing["id"] == table_id and playing["turn"] == t["turn"]
    assert [s["away"] for s in playing["seats"]] == [True, True]  # no stream open
    # a private table is joined by its invite only: by id, 403 and nothing changes
    _, private = create(app.test_client())
    before = state(rdb)
    response = bob.post(f"/api/tables/{private['table']['id']}/join", json={"name": "Bob"})
    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "private_table"
    assert state(rdb) == before
    response = bob.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
    assert response.status_code == 409  # already seated (one seat per session)
    response = app.test_client().post("/api/tables/0123456789abcdef/join", json={"name": "Cy"})
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "unknown_table"


def test_the_lobby_never_names_a_card(app: Flask, rdb: redis.Redis[str]) -> None:
    ada = app.test_client()
    _, made = create(ada, public=True)
    table_id = made["table"]["id"]
    ada_token = made["token"]
    bob = app.test_client()
    joined = bob.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).get_json()
    players = {0: (ada, ada_token), 1: (bob, joined["token"])}
    table = joined["table"]
    for _ in range(40):
        text = json.dumps(lobby(ada))
        for seat in (0, 1):
            assert_nothing_hidden(rdb, table_id, seat, text)
        assert '"view"' not in text and '"hand"' not in text and '"events"' not in text
        client, token = players[table["turn"]]
        mine = client.get(f"/api/tables/{table_id}").get_json()["table"]
        table = play_own_turn(client, mine, token)


def test_a_rated_table_seats_accounts_only_and_is_timed(app: Flask, rdb: redis.Redis[str]) -> None:
    before = state(rdb)
    status, body = create(app.test_client(), rated=True, rules={"turn_timer": 30})
    assert status == 403 and body["error"]["code"] == "account_required"
    assert state(rdb) == before
    ada = signed_up(app, "Ada")
    before = state(rdb)
    for rules in ({"turn_timer": 0}, {}, {"turn_timer": 30, "hints": True}):
        status, body = create(ada, rated=True, rules=rules)
        assert status == 422 and body["error"]["code"] == "bad_value", body
    assert state(rdb) == before
    status, body = create(ada, rated=True, public=True, rules={"turn_timer": 30})
    assert status == 201, body
    t = body["table"]
    assert t["rated"] and t["rules"]["hints"] is False
    assert t["seats"][0]["rating"] == 1500 and t["seats"][0]["provisional"] is True
    before = state(rdb)
    response = app.test_client().post(f"/api/tables/{t['id']}/join", json={"name": "Anon"})
    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "account_required"
    assert state(rdb) == before
    bob = signed_up(app, "Bob")
    response = bob.post(f"/api/tables/{t['id']}/join", json={"name": "Bob"})
    assert response.status_code == 200 and response.get_json()["table"]["status"] == "playing"
    assert rdb.zscore(keys.RATED_OPEN, t["id"]) is not None  # settled when it ends


def test_phrases_are_fixed_rate_limited_and_muted(
    app: Flask, rdb: redis.Redis[str], clock: Clock
) -> None:
    ada = app.test_client()
    _, made = create(ada, public=True)
    table_id = made["table"]["id"]
    bob = app.test_client()
    assert bob.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).status_code == 200
    said = ada.post(f"/api/tables/{table_id}/phrases", json={"phrase": "hello"})
    assert said.status_code == 200
    assert said.get_json()["phrase"] == {"n": 1, "seat": 0, "phrase": "hello"}
    before = state(rdb)
    again = ada.post(f"/api/tables/{table_id}/phrases", json={"phrase": "thanks"})
    assert again.status_code == 429 and again.get_json()["error"]["code"] == "phrase_too_soon"
    assert again.headers["Retry-After"] == "3"
    assert again.get_json()["error"]["retry_after_ms"] == 3000  # the clock stood still
    for bad in ({"phrase": "you idiot"}, {"phrase": ""}, {"text": "hi"}, {"phrase": 1}):
        response = bob.post(f"/api/tables/{table_id}/phrases", json=bad)
        assert response.status_code in (400, 422), bad
    stranger = app.test_client().post(f"/api/tables/{table_id}/phrases", json={"phrase": "oh_no"})
    assert stranger.status_code == 401
    assert state(rdb) == before
    clock.advance(seconds=3)
    assert ada.post(f"/api/tables/{table_id}/phrases", json={"phrase": "thanks"}).status_code == 200
    # Bob mutes Ada: her phrases are no longer his to hear; his own still reach her
    muted = bob.post(f"/api/tables/{table_id}/mute", json={"seat": 0})
    assert muted.status_code == 200 and muted.get_json() == {"muted": [0]}
    assert bob.get(f"/api/tables/{table_id}").get_json()["table"]["muted"] == [0]
    assert ada.get(f"/api/tables/{table_id}").get_json()["table"]["muted"] == []
    clock.advance(seconds=3)
    ada.post(f"/api/tables/{table_id}/phrases", json={"phrase": "well_played"})
    bob.post(f"/api/tables/{table_id}/phrases", json={"phrase": "another"})
    assert [p["phrase"] for p in talk.since(rdb, table_id, 0, 1)] == ["another"]
    assert [p["phrase"] for p in talk.since(rdb, table_id, 2, 0)] == ["well_played", "another"]
    for bad in ({"seat": 1}, {"seat": 7}, {"seat": -1}):
        response = bob.post(f"/api/tables/{table_id}/mute", json=bad)
        assert response.status_code in (404, 422), bad
    heard = bob.post(f"/api/tables/{table_id}/mute", json={"seat": 0, "muted": False})
    assert heard.get_json() == {"muted": []}


def test_a_rematch_with_strangers_starts_on_everyones_consent(app: Flask) -> None:
    ada = app.test_client()
    _, made = create(ada, public=True, rules={"turn_timer": 60})
    table_id = made["table"]["id"]
    bob = app.test_client()
    assert bob.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).status_code == 200
    for client in (ada, bob):  # both agree to resign: the game ends
        assert client.post(f"/api/tables/{table_id}/resign", json={}).status_code == 200
    first = ada.post(f"/api/tables/{table_id}/rematch", json={}).get_json()["table"]
    assert first["status"] == "waiting" and first["rematch_agreed"] == [0]
    assert first["public"] is True
    second = bob.post(f"/api/tables/{table_id}/rematch", json={}).get_json()["table"]
    assert second["id"] == first["id"] and second["status"] == "playing"
    assert second["rematch_agreed"] == [0, 1] and second["seat"] == 1


def test_the_lobby_entry_leaves_when_the_game_ends(app: Flask, rdb: redis.Redis[str]) -> None:
    ada = app.test_client()
    _, made = create(ada, public=True, seats=[HUMAN, HUMAN, {"kind": "bot", "level": "zen"}])
    table_id = made["table"]["id"]
    assert ada.post(f"/api/tables/{table_id}/start", json={}).status_code == 200
    listed = lobby(ada)["playing"]
    assert [e["id"] for e in listed] == [table_id]
    assert listed[0]["seats"][1]["kind"] == "bot"  # the creator started: the open seat a bot
    assert ada.post(f"/api/tables/{table_id}/resign", json={}).status_code == 200
    assert lobby(ada)["playing"] == []
    assert rdb.hget(keys.LOBBY, table_id) is None
    table = tables.load(rdb, table_id)
    assert table is not None and table.status == "finished"


def test_a_visitor_watches_a_public_game_in_its_public_view(
    app: Flask, rdb: redis.Redis[str]
) -> None:
    """Issue 38: /spielen lists the public games playing and a visitor may watch one: ``T`` with
    ``seat`` and ``view`` null (as a finished table's public page), no invite and no card of any
    hand (R10), move after move. A private table stays its seats' own; a public one waiting is
    joined, not watched."""
    ada = app.test_client()
    _, made = create(ada, public=True)
    table_id = made["table"]["id"]
    visitor = app.test_client()
    assert visitor.get(f"/api/tables/{table_id}").status_code in (401, 403)  # waiting
    bob = app.test_client()
    joined = bob.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).get_json()
    players = {0: (ada, made["token"]), 1: (bob, joined["token"])}
    table = joined["table"]
    for _ in range(30):
        response = visitor.get(f"/api/tables/{table_id}")
        assert response.status_code == 200, response.get_json()
        seen = response.get_json()["table"]
        assert seen["seat"] is None and seen["view"] is None and seen["invite"] is None
        assert seen["status"] == "playing" and [s["name"] for s in seen["seats"]] == ["Ada", "Bob"]
        assert seen["turn"] == table["turn"] and seen["seq"] == table["seq"]
        text = json.dumps(seen)
        for seat in (0, 1):
            assert_nothing_hidden(rdb, table_id, seat, text)
        client, token = players[table["turn"]]
        mine = client.get(f"/api/tables/{table_id}").get_json()["table"]
        table = play_own_turn(client, mine, token)
    # a private game is not watched
    _, private = create(app.test_client())
    assert visitor.get(f"/api/tables/{private['table']['id']}").status_code in (401, 403)
