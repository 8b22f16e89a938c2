"""The lobby's, a quick-match ticket's and a table's talk streams with every real part
(docs/LOBBY.md): redis-server, gunicorn (gthread) for the API, the gevent stream group for the
streams and ``pikdame worker`` for the turn timers and the lobby's sweep. The lobby's stream
shows a public game and its presence and never a card; two strangers meet through the quick
match's stream; a lone player's stream fills the table with bots after the chosen wait; a phrase
reaches every seat's stream but the one that muted it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.support.gin_tables import gin_hidden
from tests.support.lobby import Browser, Sse
from tests.support.processes import (
    Process,
    WebServer,
    service_env,
    start_stream,
    start_web,
    start_worker,
)
from tests.support.servers import start_redis
from tests.support.tables import CARD, assert_nothing_hidden, scripted_move

pytestmark = pytest.mark.integration

HUMAN: dict[str, Any] = {"kind": "human"}


@dataclass
class Stack:
    redis_url: str
    web: WebServer
    stream: WebServer
    worker: Process

    def browser(self) -> Browser:
        return Browser(self.web.base)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    logs = tmp_path_factory.mktemp("lobby-live")
    server = start_redis()
    env = service_env(
        server.url,
        "l" * 64,
        PIKDAME_HEARTBEAT_SECONDS="1",
        PIKDAME_TABLE_QUEUE="lobby-live",
        PIKDAME_QUEUE="verify-lobby-live",
    )
    web = start_web(env, Path(logs / "web.log"))
    stream = start_stream(env, Path(logs / "stream.log"))
    worker = start_worker(env, Path(logs / "worker.log"))
    try:
        yield Stack(server.url, web, stream, worker)
    finally:
        worker.stop()
        stream.process.stop()
        web.process.stop()
        server.close()


def lobby_stream(stack: Stack) -> Sse:
    sse = Sse(stack.stream.base, "/api/lobby/events", {})
    assert sse.status == 200
    return sse


def test_the_lobby_stream_shows_a_public_game_and_never_a_card(stack: Stack) -> None:
    client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    watcher = lobby_stream(stack)
    ada, bob = stack.browser(), stack.browser()
    status, made = ada.call(
        "POST",
        "/api/tables",
        {"name": "Ada", "seats": [HUMAN, HUMAN], "public": True, "rules": {"turn_timer": 90}},
    )
    assert status == 201, made
    table_id = made["table"]["id"]
    listed = watcher.until("lobby", lambda d: any(e["id"] == table_id for e in d["open"]))
    assert listed["online"] >= 1
    status, joined = bob.call("POST", f"/api/tables/{table_id}/join", {"name": "Bob"})
    assert status == 200 and joined["table"]["status"] == "playing"
    tokens = {0: made["token"], 1: joined["token"]}
    playing = watcher.until("lobby", lambda d: any(e["id"] == table_id for e in d["playing"]))
    assert playing["open"] == []
    # Ada opens her table: the lobby shows her connected, Bob away
    ada_table = Sse(stack.stream.base, f"/api/tables/{table_id}/events", ada_auth(tokens[0]))
    seen = watcher.until(
        "lobby", lambda d: bool(d["playing"]) and d["playing"][0]["seats"][0]["connected"]
    )
    assert seen["playing"][0]["seats"][1]["away"] is True
    table = joined["table"]
    for _ in range(16):
        turn = table["turn"]
        before = turn
        _, mine = stack.web.call("GET", f"/api/tables/{table_id}", None, tokens[turn])
        mine = mine["table"]
        for move in scripted_move(mine):
            status, body = stack.web.call(
                "POST",
                f"/api/tables/{table_id}/moves",
                {"move": move, "seq": mine["seq"]},
                tokens[turn],
            )
            if status == 200:
                table = body["table"]
                break
        if table["turn"] == before:
            continue  # a draw: the same seat's turn goes on, the lobby has nothing new
        now = table["turn"]
        doc = watcher.until(
            "lobby", lambda d, now=now: bool(d["playing"]) and d["playing"][0]["turn"] == now
        )
        text = json.dumps(doc)
        for seat in (0, 1):
            assert_nothing_hidden(client, table_id, seat, text)
    everything = "".join(watcher.raw)
    for seat in (0, 1):
        assert_nothing_hidden(client, table_id, seat, everything)
    assert '"view"' not in everything and '"events"' not in everything
    ada_table.close()
    watcher.close()
    client.close()


def ada_auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_strangers_meet_through_the_quick_matchs_stream(stack: Stack) -> None:
    ada, bob = stack.browser(), stack.browser()
    body = {"game": "gin", "seats": 2, "turn_timer": 60, "bots_after": None}
    status, mine = ada.call("POST", "/api/match", {**body, "name": "Ada"})
    assert status == 201 and mine["match"]["status"] == "waiting", mine
    ada_stream = Sse(stack.stream.base, "/api/match/events", {"Cookie": ada.cookie()})
    assert ada_stream.status == 200
    first = ada_stream.until("match", lambda d: True)
    assert first["status"] == "waiting" and first["id"] == mine["match"]["id"]
    status, theirs = bob.call("POST", "/api/match", {**body, "name": "Bob"})
    assert status == 201 and theirs["match"]["status"] == "matched"
    matched = ada_stream.until("match", lambda d: d["status"] == "matched" and d["table"])
    assert matched["table"] == theirs["match"]["table"]
    with pytest.raises(EOFError):  # the stream ends once matched
        ada_stream.next()
    # the ticket's stream names the table and the seat's token, never a card of it
    client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    hidden = gin_hidden(client, matched["table"], 0) | gin_hidden(client, matched["table"], 1)
    text = "".join(ada_stream.raw).replace(matched["token"], "")
    assert not set(CARD.findall(text)) & hidden
    assert '"view"' not in text and '"hand"' not in text
    client.close()
    status, table = ada.call("GET", f"/api/tables/{matched['table']}")
    assert status == 200 and table["table"]["status"] == "playing"
    assert table["table"]["deadline"] is not None  # the matched table's timer runs


def test_a_lone_players_stream_fills_the_table_with_bots(stack: Stack) -> None:
    cy = stack.browser()
    body = {"game": "tausende", "seats": 3, "turn_timer": 30, "bots_after": 5, "name": "Cy"}
    status, mine = cy.call("POST", "/api/match", body)
    assert status == 201 and mine["match"]["status"] == "waiting"
    stream = Sse(stack.stream.base, "/api/match/events", {"Cookie": cy.cookie()}, timeout=30)
    matched = stream.until("match", lambda d: d["status"] == "matched" and d["table"])
    assert matched["waited_ms"] >= 5000
    status, table = cy.call("GET", f"/api/tables/{matched['table']}")
    assert [s["kind"] for s in table["table"]["seats"]] == ["human", "bot", "bot"]
    stream.close()


def test_a_phrase_reaches_every_seat_but_the_one_that_muted_it(stack: Stack) -> None:
    ada, bob = stack.browser(), stack.browser()
    status, made = ada.call(
        "POST", "/api/tables", {"name": "Ada", "seats": [HUMAN, HUMAN], "public": True}
    )
    table_id = made["table"]["id"]
    status, joined = bob.call("POST", f"/api/tables/{table_id}/join", {"name": "Bob"})
    assert status == 200
    path = f"/api/tables/{table_id}/events"
    ada_sse = Sse(stack.stream.base, path, ada_auth(made["token"]))
    bob_sse = Sse(stack.stream.base, path, ada_auth(joined["token"]))
    for sse in (ada_sse, bob_sse):
        sse.until("table", lambda d: True)
    assert bob.call("POST", f"/api/tables/{table_id}/mute", {"seat": 0})[0] == 200
    assert ada.call("POST", f"/api/tables/{table_id}/phrases", {"phrase": "hello"})[0] == 200
    assert bob.call("POST", f"/api/tables/{table_id}/phrases", {"phrase": "thanks"})[0] == 200
    heard_by_ada = [ada_sse.until("phrase", lambda d: True) for _ in range(2)]
    assert [(p["seat"], p["phrase"]) for p in heard_by_ada] == [(0, "hello"), (1, "thanks")]
    heard_by_bob = bob_sse.until("phrase", lambda d: True)
    assert (heard_by_bob["seat"], heard_by_bob["phrase"]) == (1, "thanks")  # Ada's muted
    status, again = ada.call("POST", f"/api/tables/{table_id}/phrases", {"phrase": "oh_no"})
    assert status == 429 and again["error"]["code"] == "phrase_too_soon"
    ada_sse.close()
    bob_sse.close()
