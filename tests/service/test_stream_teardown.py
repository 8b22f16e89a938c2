"""The live streams' teardown (docs/TABLES.md, service/tables/stream.py) on real parts:
redis-server and the stream group's gunicorn (gevent, deploy/gunicorn_stream.conf.py). When Redis
goes away or the server is stopped with streams open, each stream ends cleanly: the stream
server's log has one line per ended stream and no traceback, and a stopping worker exits by
itself (its seats marked absent) instead of being killed at the graceful timeout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis

from service.common import keys
from tests.support.processes import WebServer, service_env, start_stream, start_web
from tests.support.servers import start_redis
from tests.support.tables import EventStream

pytestmark = pytest.mark.integration

HUMAN: dict[str, Any] = {"kind": "human"}


def open_streams(web: WebServer, stream: WebServer, count: int) -> tuple[str, list[EventStream]]:
    """A table of ``count`` humans, each seat with its stream open (first message read)."""
    status, body = web.call("POST", "/api/tables", {"name": "Ada", "seats": [HUMAN] * count})
    assert status == 201, body
    table_id, tokens = body["table"]["id"], [body["token"]]
    for n in range(1, count):
        status, joined = web.call("POST", f"/api/tables/join/{body['invite']}", {"name": f"P{n}"})
        assert status == 200, joined
        tokens.append(joined["token"])
    streams = [EventStream(stream.base, f"/api/tables/{table_id}/events", t) for t in tokens]
    for s in streams:
        assert s.status == 200
        s.next()
    return table_id, streams


def read_to_end(s: EventStream) -> None:
    """Read until the server ends the stream (EOFError), skipping any messages before it."""
    with pytest.raises(EOFError):
        for _ in range(100):
            s.next()


def test_redis_going_away_ends_the_streams_without_a_traceback(tmp_path: Path) -> None:
    server = start_redis()
    env = service_env(server.url, "q" * 64, PIKDAME_HEARTBEAT_SECONDS="1")
    web = start_web(env, tmp_path / "web.log")
    stream = start_stream(env, tmp_path / "stream.log")
    try:
        table_id, streams = open_streams(web, stream, 2)
        server.stop()
        for s in streams:
            read_to_end(s)  # the next heartbeat finds Redis gone: the stream ends
            s.close()
    finally:
        stream.process.stop()
        web.process.stop()
        server.close()
    log = (tmp_path / "stream.log").read_text()
    assert "Traceback" not in log and "[ERROR]" not in log, log
    ended = [line for line in log.splitlines() if '"event":"stream_ended"' in line]
    assert len(ended) == 2 and all(table_id in line for line in ended), log
    assert "Worker exiting" in log


def test_stopping_the_stream_server_ends_its_streams_and_clears_presence(
    tmp_path: Path,
) -> None:
    server = start_redis()
    env = service_env(server.url, "q" * 64)
    web = start_web(env, tmp_path / "web.log")
    stream = start_stream(env, tmp_path / "stream.log")
    client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
    try:
        table_id, streams = open_streams(web, stream, 3)
        assert client.zcard(keys.table_presence(table_id)) == 3
        stream.process.stop()  # SIGTERM, as systemd stops the group
        for s in streams:
            read_to_end(s)
            s.close()
        assert client.zcard(keys.table_presence(table_id)) == 0  # every seat marked absent
    finally:
        stream.process.stop()
        web.process.stop()
        server.close()
    log = (tmp_path / "stream.log").read_text()
    assert "Traceback" not in log and "[ERROR]" not in log, log
    assert "Worker exiting" in log and "graceful timeout" not in log, log
