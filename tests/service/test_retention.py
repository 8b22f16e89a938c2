"""Bounded storage. Tokens and practice attempts expire; a closed day's finished
records are archived (F6, compressed JSON lines) and its attempts then expire, while the replay,
rankings and archive pages keep working from the archive."""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from flask import Flask

from engine import ENGINE_VERSION, daily_seed, replay
from service.common import keys
from service.dailies import archive
from service.errors import DayNotClosed
from service.web.redisconn import settings_of
from tests.support.api import resign_at_once, start
from tests.support.processes import ROOT, service_env
from tests.support.service_app import SECRET, Clock, make_app
from worker.verify import verify

DAY = "2026-11-30"


@pytest.fixture
def app(redis_url: str, rdb: redis.Redis[str], clock: Clock, tmp_path: Path) -> Flask:
    return make_app(redis_url, clock, PIKDAME_ARCHIVE_DIR=str(tmp_path / "archive"))


def resign(app: Flask, clock: Clock, name: str) -> tuple[str, str]:
    return resign_at_once(app.test_client(), clock.today, name)


def token_key(token: str) -> str:
    return f"pd:token:{hashlib.sha256(token.encode()).hexdigest()}"


def expires_at(rdb: redis.Redis[str], key: str, clock: Clock) -> int:
    """When the key expires on the app's clock: its TTL counted from the app's now. Redis counts a
    TTL on its own clock, which is far from the tests' (tests/service/test_clocks.py)."""
    left_ms = rdb.pttl(key)
    assert left_ms > 0, (key, left_ms)
    return int(clock().timestamp()) + -(-left_ms // 1000)  # the whole seconds set, less what ran


def close_day(clock: Clock) -> None:
    clock.moment = dt.datetime(2026, 12, 1, 3, 0, tzinfo=dt.UTC)  # after 24:00 + 120 min grace


def test_a_ranked_token_expires_a_day_after_its_day_closed(
    app: Flask, clock: Clock, rdb: redis.Redis[str]
) -> None:
    aid, token = resign(app, clock, "Ada")
    closes = dt.datetime(2026, 12, 1, 2, 0, tzinfo=dt.UTC).timestamp()
    assert expires_at(rdb, token_key(token), clock) == int(closes) + 86400
    assert rdb.ttl(keys.attempt(aid)) == -1  # kept until archived
    assert rdb.sismember(keys.day_ids(DAY), aid)


def test_a_practice_attempt_expires_after_the_keep_days(
    app: Flask, clock: Clock, rdb: redis.Redis[str]
) -> None:
    close_day(clock)
    client = app.test_client()
    response = client.post(f"/api/daily/{DAY}/practice", json={"name": "Ada"})
    assert response.status_code == 201
    body = response.get_json()
    now = int(clock().timestamp())
    assert expires_at(rdb, keys.attempt(body["attempt"]["id"]), clock) == now + 7 * 86400
    assert expires_at(rdb, token_key(body["token"]), clock) == now + 7 * 86400


def test_archive_then_expiry_and_the_pages_still_serve(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str], tmp_path: Path
) -> None:
    ids = [resign(app, clock, name)[0] for name in ("Ada", "Bob")]
    abandoned, _ = start(app.test_client(), clock.today, "Cy")  # never finished
    for aid in ids:
        assert verify(rdb, aid, SECRET, rankings)["status"] == "verified"
    store = archive.from_settings(settings_of(app))
    with pytest.raises(DayNotClosed):
        archive.archive_day(rdb, store, DAY, settings_of(app))  # the day is still open
    close_day(clock)
    web = app.test_client()
    before = {aid: web.get(f"/replay/{aid}/positions").get_json() for aid in ids}
    board = web.get(f"/api/leaderboard/{DAY}").get_json()
    days = web.get("/api/days").get_json()

    assert archive.archive_day(rdb, store, DAY, settings_of(app)) == 2
    lines = [json.loads(line) for line in gzip.decompress(store.read(DAY) or b"").splitlines()]
    assert sorted(line["attempt_id"] for line in lines) == sorted(ids)
    seed = daily_seed(SECRET, DAY)
    for line in lines:
        record = line["record"]
        assert record["format"] == "pikdame-log/1" and record["engine"] == ENGINE_VERSION
        assert record["deal"]["seed"] == seed.hex()  # F6 with the published seed
        replay(record)  # each archived record replays on its own (F7 `replay`)
        assert line["verification"] == "verified"
    keep = 7 * 86400
    for aid in [*ids, abandoned["id"]]:
        assert 0 < rdb.ttl(keys.attempt(aid)) <= keep
    # what a week later looks like: the attempts and their cached replays are gone
    for key in rdb.keys(keys.attempt("*")) + rdb.keys(keys.replay("*")) + rdb.keys("pd:token:*"):
        rdb.delete(key)
    again = app.test_client()
    for aid in ids:
        response = again.get(f"/replay/{aid}/positions")
        assert response.status_code == 200
        assert response.get_json() == before[aid]
    assert again.get(f"/replay/{abandoned['id']}/positions").status_code == 404
    assert again.get(f"/api/leaderboard/{DAY}").get_json() == board
    assert again.get("/api/days").get_json() == days
    first = store.read(DAY)
    assert archive.archive_closed_days(rdb, store, settings_of(app)) == {}  # already archived
    assert archive.archive_day(rdb, store, DAY, settings_of(app)) == 2  # by hand: nothing is lost
    assert store.read(DAY) == first


def test_a_day_with_verdicts_due_is_not_archived_yet(
    app: Flask, clock: Clock, rdb: redis.Redis[str]
) -> None:
    aid, _ = resign(app, clock, "Ada")
    close_day(clock)
    store = archive.from_settings(settings_of(app))
    assert archive.archive_closed_days(rdb, store, settings_of(app)) == {
        DAY: f"{DAY} still has attempts waiting for their verdict"
    }
    assert not store.has(DAY)
    assert rdb.ttl(keys.attempt(aid)) == -1


def test_the_archive_command(
    redis_url: str, rdb: redis.Redis[str], rankings: redis.Redis[str], tmp_path: Path
) -> None:
    """``pikdame archive [DATE]`` as the timer runs it (the real clock: a past day is closed)."""
    past = Clock(dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC))
    app = make_app(redis_url, past)
    aid, _ = resign(app, past, "Ada")
    verify(rdb, aid, SECRET, rankings)
    env = service_env(redis_url, SECRET.decode(), PIKDAME_ARCHIVE_DIR=str(tmp_path / "a"))

    def pikdame(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "service.cli", "archive", *args]
        return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)

    bad = pikdame("2026-02-30")
    assert bad.returncode != 0 and "YYYY-MM-DD" in bad.stderr
    done = pikdame()
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"archived": {"2026-01-05": 1}, "swept": 0}
    assert (tmp_path / "a" / "2026-01-05.jsonl.gz").exists()
    again = pikdame("2026-01-05")
    assert json.loads(again.stdout) == {"archived": {"2026-01-05": 1}}


def test_the_sweep_gives_legacy_keys_an_expiry(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """Keys stored before retention existed: an attempt outside the day's index, a practice
    attempt and its token without expiry, a token whose attempt is gone."""
    aid, token = resign(app, clock, "Ada")
    verify(rdb, aid, SECRET, rankings)
    rdb.srem(keys.day_ids(DAY), aid)  # as stored before the index (found via its slot)
    rdb.persist(token_key(token))
    legacy: dict[str | bytes, str] = {
        "id": "0123456789abcdef",
        "date": DAY,
        "ranked": "0",
        "token": "t" * 64,
    }
    rdb.hset(keys.attempt("0123456789abcdef"), mapping=legacy)
    rdb.set(f"pd:token:{'t' * 64}", "0123456789abcdef")
    rdb.set(f"pd:token:{'u' * 64}", "gone")
    close_day(clock)
    settings = settings_of(app)
    store = archive.from_settings(settings)
    assert archive.archive_closed_days(rdb, store, settings) == {DAY: 1}
    assert archive.sweep(rdb, settings) == 2  # the practice attempt, the dangling token
    for key in (keys.attempt("0123456789abcdef"), f"pd:token:{'t' * 64}", keys.attempt(aid)):
        assert 0 < rdb.ttl(key) <= 7 * 86400, key
    assert 0 < rdb.ttl(token_key(token)) <= 7 * 86400
    assert not rdb.exists(f"pd:token:{'u' * 64}")
    assert archive.sweep(rdb, settings) == 0
