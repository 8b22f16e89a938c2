"""The ``pikdame`` operator command: seed-info and reconcile, run as real subprocesses."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

import redis

from engine import daily_seed, gin
from service.common import keys
from tests.support.processes import pikdame, service_env


def test_seed_info_reveals_the_seed_only_after_the_day(redis_url: str) -> None:
    env = service_env(redis_url, "cli-secret")
    past = pikdame(env, "seed-info", "2026-01-01")
    assert past.returncode == 0, past.stderr
    info = json.loads(past.stdout)
    seed = daily_seed(b"cli-secret", "2026-01-01")
    assert info["seed"] == seed.hex()
    assert info["commitment"] == hashlib.sha256(seed).hexdigest()
    today = dt.datetime.now(dt.UTC).date().isoformat()
    now = json.loads(pikdame(env, "seed-info", today).stdout)
    assert now["seed"] is None
    assert now["commitment"] == hashlib.sha256(daily_seed(b"cli-secret", today)).hexdigest()
    bad = pikdame(env, "seed-info", "2026-02-30")
    assert bad.returncode != 0 and "YYYY-MM-DD" in bad.stderr


def test_seed_info_of_the_gin_daily(redis_url: str) -> None:
    """``--game gin`` gives the Gin daily's commitment and (once closed) seed."""
    env = service_env(redis_url, "cli-secret")
    info = json.loads(pikdame(env, "seed-info", "2026-01-01", "--game", "gin").stdout)
    seed = gin.daily_seed(b"cli-secret", "2026-01-01")
    assert info["seed"] == seed.hex() and seed != daily_seed(b"cli-secret", "2026-01-01")
    assert info["commitment"] == hashlib.sha256(seed).hexdigest()


def test_reconcile_requeues_a_lost_job(
    redis_url: str, rdb: redis.Redis[str], qdb: redis.Redis[str]
) -> None:
    env = service_env(redis_url, "cli-secret")
    rdb.zadd("pd:finished", {"lost1": 0})  # finished long ago, never judged, no job
    rdb.hset(keys.attempt("lost1"), "verification", "queued")
    rdb.zadd("pd:finished", {"gone1": 0})  # an attempt that no longer exists
    rdb.zadd("pd:finished", {"done1": 0})
    rdb.hset(keys.attempt("done1"), "verification", "verified")
    result = pikdame(env, "reconcile", "--older-than", "60")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"requeued": ["lost1"], "par": [], "timers": []}
    assert qdb.exists("rq:job:verify-lost1") == 1
    assert rdb.zrange("pd:finished", 0, -1) == ["lost1"]
