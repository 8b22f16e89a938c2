"""Live streams held at once per seat and per address (docs/TABLES.md, "Streams per seat and per
address"), through the shipped nginx front (tests/support/front.py) and the real stream group
(gunicorn, gevent), on loopback: each client has an address of its own in 127.0.0.0/8.

Defect: one seated client held any number of live streams. With one token and one address, 620
stream requests through the suite's front got 511 streams, and meanwhile none of 20 other
clients' reads was answered (nginx: "worker_connections are not enough"). Now a seat holds
``PIKDAME_STREAMS_PER_SEAT`` (8) and an address ``PIKDAME_STREAMS_PER_ADDRESS`` (64); one more is
429 ``too_many_streams`` with ``Retry-After``, and everyone else is served meanwhile. The leases
live in Redis and run out when their process is killed."""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service.common import config
from tests.support.front import NGINX_DIR, Front, start_front
from tests.support.processes import (
    WebServer,
    service_env,
    start_stream,
    start_web,
    wait_for,
)
from tests.support.servers import start_redis

pytestmark = pytest.mark.integration

PER_SEAT = 8  # the shipped defaults (service/common/config.py)
PER_ADDRESS = 64
FLOODER = "127.0.0.2"
OTHERS = [f"127.0.1.{n}" for n in range(1, 21)]  # 20 other players, each from their own address
FLOOD = 600  # stream requests at least, more than the suite's nginx could hold before (511)
EACH = 1000  # stream requests per flooding thread at most
TWO_SEATS: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]


@dataclass
class Stack:
    env: dict[str, str]
    web: WebServer
    stream: WebServer
    front: Front

    @property
    def port(self) -> int:
        return int(self.front.base.rsplit(":", 1)[1])

    def table(self) -> tuple[str, str]:
        """A new table of one human (and a bot): its id and the human's token."""
        status, body = self.web.call("POST", "/api/tables", {"name": "Ada", "seats": TWO_SEATS})
        assert status == 201, body
        return body["table"]["id"], body["token"]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    logs = tmp_path_factory.mktemp("stream-caps")
    server = start_redis()
    # the front is the only proxy: the apps take the client's address from its X-Forwarded-For
    env = service_env(
        server.url, "c" * 64, PIKDAME_HEARTBEAT_SECONDS="1", PIKDAME_PROXIES="127.0.0.1"
    )
    web = start_web(env, logs / "web.log")
    stream = start_stream(env, logs / "stream.log")
    front = start_front(
        web.base.removeprefix("http://"), stream=stream.base.removeprefix("http://")
    )
    try:
        yield Stack(env, web, stream, front)
    finally:
        front.stop()
        stream.process.stop()
        web.process.stop()
        server.close()


@dataclass
class Answer:
    """One stream request's answer: its status, and the open connection of a 200 (its first
    message read) or the error code and ``Retry-After`` of a refusal."""

    status: int
    connection: http.client.HTTPConnection | None = None
    code: str | None = None
    retry_after: str | None = None

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


def ask_stream(port: int, table_id: str, token: str, source: str) -> Answer:
    """GET the table's stream from ``source`` (a loopback address) through the front."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=20, source_address=(source, 0)
    )
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
    connection.request("GET", f"/api/tables/{table_id}/events", headers=headers)
    response = connection.getresponse()
    if response.status == 200:
        while not response.readline().startswith(b"data: "):  # its first message: it is live
            pass
        return Answer(200, connection)
    body = response.read()
    connection.close()
    code = json.loads(body)["error"]["code"] if body.startswith(b"{") else None
    return Answer(response.status, None, code, response.getheader("Retry-After"))


def ask(port: int, path: str, source: str) -> int:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=20, source_address=(source, 0)
    )
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def refused(answer: Answer) -> bool:
    """API.md: 429, the one error envelope with its stable code, and when to ask again."""
    return (
        answer.status == 429
        and answer.code == "too_many_streams"
        and answer.retry_after is not None
        and int(answer.retry_after) >= 1
    )


def test_one_client_flooding_streams_holds_a_few_and_others_are_served(stack: Stack) -> None:
    """One token from one address asks for streams from four threads until told to stop (at
    least FLOOD requests, at most EACH per thread); the 20 others ask while it goes on."""
    table_id, token = stack.table()
    answers: list[Answer] = []
    lock = threading.Lock()
    stop = threading.Event()

    def flood() -> None:
        for _ in range(EACH):
            if stop.is_set():
                return
            try:
                answer = ask_stream(stack.port, table_id, token, FLOODER)
            except OSError:
                answer = Answer(0)  # no answer at all (a reset, a timeout)
            with lock:
                answers.append(answer)

    flooders = [threading.Thread(target=flood) for _ in range(4)]
    others = [stack.table() for _ in OTHERS]
    for thread in flooders:
        thread.start()
    try:
        wait_for(lambda: sum(a.status == 200 for a in answers) >= PER_SEAT, timeout=60)
        # meanwhile: every other player reads today's challenge and follows their own table
        served = []
        for source, (other_table, other_token) in zip(OTHERS, others, strict=True):
            own = ask_stream(stack.port, other_table, other_token, source)
            served.append((ask(stack.port, "/api/daily", source), own.status))
            own.close()
        flooding = all(thread.is_alive() for thread in flooders)
        deadline = time.monotonic() + 120  # bounded: the flood's count, or its time
        while len(answers) < FLOOD and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        for thread in flooders:
            thread.join(timeout=60)
    held = [a for a in answers if a.status == 200]
    try:
        assert len(held) == PER_SEAT  # streams one client holds at once
        assert len(answers) >= FLOOD
        assert all(refused(a) for a in answers if a.status != 200)
        assert served == [(200, 200)] * len(OTHERS)
        assert flooding  # the others were served while the flood went on
    finally:
        for answer in held:
            answer.close()
    # a stream that ends gives its place back (its close is noticed by the next heartbeat)
    again = wait_for(
        lambda: (a := ask_stream(stack.port, table_id, token, FLOODER)).status == 200 and a
    )
    again.close()


def test_one_address_holds_its_cap_over_many_seats(stack: Stack) -> None:
    """Seats of many tables from one address (a made-up player per table): the address's cap
    counts them together; another address is not held up."""
    source = "127.0.0.3"
    seats = [stack.table() for _ in range(PER_ADDRESS + 2)]
    answers = [ask_stream(stack.port, t, token, source) for t, token in seats]
    try:
        assert [a.status for a in answers] == [200] * PER_ADDRESS + [429] * 2
        assert all(refused(a) for a in answers[PER_ADDRESS:])
        elsewhere = ask_stream(stack.port, *seats[-1], "127.0.0.4")
        assert elsewhere.status == 200
        elsewhere.close()
    finally:
        for answer in answers:
            answer.close()


def test_the_streams_of_a_killed_stream_server_give_their_places_back(
    stack: Stack, tmp_path: Path
) -> None:
    """Leases live in Redis with an end: a stream server killed with a seat's streams open holds
    them on for three heartbeats at most, then the seat may open as many again elsewhere."""
    doomed = start_stream(stack.env, tmp_path / "doomed.log")
    doomed_port = int(doomed.base.rsplit(":", 1)[1])
    table_id, token = stack.table()
    source = "127.0.0.5"
    try:
        held = [ask_stream(doomed_port, table_id, token, source) for _ in range(PER_SEAT)]
        assert [a.status for a in held] == [200] * PER_SEAT
        assert refused(ask_stream(stack.port, table_id, token, source))
        doomed.process.kill()  # SIGKILL: no stream gives anything back
        for answer in held:
            answer.close()
        # the dead process's leases run out after three heartbeats (1 s each here), each at its
        # own last renewal: the seat opens all its streams again, and not one more
        again = [
            wait_for(
                lambda: (a := ask_stream(stack.port, table_id, token, source)).status == 200 and a,
                timeout=60,
            )
            for _ in range(PER_SEAT)
        ]
        assert refused(ask_stream(stack.port, table_id, token, source))
        for answer in again:
            answer.close()
    finally:
        doomed.process.stop()


def test_the_front_holds_every_stream_the_group_plans() -> None:
    """deploy/SCALING.md, "Live streams": the stream group of the 2-core box (one gevent worker
    per core, deploy/gunicorn_stream.conf.py) holds 4,000 streams, two connections
    each at nginx; main.conf lets one nginx worker take all of them and as many again for the
    other requests (nginx does not spread connections evenly over its workers)."""
    defaults = {v.name: str(v.default) for v in config.VARIABLES}
    assert defaults["PIKDAME_STREAMS_PER_SEAT"] == str(PER_SEAT)
    assert defaults["PIKDAME_STREAMS_PER_ADDRESS"] == str(PER_ADDRESS)
    group = config.per_core(2)  # PIKDAME_STREAM_PROCESSES unset: one per core
    assert group == 2
    streams = group * int(defaults["PIKDAME_STREAM_CONNECTIONS"])
    main = (NGINX_DIR / "main.conf").read_text()
    connections = re.search(r"worker_connections\s+(\d+);", main)
    descriptors = re.search(r"worker_rlimit_nofile\s+(\d+);", main)
    assert connections is not None and descriptors is not None
    assert int(connections[1]) >= 2 * (2 * streams)
    assert int(descriptors[1]) >= 2 * int(connections[1])
