"""Session fixtures: one real redis-server for the whole test session (on a free port)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.servers import RedisServer, start_redis

# The suites written before accounts start ranked attempts anonymously: they run as a
# deployment that ranks anonymous play (PIKDAME_RANK_ANONYMOUS=1), inherited by the servers and
# workers they start. Tests of accounts and "ohne Wertung" pass PIKDAME_RANK_ANONYMOUS=0.
os.environ.setdefault("PIKDAME_RANK_ANONYMOUS", "1")


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = start_redis(appendonly=False)
    yield server
    server.close()


@pytest.fixture(scope="session")
def redis_url(redis_server: RedisServer) -> str:
    """The URL of a real redis-server that lives as long as the test session."""
    return redis_server.url
