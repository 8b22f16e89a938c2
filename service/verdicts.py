"""Waiting for a verification verdict inside one request (issue 10.3), so the end-of-game page
asks once and hears as soon as the verdict exists, instead of polling every second.

The wait is a short server-side check loop on the attempt's ``verification`` field: one HGET of
a few bytes, first after 50 ms (a verification takes about 40 ms), then at doubling pauses up
to one second. It needs nothing from the worker; if the worker ever publishes its verdicts, a
Redis subscription can replace the loop behind :func:`wait`.

A waiting request holds one of gunicorn's gthread threads (4 per process by default) for up to
``inputs.MAX_WAIT`` seconds, so :class:`Waiters` lets only a few wait at once per process
(``PIKDAME_VERDICT_WAITERS``, default 2: half the threads); past that the route answers at once with
``Retry-After`` and the client asks again after it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

import redis
from flask import Flask, current_app

from service.data import keys
from service.redisconn import settings_of

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
    sleep: Callable[[float], None] = time.sleep,
    monotonic: Callable[[], float] = time.monotonic,
) -> None:
    """Return once the attempt's verification is no longer ``queued``, or after ``seconds``."""
    deadline = monotonic() + seconds
    pause = FIRST_PAUSE
    key = keys.attempt(attempt_id)
    while client.hget(key, "verification") == "queued":
        left = deadline - monotonic()
        if left <= 0:
            return
        sleep(min(pause, left))
        pause = min(pause * 2, LONGEST_PAUSE)
