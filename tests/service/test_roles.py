"""Redis by role: game state, the queue and the rankings on three separate
redis-servers. Play, queue and verify across them; each server holds only its role's keys, and a
verify job retried after dying between ranking and recording its verdict ranks exactly once."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from service.app import create_app
from service.common import keys, ownership
from service.dailies import store
from tests.support.api import caller, start
from tests.support.player import play_to_end
from tests.support.processes import service_env, start_worker, wait_for
from tests.support.servers import RedisServer, start_redis
from worker.verify import judge, rank_once, verify

SECRET = b"roles-test-secret"
TODAY = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, RedisServer]]:
    started = {role: start_redis() for role in ("state", "queue", "rankings")}
    yield started
    for server in started.values():
        server.close()


@pytest.fixture
def roles(servers: dict[str, RedisServer]) -> dict[str, redis.Redis[str]]:
    clients: dict[str, redis.Redis[str]] = {
        role: redis.Redis.from_url(s.url, decode_responses=True) for role, s in servers.items()
    }
    for client in clients.values():
        client.flushdb()
    return clients


def settings(servers: dict[str, RedisServer]) -> dict[str, Any]:
    return {
        "REDIS_URL": "redis://127.0.0.1:1/0",  # nothing may fall back to it
        "PIKDAME_REDIS_STATE_URL": servers["state"].url,
        "PIKDAME_REDIS_QUEUE_URL": servers["queue"].url,
        "PIKDAME_REDIS_RANKINGS_URL": servers["rankings"].url,
    }


def finished_attempt(servers: dict[str, RedisServer]) -> tuple[Any, str]:
    app = create_app(
        {
            **settings(servers),
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_NOW": lambda: TODAY,
            "PIKDAME_LIMITS_ENABLED": False,
            "TESTING": True,
        }
    )
    client = app.test_client()
    attempt, _ = start(client, TODAY.date().isoformat(), "Ada")
    play_to_end(caller(client), attempt["id"], use_hints=False)
    return client, str(attempt["id"])


def test_each_server_holds_its_roles_keys_only(
    servers: dict[str, RedisServer], roles: dict[str, redis.Redis[str]], tmp_path: Path
) -> None:
    client, attempt_id = finished_attempt(servers)
    assert roles["queue"].llen("rq:queue:verify") == 1
    env = service_env(servers["state"].url, SECRET.decode(), **settings(servers))
    worker = start_worker(env, tmp_path / "worker.log", burst=True)
    worker.popen.wait(timeout=120)
    status = wait_for(lambda: roles["state"].hget(keys.attempt(attempt_id), "verification"))
    assert status == "verified"
    board = client.get(f"/api/leaderboard/{TODAY.date().isoformat()}").get_json()
    assert [e["attempt_id"] for e in board["entries"]] == [attempt_id]
    doc = client.get(f"/api/attempts/{attempt_id}").get_json()  # the owner's session
    assert doc["attempt"]["verification"]["rank"] == 1
    state_keys = set(roles["state"].keys("*"))
    assert keys.attempt(attempt_id) in state_keys
    assert not any(k.startswith("rq:") for k in state_keys)
    assert (
        keys.ALLTIME not in state_keys and keys.day_rank(TODAY.date().isoformat()) not in state_keys
    )
    ranking_keys = set(roles["rankings"].keys("*"))
    assert keys.ALLTIME in ranking_keys
    assert not any(k.startswith(("pd:{a:", "rq:")) for k in ranking_keys)
    assert all(k.startswith("rq:") for k in roles["queue"].keys("*")), roles["queue"].keys("*")


def test_a_retried_verify_job_ranks_exactly_once_across_the_servers(
    servers: dict[str, RedisServer], roles: dict[str, redis.Redis[str]]
) -> None:
    _, attempt_id = finished_attempt(servers)
    state, rankings = roles["state"], roles["rankings"]
    attempt = store.Attempt.from_hash(state.hgetall(keys.attempt(attempt_id)))
    verdict = judge(attempt, SECRET)
    score, turns = verdict.score, verdict.tie_break
    assert verdict.status == "verified" and score is not None and turns is not None
    # the first run ranks, then its worker dies before recording the verdict
    owner = ownership.owner_of(state, attempt.player)
    assert rank_once(rankings, attempt, score, turns, owner) is True
    assert state.hget(keys.attempt(attempt_id), "verification") == "queued"
    # the retry and one more
    assert verify(state, attempt_id, SECRET, rankings)["new"] is True
    assert verify(state, attempt_id, SECRET, rankings)["new"] is False
    assert state.hget(keys.attempt(attempt_id), "verification") == "verified"
    assert rankings.zscore(keys.ALLTIME, attempt.player) == score
    assert rankings.hget(keys.player(attempt.player), "days") == "1"
    assert rankings.zcard(keys.day_rank(attempt.date)) == 1
    # the daily habit's counts too (in the same script): once
    assert sum(map(int, rankings.hvals(keys.day_histogram(attempt.date)))) == 1
    assert rankings.hget(keys.owner_days(owner, "pikdame"), attempt.date) == str(score)
    assert rankings.hget(keys.streak(owner, "pikdame"), "current") == "1"
