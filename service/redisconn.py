"""The app's Redis client: one connection pool per process, from REDIS_URL."""

from __future__ import annotations

import redis
from flask import Flask, current_app
from rq import Queue

from service.data import queue

EXTENSION = "pikdame_redis"
QUEUE = "pikdame_queue"


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = redis.Redis.from_url(
        app.config["REDIS_URL"], decode_responses=True, health_check_interval=30
    )
    app.extensions[QUEUE] = queue.queue(app.config["REDIS_URL"], app.config["PIKDAME_QUEUE"])


def get_redis() -> redis.Redis[str]:
    """The current app's client (text in, text out)."""
    client: redis.Redis[str] = current_app.extensions[EXTENSION]
    return client


def get_queue() -> Queue:
    """The verification queue (RQ needs its own bytes-mode connection)."""
    q: Queue = current_app.extensions[QUEUE]
    return q
