"""Fixtures for the service tests: an app on the session's real Redis with a settable clock."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from tests.support.processes import WebServer, running_web
from tests.support.servers import flush_roles, role_url, roles_enabled, start_redis
from tests.support.service_app import Clock, make_app


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``make test-roles`` skips a test marked ``own_servers``: it starts every server it uses
    and places every role itself (all on one, tests.support.servers.one_server: its outage,
    its crash, its failover is the subject), so the run with the roles split would be the main
    pass's run once more."""
    if not roles_enabled():
        return
    same = pytest.mark.skip(reason="own_servers: its roles are its own, run in the main pass")
    for item in items:
        if item.get_closest_marker("own_servers") is not None:
            item.add_marker(same)


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
    flush_roles()
    yield client
    client.close()


@pytest.fixture
def app(redis_url: str, rdb: redis.Redis[str], clock: Clock) -> Flask:
    return make_app(redis_url, clock)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def rankings(redis_url: str, rdb: redis.Redis[str]) -> Iterator[redis.Redis[str]]:
    """The rankings role's server (its own in ``make test-roles``, else the state server)."""
    url = role_url(redis_url, "PIKDAME_REDIS_RANKINGS_URL")
    client: redis.Redis[str] = redis.Redis.from_url(url, decode_responses=True)
    yield client
    client.close()


@pytest.fixture
def queue_url(redis_url: str) -> str:
    """The queue role's server (RQ's keys)."""
    return role_url(redis_url, "PIKDAME_REDIS_QUEUE_URL")


@pytest.fixture
def qdb(queue_url: str, rdb: redis.Redis[str]) -> Iterator[redis.Redis[str]]:
    """A text client of the queue role's server, to read RQ's keys."""
    client: redis.Redis[str] = redis.Redis.from_url(queue_url, decode_responses=True)
    yield client
    client.close()


@pytest.fixture
def web(redis_url: str, rdb: redis.Redis[str], tmp_path: Path) -> Iterator[WebServer]:
    """The stock gunicorn on the emptied Redis (secret: tests.support.processes.WEB_SECRET)."""
    with running_web(redis_url, tmp_path / "web.log") as server:
        yield server
