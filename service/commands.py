"""The command lines of the processes we run: one definition for the ``pikdame`` CLI, ``make run``
and the integration tests, so that the tests start exactly what deploy/ runs."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"


def gunicorn_args(bind: str | None = None) -> list[str]:
    """gunicorn with deploy/gunicorn.conf.py serving ``service.wsgi:app``."""
    args = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF)]
    if bind:
        args += ["--bind", bind]
    return [*args, "service.wsgi:app"]


def worker_args(burst: bool = False) -> list[str]:
    """The stock ``rq worker`` on the verification queue (JSON jobs; the scheduler runs the
    delayed retries); ``worker.settings`` imports the engine before the fork."""
    rq = str(Path(sys.executable).with_name("rq"))
    args = [rq, "worker", "-c", "worker.settings", "--serializer", "json", "--with-scheduler"]
    return [*args, "--burst"] if burst else args
