"""The app's shared objects: its settings, and its Redis client (one connection pool per
process) and verification queue."""

from __future__ import annotations

import redis
from flask import Flask, current_app

from service.data import queue
from service.data.config import Settings

EXTENSION = "pikdame_redis"
QUEUE = "pikdame_queue"


def init_app(app: Flask) -> None:
    config = settings_of(app)
    # A bounded pool that waits for a free connection instead of failing: a gevent stream
    # worker (docs/TABLES.md) runs thousands of greenlets, each borrowing a connection briefly.
    pool = redis.BlockingConnectionPool.from_url(
        config.redis_url,
        max_connections=config.redis_connections,
        timeout=20,
        decode_responses=True,
        health_check_interval=30,
    )
    app.extensions[EXTENSION] = redis.Redis(connection_pool=pool)
    app.extensions[QUEUE] = queue.queue(config.redis_url, config.queue, config.retry_intervals)


def settings_of(app: Flask) -> Settings:
    value = app.config["SETTINGS"]
    assert isinstance(value, Settings)
    return value


def settings() -> Settings:
    """The current app's settings (service.data.config), typed."""
    return settings_of(current_app)


def get_redis() -> redis.Redis[str]:
    """The current app's client (text in, text out)."""
    client: redis.Redis[str] = current_app.extensions[EXTENSION]
    return client


def get_queue() -> queue.VerifyQueue:
    """The verification queue (RQ needs its own bytes-mode connection)."""
    q: queue.VerifyQueue = current_app.extensions[QUEUE]
    return q
