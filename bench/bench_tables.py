"""Tables under load: open live streams and their memory, a move's broadcast latency
at many active tables, and the turn timer's lateness. Writes bench/results/tables.md.

    .venv/bin/python -m bench.bench_tables [--streams 1000] [--tables 200] [--timers 40]

Real parts: redis-server, the API's gunicorn (gthread), the streams' gunicorn (gevent, one
worker, so its memory per connection is read from one process), ``rq worker --with-scheduler``
as deploy/ runs it, beside the same command with RQ's stock worker class (the reference for the
timer). No figure here is asserted by any test.
"""

from __future__ import annotations

import argparse
import http.client
import json
import selectors
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import redis

from service.commands import worker_args
from tests.support.processes import (
    Process,
    WebServer,
    descendants,
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
        "p99_ms": round(latencies[int(0.99 * (len(latencies) - 1))], 1),
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
        "p99_s": round(values[int(0.99 * (len(values) - 1))], 2) if values else None,
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--timers", type=int, default=40)
    args = parser.parse_args(argv)
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
    web = start_web(env, logs / "web.log")
    stream = start_stream({**env, "WEB_CONCURRENCY": "2"}, logs / "stream.log")
    try:
        streams = bench_streams(web, stream, args.streams)
        broadcast = bench_broadcast(web, stream, args.tables)
        timed = {}
        for stock in (True, False):  # the reference first, then ours, one at a time
            worker = timer_worker(env, logs / f"worker-{stock}.log", stock)
            try:
                timed[stock] = bench_timers(web, server.url, args.timers)
            finally:
                worker.stop()
    finally:
        stream.process.stop()
        web.process.stop()
        server.close()
    command = "python -m bench.bench_tables " + " ".join(sys.argv[1:] if argv is None else argv)
    RESULT.write_text(
        "## Tables\n\n"
        f"`{command.strip()}` — redis-server, gunicorn gthread (API), gunicorn gevent (streams,"
        " one worker), one `rq worker --with-scheduler` (RQ's stock worker class, then ours),"
        " all on the 2-core machine with the client.\n\n"
        "| figure | value |\n| --- | --- |\n"
        f"| open live streams on one gevent worker | {streams['streams']} (all answered in"
        f" {streams['open_s']} s) |\n"
        f"| stream worker RSS before → after | {streams['rss_before_mb']} MB →"
        f" {streams['rss_after_mb']} MB |\n"
        f"| memory per open stream | {streams['kb_per_stream']} KB |\n"
        f"| active tables (2 streaming humans + a bot each) | {broadcast['tables']}"
        f" ({broadcast['streams']} open streams) |\n"
        f"| a move's broadcast to both seats: median / p99 / max | {broadcast['median_ms']} /"
        f" {broadcast['p99_ms']} / {broadcast['max_ms']} ms ({broadcast['deliveries']}"
        " deliveries) |\n"
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
    print(RESULT.read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
