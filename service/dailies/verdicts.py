"""Waiting for a verification verdict inside one request, so the end-of-game page
asks once and hears as soon as the verdict exists, instead of polling every second.

The wait subscribes to the verdict's channel (``keys.verdict_channel``, on which the verifier
publishes when it records a verdict: worker.verify) and wakes as soon as the verdict is
announced. A publish is fire-and-forget (one sent while a Redis connection dropped, or by a
worker of an older deploy, is lost), so the wait also re-reads the attempt's ``verification``
field (one HGET of a few bytes) at doubling pauses from 50 ms up to one second: the verdict is
heard at once when announced, and within a second when not.

A waiting request holds one of gunicorn's gthread threads (2 per process by default) for up to
``inputs.MAX_WAIT`` seconds, so :class:`Waiters` lets only a few wait at once per process
(``PIKDAME_VERDICT_WAITERS``, unset: half the threads, at least one); past that the route answers
at once with ``Retry-After`` and the client asks again after it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

import redis
from flask import Flask, current_app

from service.common import keys
from service.web.redisconn import settings_of

RETRY_AFTER: Final = 2  # seconds a client waits before asking again when it could not wait
FIRST_PAUSE: Final = 0.05
LONGEST_PAUSE: Final = 1.0


class Waiters:
    """A count of the requests of this process that are waiting, up to ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._count = 0
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        return self._count

    @contextmanager
    def slot(self) -> Iterator[bool]:
        """Yields whether this request may wait (and holds its place while it does)."""
        with self._lock:
            allowed = self._count < self.limit
            if allowed:
                self._count += 1
        try:
            yield allowed
        finally:
            if allowed:
                with self._lock:
                    self._count -= 1


def init_app(app: Flask) -> None:
    limit = settings_of(app).verdict_waiters
    app.extensions["verdict_waiters"] = Waiters(limit)


def waiters() -> Waiters:
    found: Waiters = current_app.extensions["verdict_waiters"]
    return found


def wait(
    client: redis.Redis[str],
    attempt_id: str,
    seconds: float,
    monotonic: Callable[[], float] = time.monotonic,
    first_pause: float = FIRST_PAUSE,
    longest_pause: float = LONGEST_PAUSE,
) -> None:
    """Return once the attempt's verification is no longer ``queued``, or after ``seconds``:
    woken by the verdict's announcement, else by the next re-read."""
    deadline = monotonic() + seconds
    pause = first_pause
    key = keys.attempt(attempt_id)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        pubsub.subscribe(keys.verdict_channel(attempt_id))  # before the first read: none missed
        while client.hget(key, "verification") == "queued":
            left = deadline - monotonic()
            if left <= 0:
                return
            if pubsub.get_message(timeout=min(pause, left)) is None:
                pause = min(pause * 2, longest_pause)
    finally:
        pubsub.close()
