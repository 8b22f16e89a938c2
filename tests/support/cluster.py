"""A real Redis Cluster on loopback for tests: three masters, no replicas, each a
``redis-server --cluster-enabled yes`` in its own temporary directory on free ports, joined by
``redis-cli --cluster create``."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import redis

from tests.support.servers import RedisServer, free_port, start_redis


@dataclass
class RedisClusterNodes:
    """The cluster's masters; ``url`` names one of them (a cluster client learns the rest)."""

    nodes: list[RedisServer]

    @property
    def url(self) -> str:
        return self.nodes[0].url

    def clients(self) -> list[redis.Redis[str]]:
        """A plain client per node (each sees only its own slots' keys)."""
        return [redis.Redis.from_url(n.url, decode_responses=True) for n in self.nodes]

    def flush(self) -> None:
        for client in self.clients():
            client.flushall()
            client.close()

    def close(self) -> None:
        for node in self.nodes:
            node.close()


def cluster_ok(url: str) -> bool:
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        info = client.execute_command("CLUSTER", "INFO")
    finally:
        client.close()
    text = info if isinstance(info, str) else str(info)
    return "cluster_state:ok" in text


def start_cluster(masters: int = 3) -> RedisClusterNodes:
    """Start ``masters`` cluster-enabled redis-servers, create the cluster (slots spread evenly),
    and wait until every node says ``cluster_state:ok``."""
    nodes: list[RedisServer] = []
    try:
        for _ in range(masters):
            directory = Path(tempfile.mkdtemp(prefix="pikdame-cluster-"))
            extra = (
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                str(directory / "nodes.conf"),
                "--cluster-port",  # the bus port, also free (not port + 10000)
                str(free_port()),
                "--cluster-node-timeout",
                "5000",
            )
            server = start_redis(directory=directory, extra=extra)
            server._owns_dir = True
            nodes.append(server)
        subprocess.run(
            [
                shutil.which("redis-cli") or "redis-cli",
                "--cluster",
                "create",
                *(f"127.0.0.1:{n.port}" for n in nodes),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=60,
        )
        deadline = time.monotonic() + 60
        while not all(cluster_ok(n.url) for n in nodes):
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not reach cluster_state:ok")
            time.sleep(0.1)
        return RedisClusterNodes(nodes)
    except BaseException:
        for node in nodes:
            node.close()
        raise
