"""Deploy-safe verification: a record names the engine that played it (F6
``engine``) and the worker replays it with that version's bots, kept side by side
(engine.pikdame.releases); a version this install does not keep fails loudly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq.job import Job
from rq.results import Result
from rq.serializers import JSONSerializer

from engine import ENGINE_VERSION, bots_of
from engine.pikdame.bots import choose_move
from engine.pikdame.releases import register, unregister
from service.common import keys
from service.dailies import queue
from service.errors import EngineMismatch
from tests.support.api import caller, start, tamper
from tests.support.older_release import MODULE, OLDER, beginner_everywhere
from tests.support.player import play_to_end
from tests.support.processes import service_env, start_worker, wait_for
from tests.support.service_app import SECRET, Clock, make_app
from worker.verify import verify

# A release the test's web process plays but no worker keeps (not in any release module).
UNKNOWN = "pikdame-engine/rules-1/bots-test-never-released"


@pytest.fixture
def older_release() -> Iterator[str]:
    register(OLDER, beginner_everywhere)
    yield OLDER
    unregister(OLDER)


def played_under(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], version: str, name: str = "Ada"
) -> str:
    """A ranked attempt begun by a web process of ``version`` (its record says so before the
    first move) and played to the end: the web keeps playing the game's own version's bots."""
    attempt, _ = start(client, clock.today, name)
    assert attempt["seq"] == 0  # seat 0 moves first (dealer 3): no bot has moved yet

    def begun_by(record: dict[str, Any]) -> None:
        record["engine"] = version

    tamper(rdb, attempt["id"], begun_by)
    play_to_end(caller(client), attempt["id"])
    return str(attempt["id"])


def test_a_record_of_an_older_release_verifies_with_its_own_bots(
    client: FlaskClient,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    older_release: str,
) -> None:
    aid = played_under(client, clock, rdb, older_release)
    game = rdb.hget(keys.attempt(aid), "game") or ""
    assert f'"engine": "{older_release}"' in game or f'"engine":"{older_release}"' in game
    assert older_release != ENGINE_VERSION  # the worker's current version is another one
    assert verify(rdb, aid, SECRET, rankings)["status"] == "verified"


def test_the_versions_really_differ(
    client: FlaskClient,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    older_release: str,
) -> None:
    """The same record replayed with today's bots is a bot mismatch: which version replays it
    matters, so the worker must pick the record's own."""
    aid = played_under(client, clock, rdb, older_release)

    def today(record: dict[str, Any]) -> None:
        record["engine"] = ENGINE_VERSION

    tamper(rdb, aid, today)
    assert verify(rdb, aid, SECRET, rankings)["status"] == "rejected"
    assert (rdb.hget(keys.attempt(aid), "reason") or "").startswith("bot_mismatch")


def test_a_version_this_install_does_not_keep_fails_loudly(
    client: FlaskClient,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    older_release: str,
) -> None:
    aid = played_under(client, clock, rdb, older_release)
    unregister(older_release)
    with pytest.raises(EngineMismatch, match=r"bots-test-beginner.*does not keep"):
        verify(rdb, aid, SECRET, rankings)
    assert rdb.hget(keys.attempt(aid), "verification") == "queued"  # no verdict


def test_the_current_bots_are_released_under_todays_version() -> None:
    assert bots_of(ENGINE_VERSION) is choose_move


def failed_with(qdb_bytes: redis.Redis[bytes], attempt_id: str) -> str | None:
    """The error of the verification job's latest run when it failed, else None."""
    job = Job.fetch(queue.job_id(attempt_id), connection=qdb_bytes, serializer=JSONSerializer)
    result = job.latest_result()
    if result is None or result.type != Result.Type.FAILED:
        return None
    return result.exc_string or "failed"


@pytest.mark.integration
def test_a_real_worker_verifies_two_releases_side_by_side(
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    redis_url: str,
    queue_url: str,
    tmp_path: Path,
    older_release: str,
) -> None:
    """A stock ``rq worker`` told to keep the older release (PIKDAME_RELEASES names its release
    module, tests.support.older_release) verifies and ranks a game of each release the same day;
    a game of a release it does not keep gets no verdict: its job fails loudly (RQ's failed
    result once its one retry failed too) and the attempt stays queued, never rejected."""
    app = make_app(redis_url, clock, PIKDAME_RETRY_INTERVALS="1")
    register(UNKNOWN, choose_move)
    try:
        older = played_under(app.test_client(), clock, rdb, older_release, "Ada")
        unknown = played_under(app.test_client(), clock, rdb, UNKNOWN, "Bob")
    finally:
        unregister(UNKNOWN)
    current = played_under(app.test_client(), clock, rdb, ENGINE_VERSION, "Cleo")
    env = service_env(redis_url, SECRET.decode(), PIKDAME_RELEASES=MODULE)
    worker = start_worker(env, tmp_path / "worker.log")
    qbytes: redis.Redis[bytes] = redis.Redis.from_url(queue_url)
    try:

        def judged() -> bool:
            found = [rdb.hget(keys.attempt(a), "verification") for a in (older, current)]
            return found == ["verified", "verified"]

        wait_for(judged, timeout=60, interval=0.1)
        error = wait_for(lambda: failed_with(qbytes, unknown), timeout=60, interval=0.1)
    finally:
        worker.stop()
        qbytes.close()
    board = keys.day_rank(clock.today)
    assert rankings.zscore(board, older) is not None
    assert rankings.zscore(board, current) is not None
    assert rankings.zscore(board, unknown) is None
    assert "bots-test-never-released" in error and "does not keep" in error
    assert rdb.hget(keys.attempt(unknown), "verification") == "queued"
    assert rdb.hget(keys.attempt(unknown), "reason") is None
