"""The app's shared objects: its settings, and one Redis client per role (one connection pool
per process each): game state, rankings, and the verification queue.

The roles (PIKDAME_REDIS_{STATE,RANKINGS,QUEUE}_URL, each defaulting to REDIS_URL) may be separate
servers: a request uses the client of the keys it touches, and no operation spans two roles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

import redis
from flask import Flask, Response, current_app, g, request
from rq import Queue

from service.common import analysis_queue, connect
from service.common.config import Settings

EXTENSION = "pikdame_redis"
RANKINGS = "pikdame_rankings"
QUEUE = "pikdame_queue"
ANALYSIS_QUEUE = "pikdame_analysis_queue"


#: The verification queue on the queue server's (bytes-mode) client, as the app builds it
#: (service.dailies.queue): the platform holds it without knowing the daily challenges.
QueueMaker: TypeAlias = "Callable[[redis.Redis[bytes], Settings], Queue]"


def init_app(app: Flask, verify_queue: QueueMaker) -> None:
    config = settings_of(app)
    app.extensions[EXTENSION], app.extensions[RANKINGS] = connect.role_clients(config)
    app.extensions[QUEUE] = verify_queue(
        connect.client(config, config.redis_queue_url, text=False), config
    )
    app.extensions[ANALYSIS_QUEUE] = analysis_queue.queue_on(
        connect.client(config, config.redis_queue_url, text=False), config.analysis_queue
    )


def settings_of(app: Flask) -> Settings:
    value = app.config["SETTINGS"]
    assert isinstance(value, Settings)
    return value


def settings() -> Settings:
    """The current app's settings (service.common.config), typed."""
    return settings_of(current_app)


def get_redis() -> redis.Redis[str]:
    """Game state: attempts, tokens, days, verdict announcements, rate limits."""
    client: redis.Redis[str] = current_app.extensions[EXTENSION]
    return client


def get_rankings() -> redis.Redis[str]:
    """Rankings: the days' boards and names, the all-time board, the players' facts."""
    client: redis.Redis[str] = current_app.extensions[RANKINGS]
    return client


def acknowledge() -> None:
    """Before answering a write the player relies on (a move, a start): with
    PIKDAME_REDIS_WAIT_REPLICAS, the replicas have it, or the answer is 503 (ask again)."""
    if not connect.acknowledged(get_redis(), settings().redis_wait_replicas):
        from service.errors import ApiError

        raise ApiError(503, "unavailable", "storage not confirmed, try again shortly")
    g.pikdame_acknowledged = True


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def register_acknowledgements(app: Flask) -> None:
    """Every other write too (an account, a device, a league, a table and its moves): with
    PIKDAME_REDIS_WAIT_REPLICAS, a successful answer to a POST, PUT or DELETE leaves only once
    the replicas of game state and of the rankings have everything written so far, else it
    becomes a 503 with Retry-After (deploy/SCALING.md, Failover). Registered last, so it runs
    before the other after-request hooks, which then see the 503."""

    @app.after_request
    def _acknowledged(response: Response) -> Response:
        config = settings()
        if (
            config.redis_wait_replicas <= 0
            or request.method in SAFE_METHODS
            or response.status_code >= 400
            or g.get("pikdame_acknowledged", False)
        ):
            return response
        clients = [] if config.redis_state_cluster else [get_redis()]  # a cluster's own failover
        if config.redis_rankings_url != config.redis_state_url or not clients:
            clients.append(get_rankings())
        try:
            confirmed = all(connect.acknowledged(c, config.redis_wait_replicas) for c in clients)
        except redis.RedisError:
            confirmed = False
        if confirmed:
            return response
        from service.web.envelope import RETRY_AFTER_S, error_response

        refused = error_response(503, "unavailable", "storage not confirmed, try again shortly")
        refused.headers["Retry-After"] = str(RETRY_AFTER_S)
        return refused


def get_analysis_queue() -> Queue:
    """The analyses' queue (service.common.analysis_queue), beside the verification's."""
    q: Queue = current_app.extensions[ANALYSIS_QUEUE]
    return q


def get_queue() -> Queue:
    """The verification queue (RQ needs its own bytes-mode connection; init_app's maker)."""
    q: Queue = current_app.extensions[QUEUE]
    return q
