"""``make run`` for tests: ``python -m service.run`` in its own session, its state in ``var``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.processes import ROOT, Process, WebServer
from tests.support.servers import free_port


def launch(var: Path, web_port: int, redis_port: int, log: Path) -> Process:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PIKDAME_SECRET")}
    env |= {
        "PIKDAME_VAR": str(var),
        "PIKDAME_BIND": f"127.0.0.1:{web_port}",
        # the tables' stream group (gevent) on a port of its own, never a fixed one
        "PIKDAME_STREAM_BIND": f"127.0.0.1:{free_port()}",
        "PIKDAME_REDIS_PORT": str(redis_port),
        "WEB_CONCURRENCY": "1",
        "PIKDAME_STREAM_PROCESSES": "1",
        "PYTHONPATH": str(ROOT),
    }
    with log.open("ab") as out:
        popen = subprocess.Popen(
            [sys.executable, "-m", "service.run"],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return Process(popen)


def healthy(web: WebServer) -> bool:
    try:
        return web.call("GET", "/healthz", None)[0] == 200
    except OSError:
        return False
