"""The analyses' own queue (docs/ANALYSIS.md): one RQ job per analysis, by a deterministic id, on
a queue of its own beside the verification's, so the reset hour's verifications never wait behind
them. Shared by the daily attempts' analyses (service.dailies.analyses) and the tables'
(service.tables.analyses); Flask-free.

A job that failed is answered once (``failed``: the route's 503 ``analysis_failed``) and
forgotten, so the next ask queues it again: a failure is retried by asking, never served twice.
"""

from __future__ import annotations

import contextlib
from typing import Any, Final, Literal

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job
from rq.serializers import JSONSerializer

RESULT_TTL: Final = 600  # the document lives in its own key, not in the job's result
FAILURE_TTL: Final = 86400

Asked = Literal["queued", "failed"]


def queue_on(connection: redis.Redis[bytes], name: str) -> Queue:
    """The analyses' queue on a bytes-mode client (JSON jobs, like the verification's)."""
    return Queue(name, connection=connection, serializer=JSONSerializer)


def safe_id(*parts: str) -> str:
    """A job id from ``parts``: RQ ids allow letters, digits, _ and -."""
    return "-".join("".join(c if c.isalnum() else "_" for c in p) for p in parts)


def ask(q: Queue, path: str, args: tuple[Any, ...], job_id: str, timeout: int) -> Asked:
    """Queue the job ``job_id`` once (a second ask while it waits or runs queues nothing):
    ``queued``; or ``failed`` when its last run failed, the failed job then deleted so the next
    ask queues it anew."""
    try:
        job = Job.fetch(job_id, connection=q.connection, serializer=JSONSerializer)
    except NoSuchJobError:
        job = None
    if job is not None and job.is_failed:
        job.delete()
        return "failed"
    with contextlib.suppress(DuplicateJobError):  # its job waits or runs: nothing to queue
        q.enqueue_call(
            path,
            args=args,
            job_id=job_id,
            timeout=timeout,
            result_ttl=RESULT_TTL,
            failure_ttl=FAILURE_TTL,
            unique=True,
        )
    return "queued"
