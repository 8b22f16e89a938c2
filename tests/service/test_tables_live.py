"""Tables with every real part (docs/TABLES.md): redis-server, gunicorn (gthread) for the API,
gunicorn with gevent workers for the live streams, and a stock ``rq worker --with-scheduler`` for
the turn timer. A whole game to 1000 that `python -m engine replay` verifies; the stream's resume
without gaps and presence; the timer playing a turn with no client connected (R9)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from service.tables import store as tables
from tests.support.front import start_front
from tests.support.processes import (
    Process,
    WebServer,
    service_env,
    start_stream,
    start_web,
    start_worker,
    wait_for,
)
from tests.support.servers import start_redis
from tests.support.tables import (
    Call,
    EventStream,
    assert_nothing_hidden,
    play_game,
    play_turn,
)

pytestmark = pytest.mark.integration


@dataclass
class Stack:
    redis_url: str
    web: WebServer
    stream: WebServer
    worker: Process

    def player(self, token: str | None) -> Call:
        def call(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
            return self.web.call(method, path, body, token)

        return call

    def table(self, seats: list[dict[str, Any]], **rules: Any) -> tuple[str, list[str], str]:
        """A table with its human seats taken (not started); returns (id, tokens, invite)."""
        status, body = self.web.call(
            "POST", "/api/tables", {"name": "Ada", "seats": seats, "rules": rules}
        )
        assert status == 201, body
        tokens = [body["token"]]
        for n in range(1, sum(1 for s in seats if s["kind"] == "human")):
            status, joined = self.web.call(
                "POST", f"/api/tables/join/{body['invite']}", {"name": f"P{n}"}
            )
            assert status == 200, joined
            tokens.append(joined["token"])
        return body["table"]["id"], tokens, body["invite"]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    logs = tmp_path_factory.mktemp("tables-live")
    server = start_redis()
    env = service_env(
        server.url,
        "s" * 64,
        PIKDAME_HEARTBEAT_SECONDS="1",
        PIKDAME_TABLE_QUEUE="tables-live",
        PIKDAME_QUEUE="verify-tables-live",
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


HUMAN: dict[str, Any] = {"kind": "human"}


def test_a_whole_game_to_1000_and_its_record_replays(stack: Stack, tmp_path: Path) -> None:
    table_id, (token,), _ = stack.table([HUMAN, {"kind": "bot", "level": "advanced"}])
    ada = stack.player(token)
    assert ada("POST", f"/api/tables/{table_id}/start", {})[0] == 200
    table = play_game(ada, table_id, 0)
    assert table["status"] == "finished" and table["result"]["end"] == "goal"
    winner = table["result"]["winner"]
    assert table["totals"][winner] >= 1000
    assert [r["round"] for r in table["rounds"]] == list(range(1, len(table["rounds"]) + 1))
    status, record = stack.player(None)("GET", f"/api/tables/{table_id}/record", None)
    assert status == 200
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == {"ok": True, "result": table["result"]}


def test_the_stream_resumes_without_a_gap_and_shows_presence(stack: Stack) -> None:
    seats = [HUMAN, HUMAN, {"kind": "bot", "level": "beginner"}]
    table_id, (ada_token, bob_token), _ = stack.table(seats)
    path = f"/api/tables/{table_id}/events"
    ada_stream = EventStream(stack.stream.base, path, ada_token)
    assert ada_stream.status == 200 and ada_stream.content_type.startswith("text/event-stream")
    _, first = ada_stream.next()
    assert first["events"] == [] and first["table"]["seat"] == 0
    ada = stack.player(ada_token)
    bob = stack.player(bob_token)
    ada_stream.until(lambda m: m["table"]["seats"][0]["connected"])
    assert ada("POST", f"/api/tables/{table_id}/start", {})[0] == 200
    status, body = bob("POST", f"/api/tables/{table_id}/moves", {"move": "cut 33", "seq": 0})
    assert status == 200
    live = ada_stream.until(lambda m: m["events"])  # the cut, as it happened
    assert live["events"][0] == {"seat": 1, "move": "cut 33"}
    seen = [*live["events"]]
    last = live["seq"]
    ada_stream.close()
    # Ada is away: Bob sees her gone; moves go on without her stream.
    status, body = bob("GET", f"/api/tables/{table_id}", None)
    wait_for(
        lambda: (
            not bob("GET", f"/api/tables/{table_id}", None)[1]["table"]["seats"][0]["connected"]
        ),
        timeout=15,
    )
    table = bob("GET", f"/api/tables/{table_id}", None)[1]["table"]
    missed: list[dict[str, Any]] = []
    for move in ("draw", "discard " + max(ada_view(stack, table_id, ada_token)["hand"])):
        status, body = ada(
            "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": table["seq"]}
        )
        assert status == 200, body
        missed.extend(body["events"])
        table = body["table"]
    resumed = EventStream(stack.stream.base, path, ada_token, last_id=last)
    event_id, message = resumed.next()
    assert event_id == table["seq"] == message["seq"]
    assert message["events"] == missed  # every event since `last`, none twice
    everything = [*seen, *message["events"]]
    via_query = EventStream(stack.stream.base, f"{path}?after=0", ada_token)
    _, replayed = via_query.next()
    assert replayed["events"][: len(everything)] == everything
    resumed.close()
    via_query.close()


def ada_view(stack: Stack, table_id: str, token: str) -> dict[str, Any]:
    status, body = stack.player(token)("GET", f"/api/tables/{table_id}", None)
    assert status == 200
    return dict(body["table"]["view"])


def test_the_turn_timer_plays_with_no_client_connected(stack: Stack) -> None:
    table_id, (token,), _ = stack.table(
        [HUMAN, {"kind": "bot", "level": "beginner"}], turn_timer=30
    )
    ada = stack.player(token)
    status, body = ada("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200
    table = body["table"]
    assert table["awaiting_cut"] and table["deadline"] is not None  # Ada must cut within 30 s
    client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    # Nobody is connected and nobody moves: at the deadline the worker cuts for Ada (bot rule).
    after = wait_for(lambda: (t := tables.load(client, table_id)) and t.seq > 0 and t, timeout=90)
    status, body = ada("GET", f"/api/tables/{table_id}", None)
    table = body["table"]
    assert table["round"] == 1 and not table["awaiting_cut"]
    assert table["rounds"][0]["cut"] >= 1
    assert table["turn"] == 0 and table["deadline"] is not None  # her first move's deadline
    # the worker's cut was the timer's, and says so on her stream (R9)
    replayed = EventStream(stack.stream.base, f"/api/tables/{table_id}/events?after=0", token)
    _, message = replayed.next()
    assert message["events"][0]["move"].startswith("cut ") and message["events"][0]["timer"]
    replayed.close()
    # A job for a seq that has moved on does nothing.
    lifetimes = tables.Lifetimes(3600, 3600)
    late = int(time.time() * 1000) + 10**9
    assert tables.autoplay(client, table_id, 0, lifetimes, late) is None
    assert tables.load(client, table_id) is not None
    assert after.seq == tables.load(client, table_id).seq  # type: ignore[union-attr]


def test_no_hidden_card_in_any_stream_message(stack: Stack) -> None:
    """R10 on the stream: every message to seat 0 while a round is played (bots' moves, the
    going-out card face down; into the next round when a bot went out at once and the first gave
    few messages) names only cards seat 0 may know, and no running round's seed."""
    seats = [HUMAN, {"kind": "bot", "level": "advanced"}, {"kind": "bot", "level": "beginner"}]
    table_id, (token,), _ = stack.table(seats)
    ada = stack.player(token)
    client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    stream = EventStream(stack.stream.base, f"/api/tables/{table_id}/events", token)
    stream.next()
    status, body = ada("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200
    table = body["table"]
    messages = 0
    for _ in range(200):
        # a round's end, and past it while a quick round (a bot out at once) gave few messages
        if table["status"] == "finished" or (table["round"] > 1 and messages > 5):
            break
        table = play_turn(ada, table)
        while True:  # every message up to this move's seq, each checked
            event_id, message = stream.next()
            assert_nothing_hidden(client, table_id, 0, json.dumps(message))
            messages += 1
            if event_id is not None and event_id >= table["seq"]:
                break
    stream.close()
    assert messages > 5


def test_the_stream_passes_nginx_unbuffered_to_the_gevent_group(stack: Stack) -> None:
    """deploy/nginx/proxy.conf as shipped: the stream path goes to the stream group, and each
    message arrives as it is written (no buffering, no cache)."""
    front = start_front(
        stack.web.base.removeprefix("http://"), stream=stack.stream.base.removeprefix("http://")
    )
    try:
        table_id, (token,), _ = stack.table([HUMAN, {"kind": "bot", "level": "beginner"}])
        ada = stack.player(token)
        assert ada("POST", f"/api/tables/{table_id}/start", {})[0] == 200
        stream = EventStream(front.base, f"/api/tables/{table_id}/events", token)
        assert stream.status == 200
        stream.next()
        status, _ = ada("POST", f"/api/tables/{table_id}/moves", {"move": "cut 12", "seq": 0})
        assert status == 200
        message = stream.until(lambda m: bool(m["events"]))
        assert message["events"][0] == {"seat": 0, "move": "cut 12"}
        stream.close()
        # nginx logs a request when it ends: the closed stream's line comes a moment later
        log = front.directory / "access.log"
        wait_for(lambda: f"/api/tables/{table_id}/events" in log.read_text(), timeout=30)
    finally:
        front.stop()


def test_no_hidden_card_in_a_gin_stream(stack: Stack) -> None:
    """G6/G9 on the stream of a Gin table: every message to the human seat while hands are
    played against the strong bot names no card of the bot's hidden hand, the stock or the
    bot's face-down knock card (``knock ??``), and not the match's seed."""
    from tests.support.gin_tables import assert_gin_nothing_hidden, gin_choice

    status, body = stack.web.call(
        "POST",
        "/api/tables",
        {"game": "gin", "name": "Ada", "seats": [HUMAN, {"kind": "bot", "level": "strong"}]},
    )
    assert status == 201, body
    table_id, token = body["table"]["id"], body["token"]
    ada = stack.player(token)
    client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    stream = EventStream(stack.stream.base, f"/api/tables/{table_id}/events", token)
    stream.next()
    status, body = ada("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200
    table = body["table"]
    messages = 0
    for _ in range(400):
        if table["status"] == "finished" or len(table["view"]["results"]) >= 2:
            break
        move = gin_choice(table["view"])
        status, body = ada(
            "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": table["seq"]}
        )
        assert status == 200, (move, body)
        table = body["table"]
        while True:  # every message up to this move's seq, each checked
            event_id, message = stream.next()
            assert_gin_nothing_hidden(client, table_id, 0, message)
            for event in message["events"]:
                if event["seat"] == 1 and event["move"].startswith("knock "):
                    assert event["move"].startswith("knock ?? ")
            messages += 1
            if event_id is not None and event_id >= table["seq"]:
                break
    stream.close()
    assert messages > 5
