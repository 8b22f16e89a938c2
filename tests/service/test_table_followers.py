"""A table's follow-up reaches every seated player on the old table's live stream
(docs/TABLES.md, "The live stream"): Gin's "Wiederholen" and a rematch, made by one friend, are
named in a message of the other friend's stream at once, and the new table answers that friend
(same token) by then. A follow-up noted while its notice was lost (Redis reconnecting) still
reaches the stream by the next heartbeat. Real redis-server, the API's gunicorn and the stream
group's gevent gunicorn."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import redis

from service.tables import store as tables
from tests.support.processes import WebServer, service_env, start_stream, start_web
from tests.support.servers import start_redis
from tests.support.tables import EventStream

pytestmark = pytest.mark.integration

HUMAN: dict[str, Any] = {"kind": "human"}
NOW = 1_800_000_000_000  # when the lost-notice repeat is made (ms); nothing depends on it


@dataclass
class Stack:
    redis_url: str
    web: WebServer
    stream: WebServer


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    logs = tmp_path_factory.mktemp("table-followers")
    server = start_redis()
    env = service_env(server.url, "f" * 64, PIKDAME_HEARTBEAT_SECONDS="1")
    web = start_web(env, Path(logs / "web.log"))
    stream = start_stream(env, Path(logs / "stream.log"))
    try:
        yield Stack(server.url, web, stream)
    finally:
        stream.process.stop()
        web.process.stop()
        server.close()


def finished_gin_with_a_friend(stack: Stack) -> tuple[str, str, str]:
    """A Gin match of Ada and her friend Bea, ended by both agreeing to resign (R8): returns
    (table id, Ada's token, Bea's token)."""
    status, body = stack.web.call(
        "POST", "/api/tables", {"game": "gin", "name": "Ada", "seats": [HUMAN, HUMAN]}
    )
    assert status == 201, body
    table_id, ada = body["table"]["id"], body["token"]
    status, joined = stack.web.call("POST", f"/api/tables/join/{body['invite']}", {"name": "Bea"})
    assert status == 200, joined
    bea = joined["token"]
    assert stack.web.call("POST", f"/api/tables/{table_id}/start", {}, ada)[0] == 200
    assert stack.web.call("POST", f"/api/tables/{table_id}/resign", {}, ada)[0] == 200
    status, body = stack.web.call("POST", f"/api/tables/{table_id}/resign", {}, bea)
    assert status == 200 and body["table"]["status"] == "finished", body
    return table_id, ada, bea


def test_the_friends_stream_is_told_of_the_repeat_and_of_the_rematch(stack: Stack) -> None:
    table_id, ada, bea = finished_gin_with_a_friend(stack)
    path = f"/api/tables/{table_id}/events"
    bea_stream = EventStream(stack.stream.base, path, bea)
    _, first = bea_stream.next()
    assert first["table"]["status"] == "finished" and first["table"]["repeated"] is None
    status, body = stack.web.call("POST", f"/api/tables/{table_id}/replay-same", {}, ada)
    assert status == 200, body
    repeat_id = body["table"]["id"]
    told = bea_stream.until(lambda m: m["table"]["repeated"] is not None)
    assert told["table"]["repeated"] == repeat_id
    assert told["events"] == [] and told["seq"] == first["seq"]  # no move: the same id
    # the new table is there for her by then, in her seat, with her same token
    status, body = stack.web.call("GET", f"/api/tables/{repeat_id}", None, bea)
    assert status == 200 and body["table"]["seat"] == 1 and body["table"]["repeat_of"] == table_id
    bea_stream.close()
    # a rematch asked by Bea reaches Ada's stream the same way
    ada_stream = EventStream(stack.stream.base, path, ada, last_id=first["seq"])
    _, resumed = ada_stream.next()
    assert resumed["events"] == [] and resumed["table"]["repeated"] == repeat_id  # a reload
    status, body = stack.web.call("POST", f"/api/tables/{table_id}/rematch", {}, bea)
    assert status == 200, body
    told = ada_stream.until(lambda m: m["table"]["rematch"] is not None)
    assert told["table"]["rematch"] == body["table"]["id"]
    status, doc = stack.web.call("GET", f"/api/tables/{body['table']['id']}", None, ada)
    assert status == 200 and doc["table"]["seat"] == 0
    ada_stream.close()


if TYPE_CHECKING:
    TextRedis = redis.Redis[str]
else:
    TextRedis = redis.Redis


class Deaf(TextRedis):
    """A client of the real Redis whose notices are lost on the way (as in a reconnect)."""

    def publish(self, channel: Any, message: Any, **kwargs: Any) -> int:
        return 0


def test_a_follow_up_whose_notice_was_lost_reaches_the_stream_by_the_next_heartbeat(
    stack: Stack,
) -> None:
    table_id, _, bea = finished_gin_with_a_friend(stack)
    bea_stream = EventStream(stack.stream.base, f"/api/tables/{table_id}/events", bea)
    _, first = bea_stream.next()
    assert first["table"]["repeated"] is None
    deaf = Deaf.from_url(stack.redis_url, decode_responses=True)
    made = tables.repeat(deaf, table_id, 0, tables.Lifetimes(3600, 3600), NOW)
    told = bea_stream.until(lambda m: m["table"]["repeated"] is not None)  # heartbeats: 1 s
    assert told["table"]["repeated"] == made.id
    assert told["seq"] == first["seq"] and told["events"] == []
    bea_stream.close()
    deaf.close()
