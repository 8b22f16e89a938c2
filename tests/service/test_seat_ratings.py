"""A seat shows its player's rating only at a rated table (docs/LOBBY.md): a casual table's seats
and anonymous players have none to show. Defect (issue 38): casual and anonymous seats showed
"Wertung 1.500 (vorläufig)", a rating nobody had earned or that the game does not move."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.support.lobby import signed_up

HUMAN = {"kind": "human"}


def table_of(client: FlaskClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.get_json()
    table: dict[str, Any] = response.get_json()["table"]
    return table


def shown_ratings(doc: dict[str, Any]) -> list[Any]:
    return [(s.get("rating"), s.get("provisional")) for s in doc["seats"] if s["kind"] == "human"]


def test_a_casual_public_tables_account_seats_show_no_rating(app: Flask) -> None:
    ada, bob = signed_up(app, "Ada"), signed_up(app, "Bob")
    body = {"game": "pikdame", "name": "Ada", "seats": [HUMAN, HUMAN], "public": True}
    created = ada.post("/api/tables", json=body)
    assert created.status_code == 201, created.get_json()
    table_id = created.get_json()["table"]["id"]
    joined = bob.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})
    assert joined.status_code == 200, joined.get_json()
    assert shown_ratings(table_of(ada, table_id)) == [(None, None), (None, None)]
    text = ada.get("/api/lobby").get_json()
    assert '"rating": 1500' not in json.dumps(text)  # nor the lobby's entry


def test_a_casual_quick_matchs_anonymous_seats_show_no_rating(app: Flask) -> None:
    ada, bob = app.test_client(), app.test_client()
    ask = {"game": "gin", "seats": 2, "turn_timer": 30, "bots_after": None}
    assert ada.post("/api/match", json={**ask, "name": "Ada"}).status_code == 201
    matched = bob.post("/api/match", json={**ask, "name": "Bob"}).get_json()["match"]
    assert matched["status"] == "matched", matched
    assert shown_ratings(table_of(bob, matched["table"])) == [(None, None), (None, None)]


def test_a_rated_tables_seats_show_their_ratings(app: Flask) -> None:
    ada = signed_up(app, "Ada")
    body = {
        "game": "pikdame",
        "name": "Ada",
        "seats": [HUMAN, HUMAN],
        "public": True,
        "rated": True,
        "rules": {"turn_timer": 30},
    }
    created = ada.post("/api/tables", json=body)
    assert created.status_code == 201, created.get_json()
    assert shown_ratings(created.get_json()["table"])[0] == (1500, True)
