"""Game state on a Redis Cluster vs one Redis (deploy/SCALING.md step 7).

A move's Redis work as ``service.dailies.store.play`` does it for a browser (WATCH the attempt,
HGETALL, MULTI, HSET of seq and game, EXEC; an API client's move also SETs its view in the same
MULTI, on the same slot), without the engine (its CPU is the web tier's, measured in
bench_http), from several client processes on attempts started by ``store.create``: against one
redis-server, then against a three-master Redis Cluster (tests/support/cluster.py) with the
cluster client the service uses (PIKDAME_REDIS_STATE_CLUSTER=1). Reports moves/s and the Redis
CPU per move (all redis-server processes, from /proc), and how the attempts spread over the
masters.

    python -m bench.bench_cluster --attempts 300 --moves 20000 --clients 4
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from pathlib import Path
from typing import cast

import redis
from redis.cluster import RedisCluster

from bench.loadkit import command_line, cpu_seconds, load_average, write_result
from engine import daily_game, daily_seed
from service.common import keys
from service.dailies import store
from tests.support.cluster import start_cluster
from tests.support.servers import start_redis

DAY = "2026-11-30"
SECRET = b"bench-cluster-secret"
RESULT = Path(__file__).parent / "results" / "cluster.md"


def connect(url: str, cluster: bool) -> redis.Redis[str]:
    if cluster:
        return cast("redis.Redis[str]", RedisCluster.from_url(url, decode_responses=True))
    return redis.Redis.from_url(url, decode_responses=True)


def start_attempts(url: str, cluster: bool, count: int) -> list[str]:
    client = connect(url, cluster)
    game = daily_game(daily_seed(SECRET, DAY), "Ada")
    ids = []
    for i in range(count):
        attempt, _ = store.create(
            client,
            date=DAY,
            name=f"P{i}",
            player=f"p{i}",
            ranked=True,
            game=game,
            now_ms=0,
            day_ordinal=1,
        )
        ids.append(attempt.id)
    return ids


def redis_move(client: redis.Redis[str], attempt_id: str) -> None:
    """store.play's round trips: the attempt read under WATCH, then seq and game written."""
    key = keys.attempt(attempt_id)

    def move_on(pipe: redis.client.Pipeline[str]) -> None:
        h = cast(dict[str, str], pipe.hgetall(key))
        pipe.multi()
        pipe.hset(key, mapping={"seq": str(int(h["seq"]) + 1), "game": h["game"]})

    store.transaction(client, move_on, key)


def client_run(args: tuple[str, bool, list[str], int]) -> int:
    url, cluster, ids, moves = args
    client = connect(url, cluster)
    for i in range(moves):
        redis_move(client, ids[i % len(ids)])
    return moves


def measure(
    url: str, cluster: bool, pids: list[int], ids: list[str], moves: int, clients: int
) -> tuple[float, float]:
    """(moves/s, Redis CPU µs per move) of ``moves`` moves from ``clients`` processes."""
    share = [ids[i::clients] for i in range(clients)]
    before = sum(cpu_seconds(p) for p in pids)
    t0 = time.perf_counter()
    with multiprocessing.Pool(clients) as pool:
        done = sum(pool.map(client_run, [(url, cluster, s, moves // clients) for s in share]))
    wall = time.perf_counter() - t0
    redis_cpu = sum(cpu_seconds(p) for p in pids) - before
    return done / wall, redis_cpu / done * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--attempts", type=int, default=300)
    parser.add_argument("--moves", type=int, default=20000)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args(argv)
    rows = []
    load_before = load_average()
    single = start_redis()
    try:
        assert single.process is not None
        ids = start_attempts(single.url, False, args.attempts)
        rate, cpu = measure(single.url, False, [single.process.pid], ids, args.moves, args.clients)
        rows.append(("one redis-server", rate, cpu, "1 (all)"))
    finally:
        single.close()
    nodes = start_cluster()
    try:
        ids = start_attempts(nodes.url, True, args.attempts)
        per_node = [len(c.keys(keys.attempt("*"))) for c in nodes.clients()]
        pids = [n.process.pid for n in nodes.nodes if n.process is not None]
        rate, cpu = measure(nodes.url, True, pids, ids, args.moves, args.clients)
        rows.append(("Redis Cluster, 3 masters", rate, cpu, " / ".join(map(str, per_node))))
    finally:
        nodes.close()
    lines = [
        "# Game state: one Redis vs a three-master Redis Cluster",
        "",
        f"`{command_line('bench.bench_cluster', argv)}`; load average before: {load_before},"
        f" after: {load_average()}; {args.clients} client processes on the same 2 cores.",
        "",
        "A move's Redis work as `store.play` does it (WATCH, HGETALL, MULTI, HSET seq + game, EXEC)"
        " on attempts started by `store.create`; Redis CPU summed over every redis-server.",
        "",
        "| state on | moves/s | Redis CPU per move | attempts per master |",
        "| --- | ---: | ---: | --- |",
        *(
            f"| {name} | {rate:,.0f} | {cpu:,.0f} µs | {spread} |"
            for name, rate, cpu, spread in rows
        ),
        "",
    ]
    write_result(RESULT, lines)
    print(json.dumps({name: round(rate) for name, rate, _, _ in rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
