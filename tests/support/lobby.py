"""Helpers for the lobby's tests (docs/LOBBY.md): signed-in players, a player's next move at any
table game (it reads only its own ``T``), and the turn timer played by hand on the tests' clock."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import urllib.error
import urllib.parse
import urllib.request
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
from tests.support.processes import json_call
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


class Browser:
    """A client of a real server that keeps its session cookie, as a browser does."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None
    ) -> tuple[int, Any]:
        return json_call(self.opener, self.base, method, path, body, token)

    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


class Sse:
    """A Server-Sent Events reader over one connection: ``next()`` gives the next message's
    ``(event, data)`` (``table`` when unnamed), skipping comments."""

    def __init__(self, base: str, path: str, headers: dict[str, str], timeout: float = 20) -> None:
        parsed = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(
            parsed.hostname or "127.0.0.1", parsed.port, timeout=timeout
        )
        self.connection.request("GET", path, headers={"Accept": "text/event-stream", **headers})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.raw: list[str] = []

    def next(self) -> tuple[str, dict[str, Any]]:
        event = "message"
        data: list[str] = []
        while True:
            line = self.response.readline().decode()
            if not line:
                raise EOFError("the stream ended")
            self.raw.append(line)
            line = line.rstrip("\n")
            if line == "":
                if data:
                    return event, json.loads("\n".join(data))
                event = "message"
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                event = value
            elif name == "data":
                data.append(value)

    def until(self, event: str, predicate: Any) -> dict[str, Any]:
        while True:
            name, data = self.next()
            if name == event and predicate(data):
                return data

    def close(self) -> None:
        self.connection.close()
