"""Tausende at a table (RULES.md R12, API.md "Tables", docs/TABLES.md): R12.8's options chosen at
the table's creation, a whole game to 1000 (R8) with bots and a simple player that replays with
``python -m engine replay``, the round's seed committed then revealed, R12's illegal moves
answered with their codes and nothing changed, and no hidden card in any answer (R10)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask

from engine.core.cards import NAMES, Card
from engine.core.records import commitment
from engine.pikdame.match import Match
from engine.pikdame.rules import Rules
from engine.pikdame.state import deal_for
from service.common import keys
from service.tables import store as tables
from tests.support.api import caller
from tests.support.tables import Call, assert_nothing_hidden, play_game, seeds

HUMAN: dict[str, Any] = {"kind": "human"}


def bot(level: str) -> dict[str, Any]:
    return {"kind": "bot", "level": level}


def create(app: Flask, seats: list[dict[str, Any]], **rules: Any) -> tuple[int, Any]:
    response = app.test_client().post(
        "/api/tables", json={"game": "tausende", "name": "Ada", "seats": seats, "rules": rules}
    )
    return response.status_code, response.get_json()


def started(app: Flask, seats: list[dict[str, Any]], **rules: Any) -> tuple[str, Call]:
    status, body = create(app, seats, **rules)
    assert status == 201, body
    ada: Call = caller(app.test_client(), body["token"])
    table_id = str(body["table"]["id"])
    status, body = ada("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200, body
    return table_id, ada


def stored(rdb: redis.Redis[str], table_id: str) -> tuple[Any, list[str]]:
    return rdb.get(keys.table(table_id)), rdb.lrange(keys.table_events(table_id), 0, -1)


def test_r12_8_options_are_chosen_at_creation_and_other_games_refuse_them(app: Flask) -> None:
    status, body = create(app, [HUMAN, bot("zen")], ace_high_only=True, go_out_on_opening=True)
    assert status == 201, body
    assert body["table"]["game"] == "tausende"
    assert body["table"]["rules"] == {
        "players": 2,
        "turn_timer": None,
        "strict_1000": False,
        "ace_high_only": True,
        "no_joker_swap": False,
        "go_out_on_opening": True,
        "hints": True,
    }
    # R12.7: Tausende has no hand-out doubling; R12.8's options are Tausende's alone
    status, body = create(app, [HUMAN, bot("zen")], hand_out_double=True)
    assert status == 422 and body["error"]["code"] == "bad_value"
    response = app.test_client().post(
        "/api/tables",
        json={"name": "Ada", "seats": [HUMAN, bot("zen")], "rules": {"no_joker_swap": True}},
    )
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "bad_value"


def test_the_options_reach_the_engine_and_the_record(app: Flask) -> None:
    table_id, ada = started(app, [HUMAN, bot("beginner")], no_joker_swap=True, strict_1000=True)
    client: redis.Redis[str] = redis.Redis.from_url(app.config["REDIS_URL"], decode_responses=True)
    table = tables.load(client, table_id)
    assert table is not None
    match = table.loaded()
    assert isinstance(match, Match)
    assert match.rules == Rules(2, False, True, "tausende", no_joker_swap=True)
    assert ada("POST", f"/api/tables/{table_id}/resign", {})[0] == 200
    status, record = ada("GET", f"/api/tables/{table_id}/record", None)
    assert status == 200 and record["format"] == "pikdame-game/1"
    assert record["rules"]["ruleset"] == "tausende" and record["rules"]["no_joker_swap"] is True
    assert record["engine"].endswith("/tausende-bots-1")


def test_a_whole_game_with_bots_and_a_simple_player_replays(app: Flask, tmp_path: Path) -> None:
    """R8 via R12.7: the game ends at 1000; every round's seed matches the commitment published
    before its cut (F4); the record names the ruleset and replays with the command line (F7)."""
    table_id, ada = started(app, [HUMAN, bot("advanced"), bot("beginner")])
    client: redis.Redis[str] = redis.Redis.from_url(app.config["REDIS_URL"], decode_responses=True)

    def spy(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        status, answer = ada(method, path, body)
        if answer.get("table", {}).get("status") == "playing":
            assert_nothing_hidden(client, table_id, 0, json.dumps(answer))
        return status, answer

    table = play_game(spy, table_id, 0)
    assert table["status"] == "finished" and table["result"]["end"] == "goal"
    assert max(table["totals"]) >= 1000
    for entry in table["rounds"]:
        assert entry["lucky"] == []  # R12.1: no lucky grab
        assert entry["commitment"] == commitment(bytes.fromhex(entry["seed"]))
    status, record = ada("GET", f"/api/tables/{table_id}/record", None)
    assert status == 200 and record["rules"]["ruleset"] == "tausende"
    assert all(1 <= r["cut"] <= 107 for r in record["rounds"])  # R12.1: 108 cards
    assert any(m["move"].startswith("swap-up ") for r in record["rounds"] for m in r["moves"])
    # the replay viewer steps every round from the public record (seeds revealed)
    response = app.test_client().get(f"/tables/{table_id}/replay/positions")
    assert response.status_code == 200
    steps = response.get_json()["rounds"]
    assert len(steps) == len(record["rounds"])
    assert all(r["positions"][0]["rules"]["ruleset"] == "tausende" for r in steps)
    path = tmp_path / "tausende.json"
    path.write_text(json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == {"ok": True, "result": table["result"]}


def queen_seed(players: int, dealer: int, cut: int) -> Callable[[], bytes]:
    """A seed source whose first round deals seat 0 a Q♠ (R12.6's cases need one in hand)."""
    for n in range(500):
        source = seeds(f"tausende-queen/{n}")
        d = deal_for(source(), Rules(players, ruleset="tausende"), dealer, cut)
        if any(NAMES[Card.from_id(i)] == "QS" for i in d.hands[0]):
            return seeds(f"tausende-queen/{n}")
    raise AssertionError("no seed deals a Q♠ to seat 0")


ILLEGAL_IN_THE_SWAPPING_ROUND = [
    ("swap-up QS", "queen_kept"),  # R12.6: a Q♠ is never put face up
    ("take {a} {b} {top}", "take_not_allowed"),  # R12.2/R12.4: no take before opening
    ("discard {a}", "wrong_phase"),
    ("cut 30", "wrong_phase"),
]
ILLEGAL_IN_THE_PLAY_PHASE = [
    ("discard QS", "queen_kept"),  # R12.6
    ("pass", "pass_not_allowed"),  # docs/TAUSENDE.md: only with nothing but Q♠s
    ("lay {a} 1.1", "not_opened"),  # R12.3: lay-offs only after opening
    ("swap 1.1 {a}", "not_opened"),  # R12.5 swaps, after opening too
    ("swap-up {a}", "wrong_phase"),  # R12.2 is over once someone drew
    ("lay {a} 7.1", "not_opened"),
]


@pytest.mark.parametrize("phase", ["swapping round", "play phase"])
def test_illegal_moves_are_answered_with_their_codes_and_change_nothing(
    app: Flask, rdb: redis.Redis[str], monkeypatch: pytest.MonkeyPatch, phase: str
) -> None:
    # the service draws seeds from secrets; this test needs a Q♠ in seat 0's first hand
    monkeypatch.setattr(tables, "new_seed", queen_seed(2, 1, 54))
    table_id, ada = started(app, [HUMAN, bot("zen")])
    status, body = ada("POST", f"/api/tables/{table_id}/moves", {"move": "cut 54", "seq": 0})
    assert status == 200, body
    table = body["table"]
    if phase == "play phase":
        status, body = ada(
            "POST", f"/api/tables/{table_id}/moves", {"move": "draw", "seq": table["seq"]}
        )
        assert status == 200, body
        table = body["table"]
    view = table["view"]
    assert "QS" in view["hand"] and view["turn"] == 0
    others = sorted(set(view["hand"]) - {"QS", "X"})
    cards = {"a": others[0], "b": others[1], "top": view["discard"][-1]}
    swapping = phase == "swapping round"
    cases = ILLEGAL_IN_THE_SWAPPING_ROUND if swapping else ILLEGAL_IN_THE_PLAY_PHASE
    for text, code in cases:
        before = stored(rdb, table_id)
        move = text.format(**cards)
        status, body = ada(
            "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": table["seq"]}
        )
        assert (status, body["error"]["code"]) == (422, code), (move, body)
        assert stored(rdb, table_id) == before, move


def test_the_turn_timer_plays_a_tausende_turn(app: Flask, rdb: redis.Redis[str]) -> None:
    """R9's timer at a Tausende table: the bot logic plays the human's turn (in the swapping
    round, R12.2, a swap-up or a draw) once the deadline has passed; the job does what the
    worker's does (service.tables.store.autoplay)."""
    table_id, ada = started(app, [HUMAN, bot("beginner"), bot("zen")], turn_timer=30)
    table = tables.load(rdb, table_id)
    assert table is not None and table.deadline_ms is not None
    seq = table.seq
    lifetimes = tables.Lifetimes(3600, 86400)
    done = tables.autoplay(rdb, table_id, seq, lifetimes, table.deadline_ms - 1)
    assert done is None  # not yet
    done = tables.autoplay(rdb, table_id, seq, lifetimes, table.deadline_ms + 1)
    assert done is not None and done.events
    first = done.events[0]
    assert first[0] == 0 and (first[1] == "draw" or first[1].startswith("swap-up "))
    status, body = ada("GET", f"/api/tables/{table_id}", None)
    assert status == 200 and body["table"]["seq"] > seq
