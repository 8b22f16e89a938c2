"""The Meister at tables (issue 40 item 8): Pik Dame and Gin offer it (its decisions run off the
request, in the bots' worker: docs/TABLES.md "Bots off the request"; tests/service/
test_table_bots.py plays it), Tausende does not (its play-outs are Pik Dame's), and the daily
challenges keep their bots (R11, G3)."""

from __future__ import annotations

from flask.testing import FlaskClient

from engine.gin.daily import daily_seats as gin_daily_seats
from engine.pikdame.daily import daily_seats
from service import games
from service.games.adapter import form_facts
from tests.support.api import caller


def test_pikdame_and_gin_tables_offer_the_meister_tausende_does_not() -> None:
    from engine.gin.bots import LEVELS as GIN_LEVELS
    from engine.pikdame.rules import LEVELS as PIKDAME_LEVELS

    assert "meister" in PIKDAME_LEVELS and "meister" in GIN_LEVELS  # the engines have it
    offering = {name: "meister" in games.get(name).levels for name in games.GAMES}
    assert offering == {"pikdame": True, "tausende": False, "gin": True}
    assert "meister" in games.LEVELS
    forms = {name: form_facts(kind) for name, kind in games.offering(games.TABLES).items()}
    offered = {name: [lv["level"] for lv in form["levels"]] for name, form in forms.items()}
    assert {name: "meister" in levels for name, levels in offered.items()} == offering
    text = {lv["level"]: lv["text"] for lv in forms["gin"]["levels"]}
    assert text["meister"] == "level.meister"


def test_the_meister_is_a_deferred_level_of_pikdame_and_gin() -> None:
    """A declared set of levels, data of each adapter (no branch on a level's name)."""
    assert games.get("pikdame").deferred == frozenset({"meister"})  # type: ignore[attr-defined]
    assert games.get("gin").deferred == frozenset({"meister"})  # type: ignore[attr-defined]


def test_the_dailies_keep_their_bots() -> None:
    for seats in (daily_seats("Ada"), gin_daily_seats("Ada")):
        levels = [s.level for s in seats if s.kind == "bot"]
        assert levels and "meister" not in levels


def test_a_tausende_table_refuses_a_meister_seat(client: FlaskClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "meister"}]
    spec = {"game": "tausende", "name": "Ada", "seats": seats, "rules": {"turn_timer": None}}
    status, body = caller(client)("POST", "/api/tables", spec)
    assert (status, body["error"]["code"]) == (422, "bad_value")


def test_pikdame_and_gin_tables_take_a_meister_seat(client: FlaskClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "meister"}]
    for game in ("pikdame", "gin"):
        spec = {"game": game, "name": "Ada", "seats": seats, "rules": {"turn_timer": None}}
        status, body = caller(client)("POST", "/api/tables", spec)
        assert status == 201, (game, body)
        assert body["table"]["seats"][1] == {
            **body["table"]["seats"][1],
            "kind": "bot",
            "level": "meister",
        }
