"""A finished daily attempt's analysis (docs/ANALYSIS.md): one RQ job per (attempt, round or
hand, mode, engine version) on the analyses' own queue (service.common.analysis_queue), so the
reset hour's verification never waits behind them, and its document cached in Redis per record
and engine version. A daily Pik Dame record has one round; a Gin daily match has its hands
(``part`` 1, 2 …, as many as the adapter's ``daily_parts``).

The job (worker.jobs.analyse_attempt) replays the record with the day's seed inside the worker;
the ``view`` document holds only what seat 0 saw (no seed, no hidden card), the ``deal`` one is
asked for only once the day has closed (service.dailies.api_attempts checks).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

import redis
from rq import Queue

from service.common import analysis_queue, keys
from service.common.analysis_queue import Asked, queue_on
from service.common.config import Settings
from service.dailies import store
from service.errors import AttemptNotFinished

__all__ = ["CACHE_S", "JOB_PATH", "MODES", "cached", "compute", "enqueue", "job_id", "queue_on"]

JOB_PATH: Final = "worker.jobs.analyse_attempt"
MODES: Final = ("view", "deal")
CACHE_S: Final = 7 * 86400  # as long as the attempt's records are kept live


def job_id(attempt_id: str, mode: str, engine: str, part: int = 1) -> str:
    """Deterministic per (attempt, mode, engine version, part); part 1's id as it always was."""
    base = analysis_queue.safe_id("analyse", attempt_id, mode, engine)
    return base if part == 1 else f"{base}-p{part}"


def cached(
    client: redis.Redis[str], attempt: store.Attempt, mode: str, part: int = 1
) -> str | None:
    """The attempt's analysis document in ``mode`` as JSON text, or None while not computed."""
    return client.get(keys.analysis(attempt.id, mode, attempt.daily.engine_version, part))


def enqueue(
    q: Queue,
    attempt: store.Attempt,
    mode: str,
    part: int = 1,
    admit: Callable[[], None] | None = None,
) -> Asked:
    """Queue the attempt's analysis in ``mode`` once: ``queued``, or ``failed`` once after its
    job failed (service.common.analysis_queue.ask; ``admit``: the caller's limit)."""
    args: tuple[object, ...] = (attempt.id, mode) if part == 1 else (attempt.id, mode, part)
    engine = attempt.daily.engine_version
    return analysis_queue.ask(
        q, JOB_PATH, args, job_id(attempt.id, mode, engine, part), admit=admit
    )


def compute(
    client: redis.Redis[str], attempt_id: str, mode: str, settings: Settings, part: int = 1
) -> bool:
    """Analyse round (hand) ``part`` of the finished attempt in ``mode`` and cache the document;
    False when the attempt is gone (expired). Idempotent: a second run rewrites the same
    document."""
    if mode not in MODES:
        raise ValueError(f"no analysis mode {mode!r}")
    attempt = store.load(client, attempt_id)
    if attempt is None:
        return False
    if attempt.status != "finished":
        raise AttemptNotFinished(attempt_id)
    daily = attempt.daily
    record = daily.daily_record(attempt.played, store.attempt_seed(attempt, settings.secret))
    doc: dict[str, Any] = attempt.analysis.analyse(record, mode, part)
    text = json.dumps(doc, separators=(",", ":"))
    client.set(keys.analysis(attempt_id, mode, daily.engine_version, part), text, ex=CACHE_S)
    return True
