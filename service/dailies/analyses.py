"""A finished daily attempt's analysis (docs/ANALYSIS.md): one RQ job per (attempt, mode,
engine version) on the analyses' own queue, so the reset hour's verification never waits behind
them, and its document cached in Redis per record and engine version.

The job (worker.jobs.analyse_attempt) replays the record with the day's seed inside the worker;
the ``view`` document holds only what seat 0 saw (no seed, no hidden card), the ``deal`` one is
asked for only once the day has closed (service.dailies.api_attempts checks).
"""

from __future__ import annotations

import json
from typing import Any, Final

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError
from rq.serializers import JSONSerializer

from service.common import keys
from service.common.config import Settings
from service.dailies import store
from service.errors import AttemptNotFinished

JOB_PATH: Final = "worker.jobs.analyse_attempt"
MODES: Final = ("view", "deal")
JOB_TIMEOUT: Final = 120  # seconds; a daily round takes a few (BENCHMARKS.md)
RESULT_TTL: Final = 600  # the document lives in its own key, not in the job's result
CACHE_S: Final = 7 * 86400  # as long as the attempt's records are kept live


def job_id(attempt_id: str, mode: str, engine: str) -> str:
    """Deterministic per (attempt, mode, engine version); RQ ids allow letters, digits, _ and -."""
    version = "".join(c if c.isalnum() else "_" for c in engine)
    return f"analyse-{attempt_id}-{mode}-{version}"


def queue_on(connection: redis.Redis[bytes], name: str) -> Queue:
    """The analyses' queue on a bytes-mode client (JSON jobs, like the verification's)."""
    return Queue(name, connection=connection, serializer=JSONSerializer)


def cached(client: redis.Redis[str], attempt: store.Attempt, mode: str) -> str | None:
    """The attempt's analysis document in ``mode`` as JSON text, or None while not computed."""
    return client.get(keys.analysis(attempt.id, mode, attempt.daily.engine_version))


def enqueue(q: Queue, attempt: store.Attempt, mode: str) -> bool:
    """Queue the attempt's analysis in ``mode`` once; False when its job already exists."""
    try:
        q.enqueue_call(
            JOB_PATH,
            args=(attempt.id, mode),
            job_id=job_id(attempt.id, mode, attempt.daily.engine_version),
            timeout=JOB_TIMEOUT,
            result_ttl=RESULT_TTL,
            failure_ttl=86400,
            unique=True,
        )
    except DuplicateJobError:
        return False
    return True


def compute(client: redis.Redis[str], attempt_id: str, mode: str, settings: Settings) -> bool:
    """Analyse the finished attempt in ``mode`` and cache the document; False when the attempt
    is gone (expired). Idempotent: a second run rewrites the same document."""
    if mode not in MODES:
        raise ValueError(f"no analysis mode {mode!r}")
    attempt = store.load(client, attempt_id)
    if attempt is None:
        return False
    if attempt.status != "finished":
        raise AttemptNotFinished(attempt_id)
    daily = attempt.daily
    record = daily.daily_record(attempt.played, daily.seed(settings.secret, attempt.date))
    doc: dict[str, Any] = daily.analyse(record, mode)
    text = json.dumps(doc, separators=(",", ":"))
    client.set(keys.analysis(attempt_id, mode, daily.engine_version), text, ex=CACHE_S)
    return True
