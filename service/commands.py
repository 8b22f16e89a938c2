"""The command lines of the processes we run: one definition for the ``pikdame`` CLI, ``make run``
and the integration tests, so that the tests start exactly what deploy/ runs."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
STREAM_CONF = ROOT / "deploy" / "gunicorn_stream.conf.py"


def gunicorn_args(bind: str | None = None) -> list[str]:
    """gunicorn with deploy/gunicorn.conf.py serving ``service.wsgi:app``."""
    args = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF)]
    if bind:
        args += ["--bind", bind]
    return [*args, "service.wsgi:app"]


def stream_args(bind: str | None = None) -> list[str]:
    """gunicorn with deploy/gunicorn_stream.conf.py (gevent): the tables' live streams."""
    args = [sys.executable, "-m", "gunicorn", "-c", str(STREAM_CONF)]
    if bind:
        args += ["--bind", bind]
    return [*args, "service.wsgi:app"]


# An idle worker blocks on the queue for WORKER_TTL - 15 s between maintenance ticks; every
# tick runs the reconciler for lost jobs (worker.steady), so a short tick bounds how long a job
# lost with a killed worker waits once another worker runs.
WORKER_TTL_S = 35
MAINTENANCE_S = 15


def worker_args(burst: bool = False) -> list[str]:
    """``rq worker`` with our worker class (worker.steady: rides out Redis outages, requeues
    lost jobs) on the verification queue (JSON jobs; the scheduler runs the delayed retries);
    ``worker.settings`` imports the engine before the fork."""
    rq = str(Path(sys.executable).with_name("rq"))
    args = [
        rq,
        "worker",
        "-c",
        "worker.settings",
        "-w",
        "worker.steady.SteadyWorker",
        "--serializer",
        "json",
        "--with-scheduler",
        "--worker-ttl",
        str(WORKER_TTL_S),
        "--maintenance-interval",
        str(MAINTENANCE_S),
    ]
    return [*args, "--burst"] if burst else args
