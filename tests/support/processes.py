"""Real processes for integration tests: gunicorn serving the app, stock ``rq worker``s."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from service.commands import (
    ANALYSIS_BEAT_S,
    analysis_worker_args,
    bots_worker_args,
    gunicorn_args,
    stream_args,
    worker_args,
)
from tests.support.servers import free_port, role_urls

ROOT = Path(__file__).resolve().parents[2]


def service_env(redis_url: str, secret: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "REDIS_URL": redis_url,
            **role_urls(redis_url),
            "PIKDAME_SECRET": secret,
            "PIKDAME_LIMITS_ENABLED": "0",
            "PYTHONPATH": str(ROOT),
            **extra,
        }
    )
    return env


@dataclass
class Process:
    """A child process in its own process group (so a kill takes its forks too)."""

    popen: subprocess.Popen[bytes]

    def kill(self) -> None:
        """SIGKILL the process and every descendant (an RQ work horse runs in its own session,
        so a group kill would miss it): they die mid-job, like a machine losing power."""
        for pid in [*descendants(self.popen.pid), self.popen.pid]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (Linux /proc), children first."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def spawn(args: list[str], env: dict[str, str], log: Path) -> Process:
    with log.open("ab") as out:
        popen = subprocess.Popen(
            args, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    return Process(popen)


def start_worker(env: dict[str, str], log: Path, burst: bool = False) -> Process:
    """The steady ``rq worker`` command (turn timers, verifications), exactly as deploy/ runs
    it."""
    args = worker_args(burst)
    return spawn(args, env, log)


def start_analysis_worker(
    env: dict[str, str], log: Path, burst: bool = False, beat_s: int = ANALYSIS_BEAT_S
) -> Process:
    """The analysis worker (the analyses' queue alone), exactly as deploy/ runs it; ``beat_s``:
    its heartbeat while busy."""
    return spawn(analysis_worker_args(burst, beat_s), env, log)


def start_bots_worker(env: dict[str, str], log: Path, burst: bool = False) -> Process:
    """The bots worker (the bots' queue alone: the Meister's moves), exactly as deploy/ runs
    it."""
    return spawn(bots_worker_args(burst), env, log)


def json_call(
    opener: urllib.request.OpenerDirector,
    base: str,
    method: str,
    path: str,
    body: dict[str, Any] | None,
    token: str | None = None,
) -> tuple[int, Any]:
    """``method path`` with a JSON body (and a bearer ``token``) through ``opener``: the status
    and the JSON answer, an error's too."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@dataclass
class WebServer:
    process: Process
    base: str

    def call(
        self, method: str, path: str, body: dict[str, Any] | None, token: str | None = None
    ) -> tuple[int, Any]:
        return json_call(urllib.request.build_opener(), self.base, method, path, body, token)


def _serve(args: list[str], env: dict[str, str], port: int, log: Path, wait: float) -> WebServer:
    """Spawn a gunicorn and wait until its /healthz answers."""
    server = WebServer(spawn(args, env, log), f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            if server.call("GET", "/healthz", None)[0] == 200:
                return server
        except OSError:
            pass
        if server.process.popen.poll() is not None:
            break
        time.sleep(0.1)
    server.process.stop()
    raise RuntimeError(f"gunicorn ({args[-2]}) did not start; see {log}")


def given_or_default(env: dict[str, str], name: str, value: str | None) -> None:
    """The variable ``name`` as given, or unset (the configuration's default) for None."""
    if value is None:
        env.pop(name, None)
    else:
        env[name] = value


def start_web(env: dict[str, str], log: Path, processes: str | None = "2") -> WebServer:
    """gunicorn with deploy/gunicorn.conf.py on a free port; waits for /healthz. ``processes``
    is WEB_CONCURRENCY (None: as deployed, the configuration's default for this machine)."""
    port = free_port()
    env = {**env, "PIKDAME_BIND": f"127.0.0.1:{port}"}
    given_or_default(env, "WEB_CONCURRENCY", processes)
    return _serve(gunicorn_args(), env, port, log, 30)


# The secret of the service tests' gunicorn (the ``web`` fixture of tests/service/conftest.py):
# a test that recomputes the day's seed or the par uses it too.
WEB_SECRET = "web-flow-secret"


@contextlib.contextmanager
def running_web(redis_url: str, log: Path, secret: str = WEB_SECRET) -> Iterator[WebServer]:
    """gunicorn on the given Redis (:func:`start_web`), stopped when the block ends."""
    server = start_web(service_env(redis_url, secret), log)
    try:
        yield server
    finally:
        server.process.stop()


def start_stream(env: dict[str, str], log: Path, processes: str | None = "1") -> WebServer:
    """The tables' stream group: gunicorn with deploy/gunicorn_stream.conf.py (gevent) on a free
    port, exactly as deploy/ runs it; waits for /healthz. ``processes`` is
    PIKDAME_STREAM_PROCESSES (None: as deployed, one per core)."""
    port = free_port()
    env = {**env, "PIKDAME_STREAM_BIND": f"127.0.0.1:{port}"}
    given_or_default(env, "PIKDAME_STREAM_PROCESSES", processes)
    return _serve(stream_args(), env, port, log, 60)


def wait_for(predicate: Any, timeout: float = 30, interval: float = 0.05) -> Any:
    """Poll until ``predicate()`` is truthy; returns its value (fails the test on timeout)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("timed out waiting")


def idle_in_dequeue(queue_db: Any) -> bool:
    """An ``rq worker`` blocks on its queues (a text client of the queue's Redis): BLMOVE into
    the intermediate queue when it listens on one queue, BLPOP when on several (the verification
    and the tables' timer queue)."""
    return any(c.get("cmd") in ("blmove", "blpop") for c in queue_db.client_list())


def pikdame(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """The operator command ``pikdame ARGS`` run as a process."""
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
