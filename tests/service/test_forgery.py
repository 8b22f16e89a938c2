"""Forged records are rejected by the verification job (and never ranked)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from engine import daily_game, daily_seed
from service.common import keys
from service.errors import AttemptNotFinished, EngineMismatch
from tests.support.api import caller, start, tamper
from tests.support.player import play_to_end
from tests.support.service_app import SECRET, Clock
from worker.verify import verify


def finished_attempt(client: FlaskClient, clock: Clock) -> str:
    attempt, _ = start(client, clock.today)
    play_to_end(caller(client), attempt["id"])
    return str(attempt["id"])


def first(record: dict[str, Any], seat: int, word: str) -> dict[str, Any]:
    return next(m for m in record["moves"] if m["seat"] == seat and m["move"].split()[0] == word)


def rejected(rdb: redis.Redis[str], rankings: redis.Redis[str], aid: str) -> str:
    result = verify(rdb, aid, SECRET, rankings)
    assert result["status"] == "rejected" and result["new"] is True
    assert rdb.hget(keys.attempt(aid), "verification") == "rejected"
    assert rankings.zscore("pd:day:2026-11-30:rank", aid) is None
    assert rankings.zcard("pd:alltime") == 0
    return str(rdb.hget(keys.attempt(aid), "reason"))


def test_the_honest_record_is_verified(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    aid = finished_attempt(client, clock)
    assert verify(rdb, aid, SECRET, rankings)["status"] == "verified"
    assert rankings.zscore("pd:day:2026-11-30:rank", aid) is not None


def test_an_illegal_move_is_rejected(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    aid = finished_attempt(client, clock)

    def illegal(record: dict[str, Any]) -> None:
        first(record, 0, "draw")["move"] = "discard QS"  # a discard in the draw phase

    tamper(rdb, aid, illegal)
    assert rejected(rdb, rankings, aid).startswith("wrong_phase at move 0")


def test_a_changed_bot_move_is_rejected(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    aid = finished_attempt(client, clock)
    record = json.loads(rdb.hget(keys.attempt(aid), "game") or "")["record"]
    move = first(record, 1, "discard")
    index = record["moves"].index(move)
    # replay up to the bot's discard to learn its hand, then make it discard another card it holds:
    # a legal move, only not the one the bot plays
    game = daily_game(daily_seed(SECRET, clock.today), "Ada")
    for m in record["moves"][:index]:
        game.state.push(m["move"], m["seat"])
    held = {str(c) for c in game.state.hand(1)}
    other = sorted(held - {move["move"].split()[1]})[0]

    def change_bot(record: dict[str, Any]) -> None:
        record["moves"][index]["move"] = f"discard {other}"

    tamper(rdb, aid, change_bot)
    assert rejected(rdb, rankings, aid) == f"bot_mismatch at move {index}"


def test_a_wrong_score_in_the_record_is_rejected(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    aid = finished_attempt(client, clock)

    def inflate(record: dict[str, Any]) -> None:
        record["result"]["round_scores"][0] += 500

    tamper(rdb, aid, inflate)
    assert rejected(rdb, rankings, aid) == "score_mismatch"


def test_a_wrong_live_score_is_rejected(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    aid = finished_attempt(client, clock)
    key = keys.attempt(aid)
    rdb.hset(key, "score", int(rdb.hget(key, "score") or 0) + 1)
    assert rejected(rdb, rankings, aid) == "score_mismatch"


def test_a_truncated_record_is_rejected(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    aid = finished_attempt(client, clock)

    def truncate(record: dict[str, Any]) -> None:
        del record["moves"][-3:]

    tamper(rdb, aid, truncate)
    assert rejected(rdb, rankings, aid) == "score_mismatch"


def test_verifying_twice_ranks_once_and_unfinished_fails_loudly(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    aid = finished_attempt(client, clock)
    assert verify(rdb, aid, SECRET, rankings)["new"] is True
    assert verify(rdb, aid, SECRET, rankings) == {
        "attempt_id": aid,
        "status": "verified",
        "new": False,
    }
    player = rdb.hget(keys.attempt(aid), "player")
    assert rankings.hget(f"pd:player:{player}", "days") == "1"
    assert rankings.zcard("pd:day:2026-11-30:rank") == 1
    clock.advance(days=1)
    playing, _ = start(client, clock.today)
    with pytest.raises(AttemptNotFinished):
        verify(rdb, playing["id"], SECRET, rankings)
    with pytest.raises(AttemptNotFinished):
        verify(rdb, "no-such-attempt", SECRET, rankings)


def test_a_record_from_another_engine_fails_the_job_without_a_verdict(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    aid = finished_attempt(client, clock)

    def older(record: dict[str, Any]) -> None:
        record["engine"] = "pikdame-engine/rules-1/bots-0"

    tamper(rdb, aid, older)
    with pytest.raises(EngineMismatch):
        verify(rdb, aid, SECRET, rankings)
    assert rdb.hget(keys.attempt(aid), "verification") == "queued"
