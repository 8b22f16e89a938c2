"""The whole stack for browser tests, for real: the Flask app under werkzeug's threaded server on
a free port (its clock settable by the test), Debian's nginx with the shipped site in front of it
(tests/support/front.py: the pages, the API and the tables' streams all pass deploy/nginx's
locations and micro-cache, as deployed), and a stock ``rq worker`` subprocess verifying the
finished games from the same Redis. The browser and the tests' own requests go to the front
(``base_url``); ``app_url`` is the app itself."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import struct
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
from tests.support.front import Front, start_front
from tests.support.servers import end, free_port

ROOT = Path(__file__).resolve().parents[2]
SECRET = "browser-test-secret"
QUEUE = "verify-browser"


class QuietHandler(WSGIRequestHandler):
    """No access line per request (the app writes its own JSON access log)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return


# the second field of an nginx cache file's header (ngx_http_file_cache_header_t: version,
# then valid_sec, the moment the entry stops being fresh)
VALID_SEC = struct.Struct("=q")
VALID_SEC_AT = 8
CACHE_FILE = re.compile(r"[0-9a-f]{32}")


def age_cache(directory: Path) -> None:
    """Every entry of the front's micro-cache at ``directory`` made long past its lifetime, as
    after the hours or days a test's clock jumps (its file's valid_sec set to the epoch's first
    second, in place: nginx rereads the header on each hit, through the descriptor
    open_file_cache may keep). What nginx then does with it is the shipped site's own rule."""
    for entry in directory.rglob("*"):
        if CACHE_FILE.fullmatch(entry.name):
            with contextlib.suppress(OSError), entry.open("r+b") as file:
                file.seek(VALID_SEC_AT)
                file.write(VALID_SEC.pack(1))


@dataclass
class FrontClock(Clock):
    """The stack's clock. A move of it is the front's micro-cache growing old (its entries live
    a second, service/web/caching.py): a test that jumps to another day has let many seconds pass
    for what the front kept before the jump."""

    cache: Path | None = None

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        cache = getattr(self, "cache", None)  # None while the dataclass sets its fields
        if name == "moment" and cache is not None:
            age_cache(cache)


@dataclass
class Stack:
    base_url: str  # the nginx front
    redis_url: str
    clock: Clock
    server: BaseWSGIServer
    thread: threading.Thread
    worker: subprocess.Popen[bytes]
    worker_log: Path
    front: Front
    app_url: str  # the app behind the front
    analysis_worker: subprocess.Popen[bytes] | None = None  # the analyses' queue alone
    bots_worker: subprocess.Popen[bytes] | None = None  # the bots' queue alone (the Meister)

    def close(self) -> None:
        self.front.stop()
        self.server.shutdown()
        self.thread.join(timeout=10)
        end(self.worker)
        for other in (self.analysis_worker, self.bots_worker):
            if other is not None:
                end(other)


def start_worker(
    redis_url: str, log: Path, settings: str = "worker.settings"
) -> subprocess.Popen[bytes]:
    """An rq worker with ``settings``' queues: worker.settings (turn timers, verifications),
    worker.analysis_settings (the analyses, docs/ANALYSIS.md) or worker.bots_settings (the bots
    that move off the request, docs/TABLES.md)."""
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
    args = [str(rq), "worker", "-c", settings, "--serializer", "json", "--url", redis_url]
    with log.open("wb") as out:
        worker = subprocess.Popen(args, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + 30
    before = len(list(client.scan_iter("rq:worker:*")))
    while len(list(client.scan_iter("rq:worker:*"))) <= before:
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
    clock = FrontClock()
    port = free_port()
    # nginx first: the app's origin (passkeys) is the front's port; until the app listens,
    # nginx answers its own 502, which start_front takes for a started nginx
    front = start_front(f"127.0.0.1:{port}")
    clock.cache = front.directory / "cache"
    try:
        return _behind(front, clock, port, redis_url, artifacts)
    except BaseException:
        front.stop()
        raise


def _behind(front: Front, clock: Clock, port: int, redis_url: str, artifacts: Path) -> Stack:
    """The app on ``port`` and the rq worker, behind the running ``front``."""
    front_port = front.base.rsplit(":", 1)[1]
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_NOW": clock,
            "PIKDAME_QUEUE": QUEUE,
            "PIKDAME_LIMIT_ATTEMPTS": "1000 per hour",
            # passkeys need a domain (not an IP) as relying party: pages open on localhost
            "PIKDAME_RP_ID": "localhost",
            "PIKDAME_ORIGINS": f"http://localhost:{front_port}",
            # as deployed: the app believes nginx's X-Forwarded-* and leaves the security
            # headers and the request id to it (service/web/proxies.py)
            "PIKDAME_PROXIES": "127.0.0.1",
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
    analysis = start_worker(redis_url, artifacts / "rq-analysis.log", "worker.analysis_settings")
    bots = start_worker(redis_url, artifacts / "rq-bots.log", "worker.bots_settings")
    app_url = f"http://127.0.0.1:{port}"
    return Stack(
        front.base, redis_url, clock, server, thread, worker, log, front, app_url, analysis, bots
    )
