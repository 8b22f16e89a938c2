"""Redis clients for the roles (game state, queue, rankings), directly or through Sentinel.

With PIKDAME_REDIS_SENTINELS set, every role whose URL is REDIS_URL (the default) finds its server
by asking the Sentinels for the primary named PIKDAME_REDIS_MASTER: after a failover the clients
reconnect to the promoted replica, and the requests in between fail with a Redis error (the API
answers 503 with Retry-After). A role given a URL of its own is connected to that URL as it is.
"""

from __future__ import annotations

from typing import Any, Final

import redis
from redis.cluster import RedisCluster
from redis.sentinel import Sentinel

from service.common.config import Settings

HEALTH_CHECK_S: Final = 30
POOL_WAIT_S: Final = 20  # how long a command waits for a free pooled connection
#: Each connection's reply buffer, whatever the role's server (pooled, found through Sentinel, a
#: cluster's node). redis-py's default is 64 KB, a bytearray held for the connection's life. A
#: gevent stream worker under load fills its pool (100 connections:
#: 6.4 MB a worker, 13 KB of each of 1,000 streams); the replies here are a few KB (a table
#: and its events), and a longer one takes a few more reads (bench/results/notes/tables.md).
READ_BUFFER: Final = 16 * 1024
#: How long an acknowledgement waits for the replicas (PIKDAME_REDIS_WAIT_REPLICAS) to confirm.
WAIT_MS: Final = 1000


def via_sentinel(settings: Settings, url: str) -> bool:
    return bool(settings.redis_sentinels) and url == settings.redis_url


def client(settings: Settings, url: str, text: bool = True) -> Any:
    """A client of the role whose URL is ``url``: text mode (str in and out) or bytes (RQ)."""
    options: dict[str, Any] = {
        "decode_responses": text,
        "health_check_interval": HEALTH_CHECK_S,
        "socket_read_size": READ_BUFFER,
    }
    if via_sentinel(settings, url):
        sentinel = Sentinel(list(settings.redis_sentinels), socket_timeout=1.0)
        return sentinel.master_for(settings.redis_master, socket_timeout=5.0, **options)
    # A bounded pool that waits for a free connection instead of failing: a gevent stream
    # worker (docs/TABLES.md) runs thousands of greenlets, each borrowing a connection briefly.
    pool = redis.BlockingConnectionPool.from_url(
        url,
        max_connections=settings.redis_connections,
        timeout=POOL_WAIT_S,
        **options,
    )
    return redis.Redis(connection_pool=pool)


def text_client(settings: Settings, url: str) -> redis.Redis[str]:
    found: redis.Redis[str] = client(settings, url, text=True)
    return found


def state_client(settings: Settings) -> redis.Redis[str]:
    """Game state's client: a cluster client with PIKDAME_REDIS_STATE_CLUSTER=1 (it learns the
    slots from the node in the URL and follows MOVED; every transaction on game state stays on
    one slot: service.common.keys' hash tags), else as any role."""
    if not settings.redis_state_cluster:
        return text_client(settings, settings.redis_state_url)
    # RedisCluster serves the same commands as redis.Redis (typed as it, as the callers use it).
    cluster: redis.Redis[str] = RedisCluster.from_url(  # type: ignore[assignment]
        settings.redis_state_url,
        decode_responses=True,
        health_check_interval=HEALTH_CHECK_S,
        socket_read_size=READ_BUFFER,
    )
    return cluster


def role_clients(settings: Settings) -> tuple[redis.Redis[str], redis.Redis[str]]:
    """(game state, rankings): one client when both roles are on the same server."""
    state = state_client(settings)
    if settings.redis_rankings_url == settings.redis_state_url:
        return state, state
    return state, text_client(settings, settings.redis_rankings_url)


def storage_uri(settings: Settings, url: str) -> str:
    """The same server as a ``limits`` storage URI (Flask-Limiter's counters)."""
    if url == settings.redis_state_url and settings.redis_state_cluster:
        return "redis+cluster://" + url.split("://", 1)[1].split("/", 1)[0]
    if not via_sentinel(settings, url):
        return url
    hosts = ",".join(f"{host}:{port}" for host, port in settings.redis_sentinels)
    return f"redis+sentinel://{hosts}/{settings.redis_master}"


def rq_settings(settings: Settings) -> dict[str, Any]:
    """``rq worker -c`` settings for the queue's server: REDIS_URL, or SENTINEL."""
    if not via_sentinel(settings, settings.redis_queue_url):
        return {"REDIS_URL": settings.redis_queue_url}
    return {
        "SENTINEL": {
            "INSTANCES": list(settings.redis_sentinels),
            "MASTER_NAME": settings.redis_master,
            "SOCKET_TIMEOUT": 5.0,
        }
    }


#: The channel an acknowledgement publishes nothing to: a write that propagates (see below).
ACK_FENCE: Final = "pd:ack-fence"


def acknowledged(client: redis.Redis[str], replicas: int) -> bool:
    """Before acknowledging a write (a move, a start): wait until ``replicas`` replicas have it
    (Redis WAIT), so a failover to one of them loses nothing a player was told had happened.
    False when they did not confirm in time (the caller answers 503; the client asks again).

    WAIT covers only the writes of the connection it runs on, and a pooled client may lend
    another connection than the one the request's transaction used (gthread: other requests
    return theirs in between): a WAIT on a connection that never wrote returns at once. So WAIT
    runs after a PUBLISH on the same connection (one round trip): the PUBLISH is replicated,
    which moves this connection's replication offset past every write made before it, the
    request's own included."""
    if replicas <= 0:
        return True
    pipe = client.pipeline(transaction=False)
    pipe.publish(ACK_FENCE, "")
    pipe.execute_command("WAIT", replicas, WAIT_MS)  # type: ignore[no-untyped-call]
    return int(pipe.execute()[1]) >= replicas


#: replica-priority once a server may be promoted again (Redis' default).
PROMOTABLE_PRIORITY: Final = 100


def synced(client: redis.Redis[str]) -> bool:
    """A primary, or a replica whose link to its primary is up after a finished full sync (its
    data is the primary's, not the empty set it restarted with)."""
    info = client.info("replication")
    if info.get("role") == "master":
        return True
    return info.get("master_link_status") == "up" and not int(
        info.get("master_sync_in_progress", 0)
    )


def make_promotable(client: redis.Redis[str], priority: int = PROMOTABLE_PRIORITY) -> None:
    """A server that starts with ``replica-priority 0`` (deploy/SCALING.md, Failover) may be
    promoted by Sentinel again once it holds its primary's data: raise its priority."""
    client.config_set("replica-priority", priority)
