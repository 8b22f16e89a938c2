"""Consent and honest results at tables (docs/TABLES.md "Rematch: everyone's consent", "Resign
(R8)", "Claiming an away seat's game"), through the API on a real Redis: a rematch starts only
once every human seat accepted (accept and decline for each; a decline ends the offer), a resign
proposal can be declined, an away seat's missed turns are counted down for the others, who may
claim the game once the timer played the seat's turn, and a forfeit is named as one: the
forfeiter last, never the winner. Issue 38."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.common import keys
from service.tables import store as tables
from tests.support.clock import Clock
from tests.support.lobby import play_own_turn, signed_up, timer_plays

HUMAN: dict[str, Any] = {"kind": "human"}
#: a fixed round seed (the CSPRNG's stand-in): the same deal on every run, so the timer's bot
#: melds for the absent seat while the simple player melds nothing and the forfeiter leads
SEED = bytes(range(32))


def call(client: FlaskClient, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    response = client.open(path, method=method, json=body)
    return response.status_code, response.get_json()


def public_game(app: Flask, *names: str, **rules: Any) -> tuple[str, list[FlaskClient]]:
    """A public Pik Dame table of strangers (anonymous players), full and so started."""
    clients = [app.test_client() for _ in names]
    status, made = call(
        clients[0],
        "POST",
        "/api/tables",
        {"game": "pikdame", "name": names[0], "seats": [HUMAN] * len(names), "public": True}
        | ({"rules": rules} if rules else {}),
    )
    assert status == 201, made
    table_id = made["table"]["id"]
    for client, name in zip(clients[1:], names[1:], strict=True):
        status, body = call(client, "POST", f"/api/tables/{table_id}/join", {"name": name})
        assert status == 200, body
    return table_id, clients


def friends_game(app: Flask, *names: str) -> tuple[str, list[FlaskClient]]:
    """A friends' table (invite), every human seated, started by its creator."""
    clients = [app.test_client() for _ in names]
    status, made = call(
        clients[0],
        "POST",
        "/api/tables",
        {"game": "pikdame", "name": names[0], "seats": [HUMAN] * len(names)},
    )
    assert status == 201, made
    for client, name in zip(clients[1:], names[1:], strict=True):
        status, body = call(client, "POST", f"/api/tables/join/{made['invite']}", {"name": name})
        assert status == 200, body
    table_id = made["table"]["id"]
    assert call(clients[0], "POST", f"/api/tables/{table_id}/start", {})[0] == 200
    return table_id, clients


def resigned(table_id: str, clients: list[FlaskClient]) -> None:
    for client in clients:
        assert call(client, "POST", f"/api/tables/{table_id}/resign", {})[0] == 200


def test_a_strangers_rematch_does_not_start_on_the_creators_word(app: Flask) -> None:
    """Issue 38: only seat 0 had asked, yet its start started the rematch."""
    table_id, (ada, bob) = public_game(app, "Ada", "Bob")
    resigned(table_id, [ada, bob])
    status, body = call(ada, "POST", f"/api/tables/{table_id}/rematch", {})
    assert status == 200 and body["table"]["rematch_agreed"] == [0]
    new = body["table"]["id"]
    assert body["table"]["rematch_of"] == table_id and body["table"]["rematch_declined"] is None
    status, body = call(ada, "POST", f"/api/tables/{new}/start", {})
    assert status == 409 and body["error"]["code"] == "rematch_not_agreed"
    status, body = call(bob, "GET", f"/api/tables/{new}")
    assert body["table"]["status"] == "waiting" and body["table"]["rematch_agreed"] == [0]
    # Bob accepts in the waiting room: every human agreed, strangers' rematch starts at once
    status, body = call(bob, "POST", f"/api/tables/{new}/accept", {})
    assert status == 200, body
    assert body["table"]["status"] == "playing" and body["table"]["rematch_agreed"] == [0, 1]
    status, body = call(bob, "POST", f"/api/tables/{new}/accept", {})  # again: nothing changes
    assert status == 200 and body["table"]["status"] == "playing"
    status, body = call(bob, "POST", f"/api/tables/{new}/decline", {})
    assert status == 409 and body["error"]["code"] == "already_started"


def test_a_decline_ends_the_rematch_offer(app: Flask) -> None:
    table_id, (ada, bob) = public_game(app, "Ada", "Bob")
    resigned(table_id, [ada, bob])
    new = call(ada, "POST", f"/api/tables/{table_id}/rematch", {})[1]["table"]["id"]
    status, body = call(bob, "POST", f"/api/tables/{new}/decline", {})
    assert status == 200 and body["table"]["rematch_declined"] == 1
    assert body["table"]["status"] == "waiting"
    for client, path in [
        (ada, f"/api/tables/{new}/start"),
        (ada, f"/api/tables/{new}/accept"),
        (bob, f"/api/tables/{new}/accept"),
        (bob, f"/api/tables/{table_id}/rematch"),
        (ada, f"/api/tables/{table_id}/rematch"),
    ]:
        status, body = call(client, "POST", path, {})
        assert status == 409 and body["error"]["code"] == "rematch_declined", path
    assert call(ada, "GET", f"/api/tables/{new}")[1]["table"]["status"] == "waiting"
    assert call(bob, "POST", f"/api/tables/{new}/decline", {})[0] == 200  # said already


def test_a_friends_rematch_starts_only_once_every_human_accepted(app: Flask) -> None:
    table_id, (ada, bob, cy) = friends_game(app, "Ada", "Bob", "Cy")
    resigned(table_id, [ada, bob, cy])
    new = call(bob, "POST", f"/api/tables/{table_id}/rematch", {})[1]["table"]["id"]
    status, body = call(ada, "POST", f"/api/tables/{new}/start", {})
    assert status == 409 and body["error"]["code"] == "rematch_not_agreed"
    status, body = call(cy, "POST", f"/api/tables/{new}/accept", {})
    assert status == 200 and body["table"]["status"] == "waiting"  # friends: the creator starts
    assert body["table"]["rematch_agreed"] == [1, 2]
    status, body = call(ada, "POST", f"/api/tables/{new}/start", {})  # her start: her consent
    assert status == 200 and body["table"]["status"] == "playing"
    assert body["table"]["rematch_agreed"] == [0, 1, 2]


def test_accept_and_decline_need_a_rematch_and_a_seat(app: Flask) -> None:
    table_id, (ada, _) = public_game(app, "Ada", "Bob")
    for answer in ("accept", "decline"):
        status, body = call(ada, "POST", f"/api/tables/{table_id}/{answer}", {})
        assert status == 409 and body["error"]["code"] == "not_a_rematch"
        status, body = call(app.test_client(), "POST", f"/api/tables/{table_id}/{answer}", {})
        assert status == 401
        status, body = call(ada, "POST", f"/api/tables/{'0' * 16}/{answer}", {})
        assert status == 404 and body["error"]["code"] == "unknown_table"


def test_a_rated_rematch_never_starts_for_the_absent_one(
    app: Flask, rdb: redis.Redis[str], clock: Clock
) -> None:
    """Issue 38: the absent seat landed in a started rated rematch and lost rating to the timer."""
    table_id, ada, bob = rated_duel(app, "gin")
    resigned(table_id, [ada, bob])
    new = call(ada, "POST", f"/api/tables/{table_id}/rematch", {})[1]["table"]["id"]
    status, _ = call(ada, "POST", f"/api/tables/{new}/start", {})
    assert status == 409
    stored = tables.load(rdb, new)
    assert stored is not None and stored.status == "waiting" and stored.deadline_ms is None
    assert rdb.zscore(keys.TABLE_DEADLINES, new) is None  # no timer runs for Bob


def test_a_resign_proposal_can_be_declined(app: Flask) -> None:
    table_id, (ada, bob) = friends_game(app, "Ada", "Bob")
    status, body = call(bob, "POST", f"/api/tables/{table_id}/resign/decline", {})
    assert status == 409 and body["error"]["code"] == "no_resign_proposal"
    status, body = call(ada, "POST", f"/api/tables/{table_id}/resign", {})
    assert status == 200 and body["pending"] == [1]
    status, body = call(bob, "POST", f"/api/tables/{table_id}/resign/decline", {})
    assert status == 200, body
    t = body["table"]
    assert t["status"] == "playing" and t["pending_resign"] is None and t["resign_declined"] == 1
    assert call(ada, "GET", f"/api/tables/{table_id}")[1]["table"]["resign_declined"] == 1
    # a new proposal starts afresh
    status, body = call(bob, "POST", f"/api/tables/{table_id}/resign", {})
    assert body["pending"] == [0] and body["table"]["resign_declined"] is None
    status, body = call(ada, "POST", f"/api/tables/{table_id}/resign", {})
    assert body["pending"] == [] and body["table"]["status"] == "finished"
    status, body = call(ada, "POST", f"/api/tables/{table_id}/resign/decline", {})
    assert status == 409 and body["error"]["code"] == "not_playing"


def rated_duel(app: Flask, game: str = "pikdame") -> tuple[str, FlaskClient, FlaskClient]:
    """A public rated table of ``game`` with a 30 s timer, Ada and Bob (signed up) seated."""
    ada, bob = signed_up(app, "Ada"), signed_up(app, "Bob")
    made = call(
        ada,
        "POST",
        "/api/tables",
        {
            "game": game,
            "name": "Ada",
            "seats": [HUMAN, HUMAN],
            "rules": {"turn_timer": 30},
            "public": True,
            "rated": True,
        },
    )[1]
    table_id = made["table"]["id"]
    assert call(bob, "POST", f"/api/tables/{table_id}/join", {"name": "Bob"})[0] == 200
    return table_id, ada, bob


def ada_plays_bob_is_gone(
    rdb: redis.Redis[str], clock: Clock, table_id: str, ada: FlaskClient, timer_turns: int
) -> dict[str, Any]:
    """Ada (seat 0) plays her turns, the timer plays Bob's ``timer_turns`` times."""
    played = 0
    while played < timer_turns:
        t = call(ada, "GET", f"/api/tables/{table_id}")[1]["table"]
        if t["status"] == "finished":
            break
        if t["turn"] == 0:
            play_own_turn(ada, t)
        else:
            timer_plays(rdb, clock, table_id)
            played += 1
    doc: dict[str, Any] = call(ada, "GET", f"/api/tables/{table_id}")[1]["table"]
    return doc


def test_an_away_seats_missed_turns_are_counted_down_for_the_others(
    app: Flask, rdb: redis.Redis[str], clock: Clock
) -> None:
    table_id, ada, _ = rated_duel(app)
    t = call(ada, "GET", f"/api/tables/{table_id}")[1]["table"]
    assert t["seats"][1]["forfeit_after"] == tables.TIMEOUT_RESIGN
    assert t["seats"][1]["claimable"] is False
    t = ada_plays_bob_is_gone(rdb, clock, table_id, ada, 1)
    assert t["seats"][1]["forfeit_after"] == tables.TIMEOUT_RESIGN - 1 == 2
    assert t["seats"][1]["away"] is True and t["seats"][1]["claimable"] is True
    assert t["seats"][0]["claimable"] is False  # Ada's own turns were her own


def test_a_timeout_forfeit_is_named_the_forfeiter_last_and_never_the_winner(
    app: Flask, rdb: redis.Redis[str], clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38: the forfeiter led on points, the result named him the winner."""
    monkeypatch.setattr(tables, "new_seed", lambda: SEED)
    table_id, ada, bob = rated_duel(app)
    t = ada_plays_bob_is_gone(rdb, clock, table_id, ada, tables.TIMEOUT_RESIGN)
    assert t["status"] == "finished" and t["forfeits"] == [1]
    result = t["result"]
    assert result["totals"][1] > result["totals"][0]  # the forfeiter leads on points
    assert result["end"] == "resign" and result["resigned_by"] == 1
    assert result["forfeited_by"] == 1 and result["claimed_by"] is None
    assert result["winner"] == 0 and result["places"] == [1, 2]
    changes = {c["seat"]: c["change"] for c in t["rating_changes"]}
    assert changes[0] > 0 > changes[1]
    record = call(bob, "GET", f"/api/tables/{table_id}/record")[1]
    assert record["result"]["resigned_by"] == 1  # the record replays as played


def test_a_claim_needs_a_missed_turn_and_another_humans_seat(app: Flask) -> None:
    """Without a turn timer no turn is ever missed: nothing to claim (friends wait)."""
    table_id, (ada, _, _) = friends_game(app, "Ada", "Bob", "Cy")
    path = f"/api/tables/{table_id}/claim"
    status, body = call(ada, "POST", path, {"seat": 1})
    assert status == 409 and body["error"]["code"] == "not_claimable"
    for bad, code in [({"seat": 0}, 422), ({"seat": 3}, 404), ({}, 422), ({"seat": "x"}, 422)]:
        status, body = call(ada, "POST", path, bad)
        assert status == code, (bad, body)
    t = call(ada, "GET", f"/api/tables/{table_id}")[1]["table"]
    assert t["status"] == "playing"
    assert [s.get("claimable") for s in t["seats"]] == [False, False, False]
    assert "forfeit_after" not in t["seats"][1]  # a casual game: the timer rule resigns nobody


def test_a_claimed_game_ends_as_the_away_seats_forfeit(
    app: Flask, rdb: redis.Redis[str], clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "new_seed", lambda: SEED)
    table_id, ada, bob = rated_duel(app)
    path = f"/api/tables/{table_id}/claim"
    status, body = call(ada, "POST", path, {"seat": 1})
    assert status == 409 and body["error"]["code"] == "not_claimable"
    t = ada_plays_bob_is_gone(rdb, clock, table_id, ada, 1)
    assert t["status"] == "playing" and t["seats"][1]["claimable"] is True
    # Bob is back (a live stream of his seat): nothing to claim while he is there
    rdb.zadd(keys.table_presence(table_id), {"1:back": int(clock().timestamp() * 1000) + 60_000})
    status, body = call(ada, "POST", path, {"seat": 1})
    assert status == 409 and body["error"]["code"] == "not_claimable"
    rdb.delete(keys.table_presence(table_id))
    status, body = call(bob, "POST", path, {"seat": 1})
    assert status == 422  # not against oneself
    status, body = call(ada, "POST", path, {"seat": 1})
    assert status == 200, body
    t = body["table"]
    assert t["status"] == "finished" and t["forfeits"] == [1]
    result = t["result"]
    assert result["forfeited_by"] == 1 and result["claimed_by"] == 0
    assert result["winner"] == 0 and result["places"] == [1, 2]
    t = call(bob, "GET", f"/api/tables/{table_id}")[1]["table"]
    changes = {c["seat"]: c["change"] for c in t["rating_changes"]}
    assert changes[0] > 0 > changes[1]  # a loss for the ratings, as the timer rule's forfeit
    status, body = call(ada, "POST", path, {"seat": 1})
    assert status == 409 and body["error"]["code"] == "not_playing"
