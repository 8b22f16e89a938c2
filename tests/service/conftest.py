"""Fixtures for the service tests: an app on the session's real Redis with a settable clock."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from tests.support.servers import start_redis

SECRET = b"test-secret-not-for-production"


class Clock:
    """A clock the tests move by hand (service.data.clock reads PIKDAME_NOW)."""

    def __init__(self, moment: dt.datetime) -> None:
        self.moment = moment

    def __call__(self) -> dt.datetime:
        return self.moment

    @property
    def today(self) -> str:
        return self.moment.date().isoformat()

    def advance(self, **delta: float) -> None:
        self.moment += dt.timedelta(**delta)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A redis-server of the service tests' own (overriding the session-wide one): they empty it
    between tests, and other suites' long-lived workers (the browser stack's) must not take
    these tests' jobs from a shared queue."""
    server = start_redis()
    yield server.url
    server.close()


@pytest.fixture
def clock() -> Clock:
    return Clock(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC))


@pytest.fixture
def rdb(redis_url: str) -> Iterator[redis.Redis[str]]:
    """The session's Redis, emptied before each test so tests do not see each other."""
    client: redis.Redis[str] = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
    yield client
    client.close()


def make_app(redis_url: str, clock: Clock, **extra: Any) -> Flask:
    return create_app(
        {
            "REDIS_URL": redis_url,
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_NOW": clock,
            "PIKDAME_LIMITS_ENABLED": False,
            "PIKDAME_LAUNCH_DATE": "2026-11-30",  # the clock's first day: the archive starts there
            "TESTING": True,
            **extra,
        }
    )


@pytest.fixture
def app(redis_url: str, rdb: redis.Redis[str], clock: Clock) -> Flask:
    return make_app(redis_url, clock)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
