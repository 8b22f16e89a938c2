"""The whole stack for browser tests, for real: the Flask app under werkzeug's threaded server on
a free port (its clock settable by the test), and a stock ``rq worker`` subprocess verifying the
finished games from the same Redis."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import redis
from flask import Flask
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from service.app import create_app
from tests.support.clock import Clock
from tests.support.servers import end, free_port

ROOT = Path(__file__).resolve().parents[2]
SECRET = "browser-test-secret"
QUEUE = "verify-browser"


class QuietHandler(WSGIRequestHandler):
    """No access line per request (the app writes its own JSON access log)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return


@dataclass
class Stack:
    base_url: str
    redis_url: str
    clock: Clock
    server: BaseWSGIServer
    thread: threading.Thread
    worker: subprocess.Popen[bytes]
    worker_log: Path

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)
        end(self.worker)


def start_worker(redis_url: str, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.update(
        {
            "REDIS_URL": redis_url,
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_QUEUE": QUEUE,
            "PYTHONPATH": str(ROOT),
        }
    )
    rq = Path(sys.executable).parent / "rq"
    args = [str(rq), "worker", "-c", "worker.settings", "--serializer", "json", "--url", redis_url]
    with log.open("wb") as out:
        worker = subprocess.Popen(args, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + 30
    while not any(key.startswith(b"rq:worker:") for key in client.scan_iter("rq:worker:*")):
        if worker.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"rq worker did not start: {log.read_text()[-2000:]}")
        time.sleep(0.1)
    client.close()
    return worker


@contextlib.contextmanager
def settings_changed(stack: Stack, **changes: Any) -> Iterator[None]:
    """The stack's app with some settings changed for the block (e.g. ``rank_anonymous=False``,
    the default deployment, while the stack ranks anonymous play like tests/conftest.py says)."""
    app = cast(Flask, stack.server.app)
    before = app.config["SETTINGS"]
    app.config["SETTINGS"] = dataclasses.replace(before, **changes)
    try:
        yield
    finally:
        app.config["SETTINGS"] = before


def start_stack(redis_url: str, artifacts: Path) -> Stack:
    clock = Clock()
    port = free_port()
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_NOW": clock,
            "PIKDAME_QUEUE": QUEUE,
            "PIKDAME_LIMIT_ATTEMPTS": "1000 per hour",
            # passkeys need a domain (not an IP) as relying party: pages open on localhost
            "PIKDAME_RP_ID": "localhost",
            "PIKDAME_ORIGINS": f"http://localhost:{port}",
            "PIKDAME_LIMIT_TABLES": "1000 per hour",
            "PIKDAME_LIMIT_JOINS": "1000 per hour",
            "PIKDAME_LIMIT_TABLE_MOVES": "1000 per second",
            "PIKDAME_LIMIT_TABLE_ADDRESS": "10000 per second",
            # streams end and resume often: every browser test exercises the resume by seq
            "PIKDAME_STREAM_SECONDS": "4",
            "PIKDAME_HEARTBEAT_SECONDS": "1",
        }
    )
    server = make_server("127.0.0.1", port, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    log = artifacts / "rq-worker.log"
    worker = start_worker(redis_url, log)
    return Stack(f"http://127.0.0.1:{port}", redis_url, clock, server, thread, worker, log)
