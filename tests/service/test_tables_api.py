"""Tables through the API on a real Redis (API.md "Tables", docs/TABLES.md): joining, starting,
moves and cuts, bad input and abuse (each a clear 4xx that changes nothing), resign by consent
(R8), bot levels (R9), and no hidden card in any answer (R10)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from service.common import keys
from tests.support.api import caller
from tests.support.tables import Call, assert_nothing_hidden, play_game, play_turn

HUMAN: dict[str, Any] = {"kind": "human"}


def bot(level: str = "beginner") -> dict[str, Any]:
    return {"kind": "bot", "level": level}


def new_table(
    app: Flask, seats: list[dict[str, Any]], name: str = "Ada", **rules: Any
) -> tuple[dict[str, Any], str, str]:
    """Create a table; returns (T, token, invite)."""
    response = app.test_client().post(
        "/api/tables", json={"game": "pikdame", "name": name, "seats": seats, "rules": rules}
    )
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["table"], body["token"], body["invite"]


def join(app: Flask, invite: str, name: str) -> tuple[int, Any]:
    response = app.test_client().post(f"/api/tables/join/{invite}", json={"name": name})
    return response.status_code, response.get_json()


def as_player(app: Flask, token: str | None) -> Call:
    return caller(app.test_client(), token)  # type: ignore[no-any-return]


def stored(rdb: redis.Redis[str], table_id: str) -> tuple[Any, list[str]]:
    """The table's stored document and event log: what a refused request must not change."""
    return rdb.get(keys.table(table_id)), rdb.lrange(keys.table_events(table_id), 0, -1)


def started(app: Flask, seats: list[dict[str, Any]], **rules: Any) -> tuple[str, list[str]]:
    """A started table with every human seat taken; returns (id, tokens by human seat)."""
    table, token, invite = new_table(app, seats, **rules)
    tokens = [token]
    for n in range(1, sum(1 for s in seats if s["kind"] == "human")):
        status, body = join(app, invite, f"P{n}")
        assert status == 200, body
        tokens.append(body["token"])
    status, body = as_player(app, token)("POST", f"/api/tables/{table['id']}/start", {})
    assert status == 200, body
    return str(table["id"]), tokens


def test_create_join_and_start_fill_open_seats_with_r9_default_bots(app: Flask) -> None:
    table, token, invite = new_table(app, [HUMAN, HUMAN, HUMAN, bot("zen")], turn_timer=60)
    assert table["status"] == "waiting" and table["seat"] == 0 and table["invite"] == invite
    assert [s.get("name") for s in table["seats"][:3]] == ["Ada", None, None]
    status, body = join(app, invite, "Bob")
    assert status == 200 and body["table"]["seat"] == 1
    assert body["table"]["seats"][1]["name"] == "Bob"
    status, body = as_player(app, token)("POST", f"/api/tables/{table['id']}/start", {})
    assert status == 200, body
    t = body["table"]
    assert t["status"] == "playing"
    assert t["seats"][2] == {"kind": "bot", "level": "advanced", "connected": False}
    assert t["commitment"] and t["round"] == 1 and t["dealer"] == 3
    assert t["rounds"][0]["seed"] is None


def test_joining_a_full_or_started_table_is_409_and_changes_nothing(
    app: Flask, rdb: redis.Redis[str]
) -> None:
    table, _, invite = new_table(app, [HUMAN, HUMAN, bot()])
    assert join(app, invite, "Bob")[0] == 200
    before = stored(rdb, table["id"])
    status, body = join(app, invite, "Cy")
    assert status == 409 and body["error"]["code"] == "table_full"
    assert stored(rdb, table["id"]) == before
    table2, token2, invite2 = new_table(app, [HUMAN, HUMAN])
    assert as_player(app, token2)("POST", f"/api/tables/{table2['id']}/start", {})[0] == 200
    status, body = join(app, invite2, "Cy")
    assert status == 409 and body["error"]["code"] == "already_started"
    status, body = join(app, "no-such-code", "Cy")
    assert status == 404 and body["error"]["code"] == "unknown_invite"


def test_only_the_creator_starts(app: Flask) -> None:
    table, _, invite = new_table(app, [HUMAN, HUMAN])
    _, body = join(app, invite, "Bob")
    status, answer = as_player(app, body["token"])("POST", f"/api/tables/{table['id']}/start", {})
    assert status == 403 and answer["error"]["code"] == "forbidden"


def test_bad_seats_and_rules_are_422(client: FlaskClient) -> None:
    for body in (
        {"name": "Ada", "seats": [HUMAN]},
        {"name": "Ada", "seats": [HUMAN] * 5},
        {"name": "Ada", "seats": [bot(), HUMAN]},
        {"name": "Ada", "seats": [HUMAN, {"kind": "bot", "level": "god"}]},
        {"name": "Ada", "seats": [HUMAN, HUMAN], "rules": {"turn_timer": 45}},
        {"name": "", "seats": [HUMAN, HUMAN]},
        # Tausende is offered now (R12); its tables have no hand-out doubling (R12.7)
        {
            "game": "tausende",
            "name": "Ada",
            "seats": [HUMAN, HUMAN],
            "rules": {"hand_out_double": True},
        },
        {"name": "Ada", "seats": [HUMAN, HUMAN], "rules": {"ace_high_only": True}},
        {"game": "tausende", "name": "Ada", "seats": [HUMAN, bot("strong")]},
        {"game": "gin", "name": "Ada", "seats": [HUMAN, HUMAN, HUMAN]},
        {"game": "gin", "name": "Ada", "seats": [HUMAN, bot("zen")]},
        {"name": "Ada", "seats": [HUMAN, bot("strong")]},
    ):
        response = client.post("/api/tables", json=body)
        assert response.status_code == 422, (body, response.get_json())
        assert response.get_json()["error"]["code"] == "bad_value"


def test_not_seated_is_403_for_moves_reads_streams_and_levels(
    app: Flask, rdb: redis.Redis[str]
) -> None:
    table_id, _ = started(app, [HUMAN, bot()])
    _, stranger, _ = new_table(app, [HUMAN, HUMAN], name="Eve")
    before = stored(rdb, table_id)
    eve = as_player(app, stranger)
    for method, path, body in (
        ("POST", f"/api/tables/{table_id}/moves", {"move": "cut 5", "seq": 0}),
        ("GET", f"/api/tables/{table_id}", None),
        ("GET", f"/api/tables/{table_id}/events", None),
        ("POST", f"/api/tables/{table_id}/seats/1", {"level": "zen"}),
        ("POST", f"/api/tables/{table_id}/resign", {}),
    ):
        status, answer = eve(method, path, body)
        assert status == 403, (path, answer)
        assert answer["error"]["code"] == "forbidden"
    status, answer = as_player(app, None)("GET", f"/api/tables/{table_id}", None)
    assert status == 401
    assert stored(rdb, table_id) == before
    status, answer = eve("GET", "/api/tables/0000000000000000", None)
    assert status == 404 and answer["error"]["code"] == "unknown_table"


def test_cut_out_of_range_is_422_bad_value_and_stale_is_409(
    app: Flask, rdb: redis.Redis[str]
) -> None:
    table_id, (token,) = started(app, [HUMAN, bot()])  # two seats: seat 0 cuts (R2)
    ada = as_player(app, token)
    status, body = ada("GET", f"/api/tables/{table_id}", None)
    table = body["table"]
    assert table["awaiting_cut"] and table["cutter"] == 0 and table["view"] is None
    before = stored(rdb, table_id)
    for move in ("cut 0", "cut 110", "cut -3"):
        status, body = ada("POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": 0})
        assert status == 422, body
        assert body["error"]["code"] in ("bad_value", "syntax")
    status, body = ada("POST", f"/api/tables/{table_id}/moves", {"move": "cut 110", "seq": 0})
    assert body["error"]["code"] == "bad_value"
    status, body = ada("POST", f"/api/tables/{table_id}/moves", {"move": "cut 5", "seq": 3})
    assert status == 409 and body["error"]["code"] == "stale"
    status, body = ada("POST", f"/api/tables/{table_id}/moves", {"move": 5, "seq": 0})
    assert status == 400
    assert stored(rdb, table_id) == before
    status, body = ada("POST", f"/api/tables/{table_id}/moves", {"move": "cut 109", "seq": 0})
    assert status == 200 and body["events"][0] == {"seat": 0, "move": "cut 109"}
    assert body["table"]["rounds"][0]["cut"] == 109 and body["table"]["view"]["seat"] == 0


def test_out_of_turn_is_422_not_your_turn(app: Flask, rdb: redis.Redis[str]) -> None:
    # three seats, dealer 2: seat 1 (a human) cuts, then seat 0 starts
    table_id, (ada_token, bob_token) = started(app, [HUMAN, HUMAN, bot()])
    ada, bob = as_player(app, ada_token), as_player(app, bob_token)
    status, body = ada("POST", f"/api/tables/{table_id}/moves", {"move": "cut 9", "seq": 0})
    assert status == 422 and body["error"]["code"] == "not_your_turn"
    status, body = bob("POST", f"/api/tables/{table_id}/moves", {"move": "cut 9", "seq": 0})
    assert status == 200, body
    seq = body["table"]["seq"]
    before = stored(rdb, table_id)
    status, body = bob("POST", f"/api/tables/{table_id}/moves", {"move": "draw", "seq": seq})
    assert status == 422 and body["error"]["code"] == "not_your_turn"
    assert stored(rdb, table_id) == before


def test_resign_by_consent_of_every_human(app: Flask) -> None:
    table_id, (ada_token, bob_token) = started(app, [HUMAN, HUMAN, bot()])
    ada, bob = as_player(app, ada_token), as_player(app, bob_token)
    status, body = ada("POST", f"/api/tables/{table_id}/resign", {})
    assert status == 200 and body["pending"] == [1]
    assert body["table"]["status"] == "playing" and body["table"]["pending_resign"] == [0]
    status, body = ada("POST", f"/api/tables/{table_id}/resign", {})  # asking twice: the same
    assert body["pending"] == [1]
    status, body = bob("POST", f"/api/tables/{table_id}/resign", {})
    assert status == 200 and body["pending"] == []
    table = body["table"]
    assert table["status"] == "finished" and table["result"]["end"] == "resign"
    assert table["result"]["resigned_by"] == 0
    status, record = as_player(app, None)("GET", f"/api/tables/{table_id}/record", None)
    assert status == 200 and record["format"] == "pikdame-game/1"


def test_resign_against_bots_alone_is_immediate(app: Flask) -> None:
    table_id, (token,) = started(app, [HUMAN, bot(), bot()])
    ada = as_player(app, token)
    status, body = ada("POST", f"/api/tables/{table_id}/resign", {})
    assert status == 200 and body["pending"] == []
    assert body["table"]["status"] == "finished"
    status, body = ada("POST", f"/api/tables/{table_id}/resign", {})
    assert status == 409


def test_any_human_changes_a_bot_level_and_the_record_replays(app: Flask) -> None:
    table_id, (ada_token, bob_token) = started(app, [HUMAN, HUMAN, bot("zen")])
    bob = as_player(app, bob_token)
    status, body = bob("POST", f"/api/tables/{table_id}/seats/2", {"level": "beginner"})
    assert status == 200 and body["table"]["seats"][2]["level"] == "beginner"
    status, body = bob("POST", f"/api/tables/{table_id}/seats/0", {"level": "zen"})
    assert status == 409 and body["error"]["code"] == "not_a_bot"
    status, body = bob("POST", f"/api/tables/{table_id}/seats/2", {"level": "god"})
    assert status == 422
    assert bob("POST", f"/api/tables/{table_id}/moves", {"move": "cut 50", "seq": 0})[0] == 200
    assert bob("POST", f"/api/tables/{table_id}/resign", {})[0] == 200
    status, body = as_player(app, ada_token)("POST", f"/api/tables/{table_id}/resign", {})
    assert body["pending"] == []
    status, record = as_player(app, None)("GET", f"/api/tables/{table_id}/record", None)
    assert status == 200
    from engine.pikdame.match import replay_match

    assert replay_match(record).result() == record["result"]


def test_floods_are_429(redis_url: str, rdb: redis.Redis[str]) -> None:
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "PIKDAME_SECRET": b"t" * 32,
            "TESTING": True,
            "PIKDAME_LIMIT_TABLES": "3 per hour",
            "PIKDAME_LIMIT_TABLE_MOVES": "5 per minute",
        }
    )
    codes = [
        app.test_client()
        .post("/api/tables", json={"name": "Ada", "seats": [HUMAN, bot()]})
        .status_code
        for _ in range(4)
    ]
    assert codes == [201, 201, 201, 429]
    rdb.flushdb()
    table_id, (token,) = started(app, [HUMAN, bot()])
    ada = as_player(app, token)
    answers = [
        ada("POST", f"/api/tables/{table_id}/moves", {"move": "cut 200", "seq": 0})[0]
        for _ in range(6)
    ]
    assert answers == [422] * 5 + [429]


def test_no_hidden_card_or_seed_in_any_answer(app: Flask) -> None:
    """R10: seat 0's answers name only cards seat 0 may know; no running round's seed."""
    table_id, (token,) = started(app, [HUMAN, bot("advanced"), bot("beginner")])
    ada = as_player(app, token)
    texts: list[str] = []

    def spy(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        status, answer = ada(method, path, body)
        texts.append(json.dumps(answer))
        check(app, table_id, json.dumps(answer))
        return status, answer

    for _ in range(40):
        status, body = spy("GET", f"/api/tables/{table_id}", None)
        assert status == 200
        table = body["table"]
        if table["status"] == "finished" or table["round"] > 1:
            break
        play_turn(spy, table)
    assert texts


def check(app: Flask, table_id: str, text: str) -> None:
    client: redis.Redis[str] = redis.Redis.from_url(app.config["REDIS_URL"], decode_responses=True)
    assert_nothing_hidden(client, table_id, 0, text)


def test_a_full_game_through_the_api_with_a_scripted_player(app: Flask) -> None:
    table_id, (token,) = started(app, [HUMAN, bot("advanced")])
    table = play_game(as_player(app, token), table_id, 0)
    assert table["status"] == "finished" and max(table["totals"]) >= 1000
    assert all(r["seed"] for r in table["rounds"])
    status, record = as_player(app, None)("GET", f"/api/tables/{table_id}/record", None)
    assert status == 200
    from engine.pikdame.match import replay_match

    assert replay_match(record).totals == table["totals"]


@pytest.mark.parametrize("hours", [24])
def test_an_idle_table_expires_and_a_finished_one_is_kept(
    app: Flask, rdb: redis.Redis[str], hours: int
) -> None:
    table, _, _ = new_table(app, [HUMAN, bot()])
    ttl = rdb.ttl(keys.table(table["id"]))
    assert hours * 3600 - 60 < ttl <= hours * 3600
    table_id, (token,) = started(app, [HUMAN, bot()])
    as_player(app, token)("POST", f"/api/tables/{table_id}/resign", {})
    assert rdb.ttl(keys.table(table_id)) > 29 * 86400
    assert rdb.ttl(keys.table_events(table_id)) > 29 * 86400


def test_gin_plugs_in_through_the_same_routes(app: Flask) -> None:
    """GIN.md: a Gin match at a table through the same routes and registry; one seed deals the
    whole match, so its commitment stands in T and the seed comes with the record at the end."""
    response = app.test_client().post(
        "/api/tables",
        json={"game": "gin", "name": "Ada", "seats": [HUMAN, {"kind": "bot", "level": "plain"}]},
    )
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    ada = as_player(app, body["token"])
    table_id = body["table"]["id"]
    status, answer = ada("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200, answer
    table = answer["table"]
    assert table["game"] == "gin" and table["commitment"] and table["view"]["seat"] == 0
    status, answer = ada("POST", f"/api/tables/{table_id}/seats/1", {"level": "strong"})
    assert status == 422 and answer["error"]["code"] == "bad_value"
    status, answer = ada("POST", f"/api/tables/{table_id}/resign", {})
    assert status == 200 and answer["table"]["status"] == "finished"
    status, record = as_player(app, None)("GET", f"/api/tables/{table_id}/record", None)
    assert status == 200 and record["format"] == "gin-log/1"
    from engine.gin.replay import replay as gin_replay

    gin_replay(record)


def test_a_rematch_keeps_the_seats_and_every_players_token(app: Flask) -> None:
    table_id, (ada_token, bob_token) = started(app, [HUMAN, HUMAN, bot("zen")], turn_timer=30)
    ada, bob = as_player(app, ada_token), as_player(app, bob_token)
    status, body = bob("POST", f"/api/tables/{table_id}/rematch", {})
    assert status == 409 and body["error"]["code"] == "not_finished"
    ada("POST", f"/api/tables/{table_id}/resign", {})
    bob("POST", f"/api/tables/{table_id}/resign", {})
    status, body = bob("POST", f"/api/tables/{table_id}/rematch", {})
    assert status == 200, body
    new = body["table"]
    assert new["status"] == "waiting" and new["seat"] == 1 and new["id"] != table_id
    assert [s.get("name") or s.get("level") for s in new["seats"]] == ["Ada", "P1", "zen"]
    assert new["rules"]["turn_timer"] == 30
    assert ada("POST", f"/api/tables/{table_id}/rematch", {})[1]["table"]["id"] == new["id"]
    assert ada("GET", f"/api/tables/{table_id}", None)[1]["table"]["rematch"] == new["id"]
    status, body = ada("POST", f"/api/tables/{new['id']}/start", {})
    assert status == 200 and body["table"]["status"] == "playing"


def test_r9_the_turn_timer_is_per_turn(app: Flask) -> None:
    """R9 reading: the deadline covers a whole turn; a draw does not restart it."""
    table_id, (token,) = started(app, [HUMAN, bot()], turn_timer=60)
    ada = as_player(app, token)
    status, body = ada("GET", f"/api/tables/{table_id}", None)
    cut_deadline = body["table"]["deadline"]
    status, body = ada("POST", f"/api/tables/{table_id}/moves", {"move": "cut 20", "seq": 0})
    table = body["table"]
    assert status == 200 and table["turn"] == 0 and table["deadline"]
    assert table["deadline"] >= cut_deadline  # the turn after the cut has its own time
    status, body = ada(
        "POST", f"/api/tables/{table_id}/moves", {"move": "draw", "seq": table["seq"]}
    )
    assert status == 200 and body["table"]["deadline"] == table["deadline"]
