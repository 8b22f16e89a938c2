"""Deploy-safe verification (issue 13): a record names the engine that played it (F6
``engine``) and the worker replays it with that version's bots, kept side by side
(engine.pikdame.releases); a version this install does not keep fails loudly."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from engine import ENGINE_VERSION, View, bots_of
from engine.pikdame.bots import choose_move
from engine.pikdame.moves import Move
from engine.pikdame.releases import register, unregister
from service.data import keys
from tests.support.api import caller, start, tamper
from tests.support.player import play_to_end
from tests.support.service_app import SECRET, Clock
from worker.verify import EngineMismatch, verify

# A test-only release whose bots differ from today's: every level plays as the beginner.
OLDER = "pikdame-engine/rules-1/bots-test-beginner"


def beginner_everywhere(level: str, seat_view: View) -> Move:
    return choose_move("beginner", seat_view)


@pytest.fixture
def older_release() -> Iterator[str]:
    register(OLDER, beginner_everywhere)
    yield OLDER
    unregister(OLDER)


def played_under(client: FlaskClient, clock: Clock, rdb: redis.Redis[str], version: str) -> str:
    """A ranked attempt begun by a web process of ``version`` (its record says so before the
    first move) and played to the end: the web keeps playing the game's own version's bots."""
    attempt, _ = start(client, clock.today)
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
