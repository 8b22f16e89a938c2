"""Live tables under load: open streams, a move's broadcast, the turn timer and memory per
stream, all measured at once on a busy site. Writes bench/results/tables.md.

    .venv/bin/python -m bench.bench_tables [--streams 1000] [--tables 200] [--load-timers 100]
        [--seconds 60] [--threads 12] [--busy 2] [--stream-weight 400] [--idle [--timers 40]]

The headline: ``--streams`` SSE streams stay open throughout while ``--tables``
two-human tables each play a move a second (the driver plays the seat to move, over kept-alive
connections from several threads) and ``--load-timers`` tables wait on a 30 s turn timer whose
deadline falls inside the load. Measured together: each move's delivery to its table's streams,
the timers' lateness, the stream group's memory per stream and every process's CPU. ``--idle``
adds the earlier figures of an idle site (streams opened then closed, one move at a time, each
worker's timers alone beside RQ's stock worker).
``--busy N`` keeps N processes replaying zen rounds through the load (the verifying workers'
engine work at the reset hour); ``--stream-weight W`` runs each role in a CPU control group of
its own as systemd runs the units, the stream group at weight W (bench/cgroups.py).

Real parts: redis-server, the API's gunicorn (gthread), the streams' gunicorn (gevent), both
with the deployed number of workers for this machine unless ``--processes`` says otherwise
(``--processes``, ``--web-threads``: the API's; ``--stream-processes``: the stream group's),
``rq worker --with-scheduler`` as deploy/ runs it
(``worker_args()``). No figure here is asserted by any test.
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import json
import multiprocessing
import os
import re
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, cast

import redis

from bench import cgroups
from bench.loadkit import cpu_seconds, load_average
from service.commands import worker_args
from service.common import config
from tests.support.processes import (
    Process,
    WebServer,
    descendants,
    given_or_default,
    json_call,
    service_env,
    spawn,
    start_stream,
    start_web,
)
from tests.support.servers import start_redis

ROOT = Path(__file__).resolve().parent.parent
RESULT = ROOT / "bench" / "results" / "tables.md"
HUMAN: dict[str, Any] = {"kind": "human"}


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def stream_workers(server: WebServer) -> list[int]:
    return descendants(server.process.popen.pid)


def new_table(web: WebServer, seats: list[dict[str, Any]], **rules: Any) -> tuple[str, str]:
    status, body = web.call("POST", "/api/tables", {"name": "Ada", "seats": seats, "rules": rules})
    assert status == 201, body
    token = body["token"]
    table_id = body["table"]["id"]
    status, body = web.call("POST", f"/api/tables/{table_id}/start", {}, token)
    assert status == 200, body
    return table_id, token


def open_stream(port: int, table_id: str, token: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    request = (
        f"GET /api/tables/{table_id}/events HTTP/1.1\r\nHost: bench\r\n"
        f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
    )
    sock.sendall(request.encode())
    return sock


def read_until(sock: socket.socket, marker: bytes, timeout: float = 30) -> bytes:
    sock.settimeout(timeout)
    data = b""
    while marker not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise EOFError("stream closed")
        data += chunk
    return data


def bench_streams(web: WebServer, stream: WebServer, count: int) -> dict[str, Any]:
    """``count`` open streams on one gevent worker, two per table (a table's streams all wake
    on each of its changes, presence included): memory per connection."""
    port = int(stream.base.rsplit(":", 1)[1])
    pairs = [
        new_table(web, [HUMAN, {"kind": "bot", "level": "beginner"}]) for _ in range(count // 2)
    ]
    workers = stream_workers(stream)
    warm = open_stream(port, *pairs[0])
    read_until(warm, b"event: table")
    before = sum(rss_kb(p) for p in workers)
    socks = []
    started = time.perf_counter()
    for table_id, token in pairs:
        socks.append(open_stream(port, table_id, token))
        socks.append(open_stream(port, table_id, token))
    for sock in socks:
        read_until(sock, b"event: table")
    opened_s = time.perf_counter() - started
    time.sleep(2)
    after = sum(rss_kb(p) for p in workers)
    for sock in [warm, *socks]:
        sock.close()
    return {
        "streams": len(socks),
        "open_s": round(opened_s, 2),
        "rss_before_mb": round(before / 1024, 1),
        "rss_after_mb": round(after / 1024, 1),
        "kb_per_stream": round((after - before) / count, 1),
    }


def bench_broadcast(web: WebServer, stream: WebServer, tables: int) -> dict[str, Any]:
    """``tables`` active tables (two humans and a bot each, both humans streaming); each table's
    cut is made and the time until both seats' streams carry it is measured."""
    port = int(stream.base.rsplit(":", 1)[1])
    setups = []
    for _ in range(tables):
        status, body = web.call(
            "POST",
            "/api/tables",
            {"name": "Ada", "seats": [HUMAN, HUMAN, {"kind": "bot", "level": "beginner"}]},
        )
        assert status == 201, body
        table_id, ada = body["table"]["id"], body["token"]
        status, joined = web.call("POST", f"/api/tables/join/{body['invite']}", {"name": "Bob"})
        bob = joined["token"]
        web.call("POST", f"/api/tables/{table_id}/start", {}, ada)
        socks = [open_stream(port, table_id, t) for t in (ada, bob)]
        for sock in socks:
            read_until(sock, b"event: table")
        setups.append((table_id, bob, socks))
    selector = selectors.DefaultSelector()
    latencies: list[float] = []
    connection = http.client.HTTPConnection("127.0.0.1", int(web.base.rsplit(":", 1)[1]))
    for table_id, bob, socks in setups:
        for sock in socks:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, bytearray())
        body = json.dumps({"move": "cut 40", "seq": 0})
        sent = time.perf_counter()
        connection.request(
            "POST",
            f"/api/tables/{table_id}/moves",
            body,
            {"Content-Type": "application/json", "Authorization": f"Bearer {bob}"},
        )
        connection.getresponse().read()
        waiting = set(socks)
        deadline = time.monotonic() + 10
        while waiting and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=1):
                sock = cast(socket.socket, key.fileobj)
                buffer = key.data
                buffer += sock.recv(65536)
                if b"cut 40" in buffer and sock in waiting:
                    waiting.discard(sock)
                    latencies.append((time.perf_counter() - sent) * 1000)
        for sock in socks:
            selector.unregister(sock)
    for _, _, socks in setups:
        for sock in socks:
            sock.close()
    latencies.sort()
    return {
        "tables": tables,
        "streams": 2 * tables,
        "deliveries": len(latencies),
        "median_ms": round(statistics.median(latencies), 1),
        "p99_ms": round(percentile(latencies, 0.99), 1),
        "max_ms": round(latencies[-1], 1),
    }


def parse_deadline(deadline: str) -> float:
    """``T.deadline`` (ISO 8601, ms, Z) as a Unix time."""
    at = time.mktime(time.strptime(deadline[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
    return at + int(deadline[20:23]) / 1000


def bench_timers(web: WebServer, redis_url: str, count: int) -> dict[str, Any]:
    """``count`` tables whose human never cuts (30 s timer), made one after another: how long
    after each deadline the timer's cut was published (the table's ``PUBLISH`` on its live
    channel, read by one pattern subscription here: no polling in the figure)."""
    listener = redis.Redis.from_url(redis_url).pubsub()
    listener.psubscribe("pd:{t:*}:live")
    deadlines: dict[str, float] = {}
    for _ in range(count):
        table_id, token = new_table(
            web, [HUMAN, {"kind": "bot", "level": "beginner"}], turn_timer=30
        )
        _, body = web.call("GET", f"/api/tables/{table_id}", None, token)
        deadlines[table_id] = parse_deadline(body["table"]["deadline"])
    lateness: dict[str, float] = {}
    stop = time.time() + 150
    while len(lateness) < count and time.time() < stop:
        message = listener.get_message(timeout=1.0)
        if message is None or message["type"] != "pmessage":
            continue
        now = time.time()
        table_id = message["channel"].decode().split("{t:", 1)[1].split("}", 1)[0]
        at = deadlines.get(table_id)
        # the start's message came 30 s before the deadline; the next one is the timer's cut
        if at is not None and table_id not in lateness and now > at - 15:
            lateness[table_id] = now - at
    listener.close()
    values = sorted(lateness.values())
    return {
        "timers": count,
        "fired": len(values),
        "median_s": round(statistics.median(values), 2) if values else None,
        "p99_s": round(percentile(values, 0.99), 2) if values else None,
        "max_s": round(values[-1], 2) if values else None,
        "min_s": round(values[0], 2) if values else None,
    }


def timer_worker(env: dict[str, str], log: Path, stock: bool) -> Process:
    """deploy/'s worker, or (the reference) the same command with RQ's stock worker class,
    whose scheduler ticks once a second."""
    args = worker_args()
    if stock:
        args[args.index("worker.steady.SteadyWorker")] = "rq.worker.Worker"
    return spawn(args, env, log)


# The engine's work of a verification worker at the reset hour, without its Redis: the day's
# round with four zen bots (the par's game), over and over, on a new day's seed each time.
BUSY = """
from engine import DAILY_DEALER, DAILY_RULES, Game, Seat, daily_seed
zen = tuple(Seat("bot", level="zen") for _ in range(DAILY_RULES.players))
day = 0
while True:
    day += 1
    seed = daily_seed(b"busy", f"2026-{1 + day % 12:02d}-{1 + day % 28:02d}")
    Game.start(seed, DAILY_RULES, zen, DAILY_DEALER)
"""


# --- Live tables under load (the headline) -----------------------------------------------------

ID_LINE = re.compile(rb"\nid: (\d+)\r?\n")
CUT = "cut 40"


@dataclass
class Playing:
    """One playing table of the load: two human seats, both streaming; the driver plays the seat
    to move. ``sent`` maps the seq a move will produce to when its POST was about to go out."""

    table_id: str
    tokens: list[str]
    seq: int
    move: tuple[int, str] | None
    offset: float
    sent: dict[int, float] = field(default_factory=dict)


Arrival = tuple[int, int, float]  # (stream index, the seq its message reached, when: perf_counter)


@dataclass
class Stream:
    """One open SSE connection: the last message id seen, and the partial line after it."""

    sock: socket.socket
    table: Playing | None
    index: int
    last: int = -1
    tail: bytes = b""


@dataclass
class LoadState:
    """What the driver's threads share (appends and stores only: atomic under the GIL)."""

    latencies: list[float] = field(default_factory=list)
    delivered: list[tuple[float, float]] = field(default_factory=list)  # (sent, latency ms)
    #: the same deliveries split at the move's PUBLISH (as this process's subscription saw it):
    #: POST sent → published (the API's part) and published → read from the stream
    to_publish: list[float] = field(default_factory=list)
    from_publish: list[float] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)  # POST sent → its answer read (ms)
    published: dict[tuple[str, int], float] = field(default_factory=dict)
    moved: list[float] = field(default_factory=list)  # when each accepted move was answered
    rejected: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stuck: int = 0
    behind: list[float] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)


def next_move(table: dict[str, Any]) -> tuple[int, str] | None:
    """The move the driver plays next at a table, read from its latest ``T`` (any seat's):
    the cutter's cut, then draw and discard the first card of the hand, turn after turn. A round
    that ends starts the next one with a cut. None when the game is over, or at a forced take
    (the stock ran out, R4.4: about 150 moves into a round, past the load's window)."""
    if table["status"] != "playing":
        return None
    turn = int(table["turn"])
    if table["awaiting_cut"]:
        return turn, CUT
    view = table["view"]
    if view["phase"] == "draw":
        return (turn, "draw") if view["stock_size"] > 0 else None
    if view["seat"] == turn:
        return turn, f"discard {view['hand'][0]}"
    return None


def two_human_table(web: WebServer) -> Playing:
    """A started two-seat table, Ada and Bob both human (no bot: each move is one event)."""
    status, body = web.call("POST", "/api/tables", {"name": "Ada", "seats": [HUMAN, HUMAN]})
    assert status == 201, body
    table_id, ada = body["table"]["id"], body["token"]
    status, joined = web.call("POST", f"/api/tables/join/{body['invite']}", {"name": "Bob"})
    assert status == 200, joined
    status, started = web.call("POST", f"/api/tables/{table_id}/start", {}, ada)
    assert status == 200, started
    table = started["table"]
    return Playing(table_id, [ada, joined["token"]], table["seq"], next_move(table), 0.0)


def feed(stream: Stream, data: bytes, now: float, arrivals: list[Arrival]) -> None:
    """Take a stream's bytes: each message id is the table's seq after it; a new one is an
    arrival (several changes may come as one message)."""
    data = stream.tail + data
    for match in ID_LINE.finditer(data):
        seq = int(match.group(1))
        if seq > stream.last:
            if stream.last >= 0:
                arrivals.append((stream.index, seq, now))
            stream.last = seq
    stream.tail = data[max(data.rfind(b"\n"), len(data) - 32, 0) :]


def read_streams(
    streams: list[Stream], arrivals: list[Arrival], stop: Connection | None = None
) -> int:
    """Read every open stream through one selector (none backs up), until ``stop`` says so;
    without it, until every stream has had its first message. Returns how many closed."""
    selector = selectors.DefaultSelector()
    for stream in streams:
        selector.register(stream.sock, selectors.EVENT_READ, stream)
    closed = 0
    while True:
        if stop is None:
            if all(s.last >= 0 for s in streams):
                break
        elif stop.poll():
            break
        for key, _ in selector.select(timeout=0.2):
            stream = cast(Stream, key.data)
            try:
                data = stream.sock.recv(65536)
            except BlockingIOError:
                continue
            now = time.perf_counter()
            if not data:
                closed += 1
                selector.unregister(stream.sock)
                continue
            feed(stream, data, now, arrivals)
    selector.close()
    return closed


def reader(streams: list[Stream], pipe: Connection) -> None:
    """The stream reader's own process (forked): no thread of the driver can hold it up. It
    reads until the pipe says stop, then sends back every arrival and how many streams
    closed."""
    arrivals: list[Arrival] = []
    closed = read_streams(streams, arrivals, pipe)
    pipe.send((arrivals, closed))


def deliver(streams: list[Stream], arrivals: list[Arrival], state: LoadState) -> None:
    """Every move sent at a stream's table whose seq an arrival reaches was delivered to that
    stream then (the mover's own stream and the other seat's)."""
    for index, seq, now in arrivals:
        stream = streams[index]
        table = stream.table
        if table is not None:
            for done in range(stream.last + 1, seq + 1):
                sent = table.sent.get(done)
                if sent is not None:
                    state.latencies.append((now - sent) * 1000)
                    state.delivered.append((sent, (now - sent) * 1000))
                    at = state.published.get((table.table_id, done))
                    if at is not None:
                        state.to_publish.append((at - sent) * 1000)
                        state.from_publish.append((now - at) * 1000)
        stream.last = seq


def play(base: str, tables: list[Playing], start: float, end: float, state: LoadState) -> None:
    """One driver thread: its tables' moves, each table at ``start`` + k s + its offset, over
    one kept-alive connection to the API."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    due = [(start + t.offset, i) for i, t in enumerate(tables)]
    heapq.heapify(due)
    while due and not state.stop.is_set():
        at, i = heapq.heappop(due)
        if at >= end:
            break
        wait = at - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        else:
            state.behind.append(-wait)
        table = tables[i]
        if table.move is None:
            state.stuck += 1
            continue
        seat, move = table.move
        body = json.dumps({"move": move, "seq": table.seq})
        table.sent[table.seq + 1] = time.perf_counter()
        try:
            connection.request(
                "POST",
                f"/api/tables/{table.table_id}/moves",
                body,
                {
                    "Content-Type": "application/json",
                    "Authorization": f"Bearer {table.tokens[seat]}",
                },
            )
            response = connection.getresponse()
            answer = json.loads(response.read())
            state.answered.append((time.perf_counter() - table.sent[table.seq + 1]) * 1000)
        except (OSError, http.client.HTTPException) as e:
            table.sent.pop(table.seq + 1, None)
            state.errors.append(f"{type(e).__name__}: {e}")
            connection.close()
            connection = http.client.HTTPConnection(host, int(port), timeout=30)
            heapq.heappush(due, (at + 1, i))
            continue
        if response.status == 200:
            state.moved.append(time.perf_counter())
            table.seq = answer["table"]["seq"]
            table.move = next_move(answer["table"])
        else:
            table.sent.pop(table.seq + 1, None)
            state.rejected.append(f"{response.status} {answer.get('error', {}).get('code')}")
            status, fresh = json_call(
                urllib.request.build_opener(),
                base,
                "GET",
                f"/api/tables/{table.table_id}",
                None,
                table.tokens[0],
            )
            if status == 200:
                table.seq = fresh["table"]["seq"]
                table.move = next_move(fresh["table"])
        heapq.heappush(due, (at + 1, i))
    connection.close()


def listen_timers(
    redis_url: str,
    deadlines: dict[str, float],
    lateness: dict[str, float],
    state: LoadState,
) -> None:
    """How late each timer table's cut was published after its deadline (one pattern
    subscription on the tables' live channels, as in :func:`bench_timers`); for the playing
    tables, when each change's PUBLISH (its seq) arrived, to split a move's broadcast there."""
    listener = redis.Redis.from_url(redis_url).pubsub()
    listener.psubscribe("pd:{t:*}:live")
    while not state.stop.is_set():
        message = listener.get_message(timeout=0.2)
        if message is None or message["type"] != "pmessage":
            continue
        now, tick = time.time(), time.perf_counter()
        table_id = message["channel"].decode().split("{t:", 1)[1].split("}", 1)[0]
        if message["data"].isdigit():
            state.published.setdefault((table_id, int(message["data"])), tick)
        at = deadlines.get(table_id)
        if at is not None and table_id not in lateness and now > at - 15:
            lateness[table_id] = now - at
    listener.close()


def cpu_now(pids: dict[str, tuple[int, bool]]) -> dict[str, float]:
    return {name: cpu_seconds(pid, tree) for name, (pid, tree) in pids.items()}


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of sorted ``values`` (the nearest rank below)."""
    return values[int(q * (len(values) - 1))]


def spread(values: list[float]) -> str:
    """median / p99 / max of ``values`` (ms)."""
    if not values:
        return "none"
    ordered = sorted(values)
    return (
        f"{statistics.median(ordered):.1f} / {percentile(ordered, 0.99):.1f} / {ordered[-1]:.1f} ms"
    )


def windows(delivered: list[tuple[float, float]], start: float, width: float = 15) -> str:
    """The broadcast's p99 in each ``width`` s of the load (by when the move was sent): steady,
    or a backlog that grows."""
    by: dict[int, list[float]] = {}
    for sent, latency in delivered:
        by.setdefault(int((sent - start) // width), []).append(latency)
    return ", ".join(
        f"{k * width:.0f}–{(k + 1) * width:.0f} s: {percentile(sorted(v), 0.99):.0f} ms"
        for k, v in sorted(by.items())
    )


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine, every core (/proc/stat): what the
    other users of the shared box took beside our processes."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    total = sum(fields[:8]) / os.sysconf("SC_CLK_TCK")
    idle = (fields[3] + fields[4]) / os.sysconf("SC_CLK_TCK")
    return total - idle, total


def bench_load(
    web: WebServer,
    stream: WebServer,
    redis_url: str,
    pids: dict[str, tuple[int, bool]],
    streams: int,
    tables: int,
    timers: int,
    seconds: float,
    threads: int,
) -> dict[str, Any]:
    """``streams`` SSE streams open throughout while ``tables`` two-human tables each play a
    move a second (phases spread over the second) and ``timers`` tables wait on a 30 s turn
    timer that falls inside the load: each move's delivery to both seats' streams, the timers'
    lateness, the stream group's memory per stream, and every process's CPU."""
    port = int(stream.base.rsplit(":", 1)[1])
    playing = [two_human_table(web) for _ in range(tables)]
    for i, table in enumerate(playing):
        table.offset = i / tables  # a table's moves at start + k s + i/tables s
    idle_streams = max(0, streams - 2 * tables)
    idle = [
        new_table(web, [HUMAN, {"kind": "bot", "level": "beginner"}])
        for _ in range((idle_streams + 1) // 2)
    ]
    workers = stream_workers(stream)

    def rss() -> int:  # the stream group's workers together
        return sum(rss_kb(pid) for pid in workers)

    warm = (
        open_stream(port, *idle[0])
        if idle
        else open_stream(port, playing[0].table_id, playing[0].tokens[0])
    )
    read_until(warm, b"event: table")
    rss_before = rss()
    state = LoadState()
    opened: list[Stream] = []
    for table in playing:
        for token in table.tokens:
            sock = open_stream(port, table.table_id, token)
            opened.append(Stream(sock, table, len(opened)))
    for n in range(idle_streams):
        table_id, token = idle[n // 2]
        opened.append(Stream(open_stream(port, table_id, token), None, len(opened)))
    for s in opened:
        s.sock.setblocking(False)
    started = time.perf_counter()
    read_streams(opened, [])
    open_s = time.perf_counter() - started
    # forked before any thread of ours starts; perf_counter is CLOCK_MONOTONIC, one clock for both
    pipe, child_end = multiprocessing.get_context("fork").Pipe()
    reading = multiprocessing.get_context("fork").Process(target=reader, args=(opened, child_end))
    reading.start()
    pids["stream reader (forked driver)"] = (cast(int, reading.pid), False)
    time.sleep(2)
    rss_open = rss()
    deadlines: dict[str, float] = {}
    lateness: dict[str, float] = {}
    listener = threading.Thread(target=listen_timers, args=(redis_url, deadlines, lateness, state))
    listener.start()
    time.sleep(0.5)
    load_start = load_average()
    cpu_start = cpu_now(pids)
    machine_start = machine_cpu()
    wall_start = time.perf_counter()
    start = wall_start + 0.5
    end = start + seconds
    movers = [
        threading.Thread(target=play, args=(web.base, playing[k::threads], start, end, state))
        for k in range(threads)
    ]
    for mover in movers:
        mover.start()
    made = time.perf_counter()
    for _ in range(timers):
        status, body = web.call(
            "POST",
            "/api/tables",
            {
                "name": "Ada",
                "seats": [HUMAN, {"kind": "bot", "level": "beginner"}],
                "rules": {"turn_timer": 30},
            },
        )
        assert status == 201, body
        table_id = body["table"]["id"]
        status, body = web.call("POST", f"/api/tables/{table_id}/start", {}, body["token"])
        assert status == 200, body
        deadlines[table_id] = parse_deadline(body["table"]["deadline"])
    made_s = time.perf_counter() - made
    rss_samples = [rss_open]
    while time.perf_counter() < end:
        time.sleep(min(5.0, max(0.0, end - time.perf_counter())))
        rss_samples.append(rss())
    for mover in movers:
        mover.join()
    wall = time.perf_counter() - wall_start
    cpu_end = cpu_now(pids)
    machine_end = machine_cpu()
    load_end = load_average()
    time.sleep(3)  # the last moves' deliveries; late timers
    rss_load = rss()
    stop = time.time() + 60
    while len(lateness) < timers and time.time() < stop:
        time.sleep(0.5)
    state.stop.set()
    pipe.send("stop")
    arrivals, closed = cast(tuple[list[Arrival], int], pipe.recv())
    reading.join()
    listener.join()
    deliver(opened, arrivals, state)
    if closed:
        state.errors.append(f"{closed} streams closed")
    for s in [*opened]:
        s.sock.close()
    warm.close()
    latencies = sorted(state.latencies)
    late = sorted(lateness.values())
    behind = sorted(state.behind)
    return {
        "streams": len(opened),
        "playing": tables,
        "idle_tables": len(idle),
        "open_s": round(open_s, 2),
        "seconds": seconds,
        "threads": threads,
        "moves": len(state.moved),
        "moves_per_s": round(len(state.moved) / seconds, 1),
        "target_per_s": tables,
        "rejected": len(state.rejected),
        "rejected_kinds": sorted(set(state.rejected)),
        "errors": len(state.errors),
        "error_kinds": sorted(set(state.errors))[:5],
        "stuck": state.stuck,
        "late_sends": len(behind),
        "late_send_p99_ms": round(percentile(behind, 0.99) * 1000, 1) if behind else 0.0,
        "deliveries": len(latencies),
        "expected": 2 * len(state.moved),
        "median_ms": round(statistics.median(latencies), 1) if latencies else None,
        "p99_ms": round(percentile(latencies, 0.99), 1) if latencies else None,
        "max_ms": round(latencies[-1], 1) if latencies else None,
        "timers": timers,
        "timers_made_s": round(made_s, 1),
        "fired": len(late),
        "t_min_s": round(late[0], 2) if late else None,
        "t_median_s": round(statistics.median(late), 2) if late else None,
        "t_p99_s": round(percentile(late, 0.99), 2) if late else None,
        "t_max_s": round(late[-1], 2) if late else None,
        "rss_before_mb": round(rss_before / 1024, 1),
        "rss_open_mb": round(rss_open / 1024, 1),
        "rss_load_mb": round(max([*rss_samples, rss_load]) / 1024, 1),
        "kb_per_stream_open": round((rss_open - rss_before) / len(opened), 1),
        "kb_per_stream": round((max([*rss_samples, rss_load]) - rss_before) / len(opened), 1),
        "cpu": {k: round(100 * (cpu_end[k] - cpu_start[k]) / wall, 1) for k in cpu_start},
        "machine_busy": round(100 * (machine_end[0] - machine_start[0]) / wall, 1),
        "machine_cores": round((machine_end[1] - machine_start[1]) / wall, 1),
        "answered": spread(state.answered),
        "windows": windows(state.delivered, start),
        "to_publish": spread(state.to_publish),
        "from_publish": spread(state.from_publish),
        "load_start": load_start,
        "load_end": load_end,
    }


def idle_rows(streams: dict[str, Any], broadcast: dict[str, Any], timed: dict[bool, Any]) -> str:
    """The idle site's figures (``--idle``): streams opened and closed again, then one move at a
    time, then each worker's timers alone."""
    return (
        "| figure (idle site) | value |\n| --- | --- |\n"
        f"| open live streams on one gevent worker | {streams['streams']} (all answered in"
        f" {streams['open_s']} s) |\n"
        f"| stream worker RSS before → after | {streams['rss_before_mb']} MB →"
        f" {streams['rss_after_mb']} MB |\n"
        f"| memory per open stream | {streams['kb_per_stream']} KB |\n"
        f"| active tables (2 streaming humans + a bot each) | {broadcast['tables']}"
        f" ({broadcast['streams']} open streams) |\n"
        f"| a move's broadcast to both seats, one move at a time: median / p99 / max |"
        f" {broadcast['median_ms']} / {broadcast['p99_ms']} / {broadcast['max_ms']} ms"
        f" ({broadcast['deliveries']} deliveries) |\n"
        + "".join(
            f"| turn timers (30 s, nobody moves), {name}: fired | {t['fired']} of"
            f" {t['timers']} |\n"
            f"| {name}: lateness after the deadline, min / median / p99 / max |"
            f" {t['min_s']} / {t['median_s']} / {t['p99_s']} / {t['max_s']} s |\n"
            for name, t in (
                ("reference: stock `rq worker` (RQ's scheduler, 1 s tick)", timed[True]),
                ("ours: `worker.steady.SteadyWorker` (TimerScheduler, 0.1 s tick)", timed[False]),
            )
        )
    )


def met(value: float | None, goal: float) -> str:
    return "not measured" if value is None else ("**met**" if value <= goal else "**not met**")


def load_rows(r: dict[str, Any]) -> str:
    """The headline table: the live site under load, and the goals it is held to."""
    cpu = ", ".join(f"{name} {pct}%" for name, pct in r["cpu"].items())
    return (
        "| figure (live tables under load) | value |\n| --- | --- |\n"
        f"| open live streams, held throughout | {r['streams']} ({2 * r['playing']} on the"
        f" playing tables' seats, the rest two per idle table: {r['idle_tables']} idle tables;"
        f" all answered in {r['open_s']} s) |\n"
        f"| playing tables (two humans, no bot: the driver plays the seat to move) |"
        f" {r['playing']}, one move a second each, phases spread over the second |\n"
        f"| moves accepted in {r['seconds']} s ({r['threads']} driver threads, kept-alive"
        f" connections) | {r['moves']}: **{r['moves_per_s']} moves/s** of {r['target_per_s']}"
        " targeted |\n"
        f"| moves refused / failed / not playable (forced take) | {r['rejected']}"
        f" {r['rejected_kinds']} / {r['errors']} / {r['stuck']} |\n"
        f"| sends later than scheduled: count, p99 | {r['late_sends']},"
        f" {r['late_send_p99_ms']} ms |\n"
        f"| a move's broadcast to both seats' streams (POST sent → event read): median / p99"
        f" / max | **{r['median_ms']} / {r['p99_ms']} / {r['max_ms']} ms** ({r['deliveries']}"
        f" of {r['expected']} deliveries) |\n"
        f"| … split: POST sent → the move's PUBLISH seen (API, Redis) | {r['to_publish']} |\n"
        f"| … split: PUBLISH seen → read from the stream (stream group) | {r['from_publish']}"
        " |\n"
        f"| a move's POST sent → its answer read: median / p99 / max | {r['answered']} |\n"
        f"| broadcast p99 in each 15 s of the load (by when sent) | {r['windows']} |\n"
        f"| turn timers (30 s, nobody moves) made in the load's first {r['timers_made_s']} s:"
        f" fired | {r['fired']} of {r['timers']} |\n"
        f"| timer lateness after the deadline, min / median / p99 / max | {r['t_min_s']} /"
        f" {r['t_median_s']} / **{r['t_p99_s']}** / {r['t_max_s']} s |\n"
        f"| stream workers' RSS (together): before the streams → open → under load (max) |"
        f" {r['rss_before_mb']} → {r['rss_open_mb']} → {r['rss_load_mb']} MB |\n"
        f"| memory per open stream, under load (idle, just opened) | **{r['kb_per_stream']}"
        f" KB** ({r['kb_per_stream_open']} KB) |\n"
        f"| CPU during the load (100% = one core) | {cpu}; the whole machine"
        f" {r['machine_busy']}% of {r['machine_cores'] * 100:.0f}% (the rest of it is other"
        " users of the shared box) |\n"
        f"| load average at start → end (1, 5, 15 min) | {r['load_start']} →"
        f" {r['load_end']} |\n\n"
        "Goals: broadcast p99 ≤ 100 ms:"
        f" {met(r['p99_ms'], 100)}; timer lateness p99 ≤ 0.5 s: {met(r['t_p99_s'], 0.5)};"
        f" memory per stream ≤ 45 KB: {met(r['kb_per_stream'], 45)}. The targeted"
        f" {r['target_per_s']} moves a second were"
        f" {'reached' if r['moves_per_s'] >= 0.98 * r['target_per_s'] else '**not reached**'}"
        " (within 2%).\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--load-timers", type=int, default=100, help="timer tables in the load")
    parser.add_argument("--seconds", type=float, default=60, help="the load's length (≥ 40)")
    parser.add_argument("--threads", type=int, default=12, help="the driver's move threads")
    parser.add_argument("--idle", action="store_true", help="also the idle site's figures")
    parser.add_argument(
        "--processes",
        default=None,
        help="WEB_CONCURRENCY: the API's workers (default: as deployed)",
    )
    parser.add_argument(
        "--web-threads", default=None, help="PIKDAME_THREADS: each API worker's (as deployed)"
    )
    parser.add_argument(
        "--stream-processes",
        default=None,
        help="PIKDAME_STREAM_PROCESSES: the stream workers (default: as deployed)",
    )
    parser.add_argument(
        "--stream-weight",
        type=int,
        default=None,
        help="CPUWeight= of the stream group, each role in a control group of its own as systemd"
        " runs the units (bench/cgroups.py; the others at 100). Default: no groups, as before"
        " any unit set a weight",
    )
    parser.add_argument(
        "--busy",
        type=int,
        default=0,
        help="processes replaying zen rounds throughout: the engine's work of as many"
        " verification workers at the reset hour (each a core's worth), in their own groups",
    )
    parser.add_argument("--timers", type=int, default=40, help="timer tables of --idle")
    args = parser.parse_args(argv)
    if args.stream_weight is not None and not cgroups.available():
        parser.error("--stream-weight needs root and the cpu controller (bench/cgroups.py)")
    logs = Path(tempfile.mkdtemp(prefix="bench-tables-"))
    server = start_redis()
    env = service_env(
        server.url,
        "b" * 64,
        PIKDAME_STREAM_CONNECTIONS="4000",
        PIKDAME_STREAM_SECONDS="3600",
        PIKDAME_LIMIT_TABLE_MOVES="1000 per second",
        PIKDAME_LIMIT_TABLE_ADDRESS="100000 per second",
        PIKDAME_STREAMS_PER_ADDRESS="0",  # every stream comes from this one address
    )
    given_or_default(env, "PIKDAME_THREADS", args.web_threads)
    web = start_web(env, logs / "web.log", args.processes)
    stream = start_stream(env, logs / "stream.log", args.stream_processes)
    given = {"WEB_CONCURRENCY": args.processes, "PIKDAME_THREADS": args.web_threads}
    shape = config.load({name: value for name, value in given.items() if value is not None})
    api_shape = f"{shape.web_processes} workers × {shape.web_threads} threads"
    stream_count = len(stream_workers(stream))
    timed: dict[bool, Any] = {}
    groups = None
    busy = [spawn([sys.executable, "-c", BUSY], env, logs / f"z{n}.log") for n in range(args.busy)]
    try:
        worker = timer_worker(env, logs / "worker-load.log", stock=False)
        assert server.process is not None
        if args.stream_weight is not None:
            groups = cgroups.Groups(f"pikdame-bench-{os.getpid()}")
            groups.add("stream", [stream.process.popen.pid], args.stream_weight)
            groups.add("web", [web.process.popen.pid])
            groups.add("redis", [server.process.pid])
            groups.add("worker", [worker.popen.pid])
            groups.add("players", [os.getpid()])  # the driver and its forked reader
            for n, each in enumerate(busy):  # pikdame-worker@N: a unit, a group, each
                groups.add(f"busy-{n}", [each.popen.pid])
        pids = {
            f"stream group ({stream_count} gevent workers)": (stream.process.popen.pid, True),
            f"API gunicorn ({api_shape})": (web.process.popen.pid, True),
            "redis-server": (server.process.pid, False),
            "rq worker": (worker.popen.pid, True),
            "driver (this process)": (os.getpid(), False),
        }
        for n, each in enumerate(busy):
            pids[f"zen replays {n + 1} (standing for a verifying worker)"] = (each.popen.pid, False)
        try:
            load = bench_load(
                web,
                stream,
                server.url,
                pids,
                args.streams,
                args.tables,
                args.load_timers,
                args.seconds,
                args.threads,
            )
        finally:
            worker.stop()
            for each in busy:  # the idle site's figures are an idle site's
                each.kill()
        if args.idle:
            streams = bench_streams(web, stream, args.streams)
            broadcast = bench_broadcast(web, stream, args.tables)
            for stock in (True, False):  # the reference first, then ours, one at a time
                worker = timer_worker(env, logs / f"worker-{stock}.log", stock)
                try:
                    timed[stock] = bench_timers(web, server.url, args.timers)
                finally:
                    worker.stop()
    finally:
        for each in busy:
            each.kill()
        stream.process.stop()
        web.process.stop()
        server.close()
        if groups is not None:
            groups.close()
    command = "python -m bench.bench_tables " + " ".join(sys.argv[1:] if argv is None else argv)
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    text = (
        "## Tables\n\n"
        f"`{command.strip()}` — {when}. redis-server, gunicorn gthread (API, {api_shape}),"
        f" gunicorn gevent (streams, {stream_count} worker{'s' if stream_count > 1 else ''}"
        f"{', as deployed' if args.stream_processes is None else ''}),"
        + (
            f" each role in a CPU control group of its own, the stream group's weight"
            f" {args.stream_weight} against 100 (systemd's CPUWeight=),"
            if args.stream_weight is not None
            else ""
        )
        + " our `rq worker --with-scheduler` (`worker_args()`: SteadyWorker, TimerScheduler)"
        " running throughout, all on the 2-core machine with the driver"
        + (
            f" and {args.busy} process{'es' if args.busy > 1 else ''} replaying zen rounds"
            " (the engine's work of a verifying worker at the reset hour)"
            if args.busy
            else ""
        )
        + ".\n\n### Live tables under load (headline)\n\n"
        + load_rows(load)
    )
    if args.idle:
        text += (
            "\n### The idle site (secondary: streams closed before the broadcast, one move at a"
            " time, timers alone)\n\n" + idle_rows(streams, broadcast, timed)
        )
    RESULT.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
