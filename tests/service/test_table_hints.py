"""The hint at a table (docs/TABLES.md "Hints"): ``GET /api/tables/{id}/hint`` answers the seat's
best moves in its own play phase (Pik Dame R4.2: the exact optimiser's; Tausende R12: a strong
bot's opening and lay-offs), from its own view alone (R10); the table's creator may turn hints
off (``rules.hints`` false); every refusal is a 4xx with a stable code that changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask import Flask

from engine.pikdame.hints import seat_hint
from engine.pikdame.match import Match
from engine.pikdame.view import view
from service.common import keys
from service.tables import store as tables
from tests.support.api import caller
from tests.support.tables import Call, assert_nothing_hidden, play_turn, seeds

HUMAN: dict[str, Any] = {"kind": "human"}
BOT: dict[str, Any] = {"kind": "bot", "level": "beginner"}


def create(app: Flask, game: str, seats: list[dict[str, Any]], **rules: Any) -> tuple[int, Any]:
    response = app.test_client().post(
        "/api/tables", json={"game": game, "name": "Ada", "seats": seats, "rules": rules}
    )
    return response.status_code, response.get_json()


def started(
    app: Flask, game: str, seats: list[dict[str, Any]], **rules: Any
) -> tuple[dict[str, Any], list[Call]]:
    """A started table with every human seat taken: (T for seat 0, callers by human seat)."""
    status, body = create(app, game, seats, **rules)
    assert status == 201, body
    calls: list[Call] = [caller(app.test_client(), body["token"])]
    for n in range(1, sum(1 for s in seats if s["kind"] == "human")):
        response = app.test_client().post(
            f"/api/tables/join/{body['invite']}", json={"name": f"P{n}"}
        )
        assert response.status_code == 200, response.get_json()
        calls.append(caller(app.test_client(), response.get_json()["token"]))
    status, answer = calls[0]("POST", f"/api/tables/{body['table']['id']}/start", {})
    assert status == 200, answer
    return answer["table"], calls


def hint(call: Call, table_id: str) -> tuple[int, Any]:
    return call("GET", f"/api/tables/{table_id}/hint", None)


def stored(rdb: redis.Redis[str], table_id: str) -> tuple[Any, list[str]]:
    return rdb.get(keys.table(table_id)), rdb.lrange(keys.table_events(table_id), 0, -1)


def to_play_phase(call: Call, table: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 scripted (and the bots answering) until it is seat 0's play phase."""
    for _ in range(200):
        view_ = table["view"]
        if (
            not table["awaiting_cut"]
            and table["turn"] == 0
            and view_ is not None
            and view_["phase"] == "play"
        ):
            return table
        table = play_turn(call, table)
    raise AssertionError("seat 0's play phase never came")


def refused(call: Call, table_id: str, status: int, code: str) -> None:
    got, body = hint(call, table_id)
    assert (got, body["error"]["code"]) == (status, code), body


def test_the_hint_is_the_seats_best_from_its_own_view_and_its_moves_are_playable(
    app: Flask, rdb: redis.Redis[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "new_seed", seeds("table-hint/pikdame"))
    table, (ada,) = started(app, "pikdame", [HUMAN, BOT, BOT])
    assert table["rules"]["hints"] is True  # the house option: on unless the creator said no
    table_id = table["id"]
    refused(ada, table_id, 409, "wrong_phase")  # seat 0 cuts first (R2)
    nonempty = 0
    for _ in range(12):
        table = to_play_phase(ada, table)
        before = stored(rdb, table_id)
        status, body = hint(ada, table_id)
        assert status == 200, body
        assert stored(rdb, table_id) == before  # a read: nothing changed
        assert_nothing_hidden(rdb, table_id, 0, str(body))
        # exactly the optimiser's answer on seat 0's own view (R4.2), as the daily's hint
        stored_table = tables.load(rdb, table_id)
        assert stored_table is not None
        match = stored_table.loaded()
        assert isinstance(match, Match) and match.game is not None
        best = seat_hint(view(match.game.state, 0))
        assert body == {"moves": list(best.moves), "points": best.points, "exact": best.exact}
        for move in body["moves"]:  # the hint's moves are sent as they are, in order
            status, answer = ada(
                "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": table["seq"]}
            )
            assert status == 200, (move, answer)
            table = answer["table"]
        nonempty += bool(body["moves"])
        if table["status"] == "finished":
            break
        table = play_turn(ada, table)  # the discard
    assert nonempty > 0  # the seeds give hands with melds: the check above saw real hints


def test_tausende_hints_open_and_lay_off_with_moves_the_table_accepts(
    app: Flask, rdb: redis.Redis[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "new_seed", seeds("table-hint/tausende"))
    table, (ada,) = started(app, "tausende", [HUMAN, BOT])
    table_id = table["id"]
    assert table["rules"]["hints"] is True
    laid = 0
    for _ in range(40):
        table = to_play_phase(ada, table)
        status, body = hint(ada, table_id)
        assert status == 200, body
        assert body["exact"] is False  # R12 has no exact optimiser: a strong bot's choice
        assert_nothing_hidden(rdb, table_id, 0, str(body))
        before = table["view"]["laid"][0]
        for move in body["moves"]:
            status, answer = ada(
                "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": table["seq"]}
            )
            assert status == 200, (move, answer)
            table = answer["table"]
        if table["status"] == "finished" or table["turn"] != 0:
            break
        assert table["view"]["laid"][0] - before == body["points"]  # R12.5's laid points
        laid += len(body["moves"])
        table = play_turn(ada, table)
        if table["status"] == "finished" or table["round"] > 1:
            break
    assert laid > 0  # an opening (R12.3) was hinted and accepted


def test_refusals_have_stable_codes_and_change_nothing(app: Flask, rdb: redis.Redis[str]) -> None:
    status, body = create(app, "pikdame", [HUMAN, HUMAN])
    assert status == 201, body
    table_id = body["table"]["id"]
    ada: Call = caller(app.test_client(), body["token"])
    refused(ada, table_id, 409, "not_playing")  # still waiting
    refused(caller(app.test_client(), None), table_id, 401, "unauthorized")
    refused(caller(app.test_client(), "not-a-seat"), table_id, 403, "forbidden")
    refused(ada, "0123456789abcdef", 404, "unknown_table")
    table, (ada, bob) = started(app, "pikdame", [HUMAN, HUMAN])
    table_id = table["id"]
    table = to_play_phase(ada, table)
    before = stored(rdb, table_id)
    refused(bob, table_id, 409, "not_your_turn")
    assert stored(rdb, table_id) == before
    table = play_turn(ada, table)  # Ada's discard: Bob's draw phase
    refused(bob, table_id, 409, "wrong_phase")  # draw or take first (R4.1)


def test_a_table_made_without_hints_refuses_them_for_every_seat(
    app: Flask, rdb: redis.Redis[str]
) -> None:
    for game in ("pikdame", "tausende"):
        table, (ada,) = started(app, game, [HUMAN, BOT], hints=False)
        assert table["rules"]["hints"] is False
        table = to_play_phase(ada, table)
        before = stored(rdb, table["id"])
        refused(ada, table["id"], 409, "hints_off")
        assert stored(rdb, table["id"]) == before


def test_gin_has_no_hints_option_and_no_hint(app: Flask) -> None:
    status, body = create(app, "gin", [HUMAN, {"kind": "bot", "level": "plain"}], hints=False)
    assert status == 422 and body["error"]["code"] == "bad_value"
    status, body = create(app, "gin", [HUMAN, {"kind": "bot", "level": "plain"}], hints=True)
    assert status == 201 and "hints" not in body["table"]["rules"]
    table, (ada,) = started(app, "gin", [HUMAN, {"kind": "bot", "level": "plain"}])
    refused(ada, table["id"], 409, "hints_off")  # Gin's view shows the exact deadwood instead
    for bad in ("no", 1, [True]):
        status, body = create(app, "pikdame", [HUMAN, BOT], hints=bad)
        assert status == 422, bad
