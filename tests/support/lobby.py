"""Helpers for the lobby's tests (docs/LOBBY.md): signed-in players, a player's next move at any
table game (it reads only its own ``T``), and the turn timer played by hand on the tests' clock."""

from __future__ import annotations

from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from service.tables import store as tables
from service.tables.store import Lifetimes
from tests.support.accounts import ORIGIN, sign_up
from tests.support.authenticator import Authenticator
from tests.support.clock import Clock
from tests.support.gin_player import gin_choice
from tests.support.tables import scripted_move, tausende_move

LIFETIMES = Lifetimes(24 * 3600, 30 * 86400)


def signed_up(app: Flask, name: str) -> FlaskClient:
    """A browser with a new account, signed in (its session cookie)."""
    client = app.test_client()
    sign_up(client, Authenticator(ORIGIN), name)
    return client


def moves_for(table: dict[str, Any]) -> list[str]:
    """The moves a simple player tries at its turn, in order (the first accepted counts)."""
    if table["game"] == "gin":
        return [gin_choice(table["view"])]
    if table["game"] == "tausende":
        return tausende_move(table)
    return scripted_move(table)


def play_own_turn(client: FlaskClient, table: dict[str, Any], token: str | None = None) -> Any:
    """Play the caller's turn at ``table`` (its ``T``); the table after it."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for move in moves_for(table):
        response = client.post(
            f"/api/tables/{table['id']}/moves",
            json={"move": move, "seq": table["seq"]},
            headers=headers,
        )
        if response.status_code == 200:
            return response.get_json()["table"]
        assert response.status_code == 422, response.get_json()
    raise AssertionError(f"no move found in {table['view']}")


def timer_plays(rdb: redis.Redis[str], clock: Clock, table_id: str) -> tables.Changed:
    """The turn timer's job at the deadline (R9), as worker.jobs.table_turn_timeout runs it."""
    table = tables.load(rdb, table_id)
    assert table is not None and table.deadline_ms is not None
    now_ms = int(clock().timestamp() * 1000)
    clock.advance(milliseconds=table.deadline_ms - now_ms + 1)
    done = tables.autoplay(rdb, table_id, table.seq, LIFETIMES, int(clock().timestamp() * 1000))
    assert done is not None
    return done
