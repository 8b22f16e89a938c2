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


def _rq_worker(settings: str, worker_class: str, burst: bool, *extra: str) -> list[str]:
    """``rq worker`` of this interpreter with a settings module and worker class of ours, JSON
    jobs, our heartbeat and maintenance tick, ``extra`` options, once (``burst``) or for good."""
    rq = str(Path(sys.executable).with_name("rq"))
    args = [
        rq,
        "worker",
        "-c",
        settings,
        "-w",
        worker_class,
        "--serializer",
        "json",
        *extra,
        "--worker-ttl",
        str(WORKER_TTL_S),
        "--maintenance-interval",
        str(MAINTENANCE_S),
    ]
    return [*args, "--burst"] if burst else args


def worker_args(burst: bool = False) -> list[str]:
    """``rq worker`` with our worker class (worker.steady: rides out Redis outages, requeues
    lost jobs) on the turn timers' and the verification's queues (JSON jobs; the scheduler runs
    the delayed retries and the timers); ``worker.settings`` imports the engine before the fork.
    Never the analyses' queue: :func:`analysis_worker_args`."""
    return _rq_worker("worker.settings", "worker.steady.SteadyWorker", burst, "--with-scheduler")


#: Seconds between two heartbeats of a busy analysis worker (RQ's job monitoring interval): a
#: running analysis' execution is never older than this plus a minute (worker.analysis).
ANALYSIS_BEAT_S = 5


def analysis_worker_args(burst: bool = False, beat_s: int = ANALYSIS_BEAT_S) -> list[str]:
    """``rq worker`` with worker.analysis.AnalysisWorker on the analyses' queue alone
    (worker.analysis_settings): a work horse per job, beaten for every ``beat_s``; no
    scheduler."""
    return _rq_worker(
        "worker.analysis_settings",
        "worker.analysis.AnalysisWorker",
        burst,
        "--job-monitoring-interval",
        str(beat_s),
    )


def bots_worker_args(burst: bool = False) -> list[str]:
    """``rq worker`` with worker.bots.BotWorker on the bots' queue alone (worker.bots_settings):
    the table bots that move off the request (the Meister); no scheduler."""
    return _rq_worker("worker.bots_settings", "worker.bots.BotWorker", burst)
