"""Processes that survive a Redis blip, and ``make run``'s supervisor.

A real redis-server is stopped for about four seconds while a real worker is busy and while it is
idle; ``python -m service.run`` has its children SIGKILLed and is stopped with SIGTERM.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
import redis
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from service.common import keys
from service.dailies.queue import queue
from tests.support.api import resign_at_once
from tests.support.launcher import healthy, launch
from tests.support.processes import WebServer, descendants, service_env, start_worker, wait_for
from tests.support.servers import free_port, one_server, start_redis
from tests.support.service_app import SECRET, Clock, make_app

# own_servers: every server started here, every role placed here (make test-roles skips them)
pytestmark = [pytest.mark.integration, pytest.mark.own_servers]

OUTAGE_S = 4


def verdict(url: str, aid: str) -> str | None:
    client: redis.Redis[str] = redis.Redis.from_url(url, decode_responses=True)
    try:
        return client.hget(keys.attempt(aid), "verification")
    finally:
        client.close()


def test_a_worker_rides_out_redis_outages_busy_and_idle(clock: Clock, tmp_path: Path) -> None:
    server = start_redis(appendonly=True, directory=tmp_path)
    worker = None
    try:
        app = make_app(server.url, clock, **one_server(server.url))  # its outage is the subject
        env = service_env(server.url, SECRET.decode(), **one_server(server.url))
        worker = start_worker(env, tmp_path / "worker.log")
        # Busy: a job that sleeps through the outage (its end cannot be recorded).
        q = queue(server.url, "verify")
        busy = q.enqueue_call("time.sleep", args=(2,), job_id="sleeper")

        def started() -> bool:
            return busy.get_status(refresh=True) == JobStatus.STARTED

        wait_for(started, timeout=60)
        for name in ("Ada", "Bob"):  # busy with the sleeper, then idle waiting for work
            server.stop()
            time.sleep(OUTAGE_S)
            assert worker.popen.poll() is None
            server.start()
            aid, _ = resign_at_once(app.test_client(), clock.today, name)
            wait_for(lambda a=aid: verdict(server.url, a) == "verified", timeout=60, interval=0.2)
        assert worker.popen.poll() is None
        # The sleeper whose end was lost is not left "started" for good: it is failed (RQ's retry,
        # or for a verification the reconciler, runs it again).
        job = Job.fetch("sleeper", connection=q.connection, serializer=JSONSerializer)
        ended = (JobStatus.FINISHED, JobStatus.FAILED)
        wait_for(lambda: job.get_status(refresh=True) in ended, timeout=60)
    finally:
        if worker is not None:
            worker.stop()
        server.close()


def children_of(pid: int) -> dict[str, int]:
    """The supervisor's direct children by role (redis, web, stream, worker, analysis)."""
    found: dict[str, int] = {}
    for child in descendants(pid):
        try:
            stat = Path(f"/proc/{child}/stat").read_text()
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) != pid:
            continue
        for role, marker in (
            ("redis", "redis-server"),
            ("web", "gunicorn.conf"),
            ("stream", "gunicorn_stream.conf"),
            ("worker", "worker.settings "),
            ("analysis", "worker.analysis_settings "),
        ):
            if marker in cmdline:
                found[role] = child
    return found


def test_make_run_restarts_a_killed_child_and_stops_cleanly(tmp_path: Path) -> None:
    web_port = free_port()
    log = tmp_path / "run.log"
    process = launch(tmp_path / "var", web_port, free_port(), log)
    web = WebServer(process, f"http://127.0.0.1:{web_port}")
    try:
        wait_for(lambda: healthy(web), timeout=60, interval=0.2)
        pid = process.popen.pid
        wait_for(lambda: len(children_of(pid)) == 5, timeout=30)
        first = children_of(pid)
        os.kill(first["worker"], signal.SIGKILL)
        wait_for(lambda: children_of(pid).get("worker") not in (None, first["worker"]), timeout=60)
        assert healthy(web)
        assert children_of(pid)["web"] == first["web"]  # the web was never stopped
        os.kill(first["web"], signal.SIGKILL)
        wait_for(lambda: children_of(pid).get("web") not in (None, first["web"]), timeout=60)
        wait_for(lambda: healthy(web), timeout=60, interval=0.2)
        assert process.popen.poll() is None
        everything = descendants(pid)
    finally:
        if process.popen.poll() is None:
            os.killpg(process.popen.pid, signal.SIGTERM)  # what a service manager sends
            process.popen.wait(timeout=90)
    assert process.popen.returncode == 0
    assert all(not Path(f"/proc/{p}").exists() for p in everything)
    output = log.read_text()
    assert "Traceback" not in output, output
    assert "worker: exited" in output and "web: exited" in output
