"""Verify a finished attempt by replaying its record from the day's seed, then rank it once.

Flask-free and clock-free: the verdict depends only on Redis' contents and the secret.
"""

from __future__ import annotations

import json
from typing import Any, cast

import redis

from engine import ENGINE_VERSION, ReplayError, daily_game, daily_seed, replay
from service.data import field, history, keys, owners, ranking, store, streaks
from service.data.clock import opens_at


class NotReady(RuntimeError):
    """The attempt does not exist or is not finished: the job fails (RQ's failed registry)."""


class EngineMismatch(RuntimeError):
    """The record was played with other bots than this worker's engine: no verdict is possible
    here, so the job fails loudly instead of rejecting an honest player (deploy a matching
    worker, then requeue)."""


# The parts of a record (F6) that R11 fixes for everyone on a day: nothing in them is the
# player's choice, so a record that differs in any of them is forged, whatever its moves.
SETUP_FIELDS = ("rules", "seats", "deal")
GAME = "pikdame"  # the daily game this verifier judges (streaks and statistics per game)


def setup_mismatch(record: dict[str, Any], seed: bytes, name: str) -> str | None:
    """The first part of the record's setup that is not the day's (R11: rules with
    ``hand_out_double``, the player in seat 0 and zen bots in seats 1–3, dealer 3, the automatic
    cut of the day's seed), or None."""
    day = daily_game(seed, name).to_record()
    for part in SETUP_FIELDS:
        if record.get(part) != day[part]:
            return part
    return None


def judge(attempt: store.Attempt, secret: bytes) -> tuple[str, int | None, int | None, str | None]:
    """(status, score, turns, reason): pin the record to the day's setup (R11), replay every
    move from the day's seed, every bot move recomputed (engine.replay), then compare the
    replay's score with the live one."""
    record = json.loads(attempt.game_json)["record"]
    if record.get("engine") != ENGINE_VERSION:
        raise EngineMismatch(f"record engine {record.get('engine')!r}, worker {ENGINE_VERSION!r}")
    seed = daily_seed(secret, attempt.date)
    field = setup_mismatch(record, seed, attempt.name)
    if field is not None:
        return "rejected", None, None, f"setup_mismatch in {field}"
    try:
        game = replay(record, seed)
    except ReplayError as e:
        where = "" if e.move_index is None else f" at move {e.move_index}"
        # The code only: an engine message may name a bot's hidden card before the day closes.
        return "rejected", None, None, f"{e.code}{where}"
    outcome = game.state.outcome
    if outcome is None:
        return "rejected", None, None, "not_finished"
    score = outcome.round_scores[0]
    if score != attempt.score:
        return "rejected", None, None, "score_mismatch"
    return "verified", score, store.player_turns(game), None


def verify(client: redis.Redis[str], attempt_id: str, secret: bytes) -> dict[str, Any]:
    """Judge and record the verdict; a second run finds the verdict and changes nothing."""
    key = keys.attempt(attempt_id)

    def record_verdict(pipe: redis.client.Pipeline[str]) -> dict[str, Any]:
        h = cast(dict[str, str], pipe.hgetall(key))
        if not h:
            raise NotReady(f"no attempt {attempt_id}")
        attempt = store.Attempt.from_hash(h)
        if attempt.status != "finished" or not attempt.ranked:
            raise NotReady(f"attempt {attempt_id} is not a finished ranked attempt")
        if attempt.verification in ("verified", "rejected"):
            return {"attempt_id": attempt_id, "status": attempt.verification, "new": False}
        status, score, turns, reason = judge(attempt, secret)
        player_key = keys.player(attempt.player)
        pipe.watch(player_key)
        best = cast(str | None, pipe.hget(player_key, "best"))
        owner = owners.owner_of(pipe, attempt.player)
        pipe.multi()
        pipe.zrem(keys.FINISHED, attempt_id)
        if status == "verified":
            assert score is not None and turns is not None
            pipe.hset(key, mapping={"verification": "verified", "turns": str(turns)})
            finished_ms = (attempt.finished_ms or 0) - _ms(attempt.date)
            pipe.zadd(
                keys.day_rank(attempt.date),
                {attempt_id: ranking.rank_key(score, turns, finished_ms)},
            )
            pipe.hset(keys.day_names(attempt.date), attempt_id, attempt.name)
            pipe.zincrby(keys.ALLTIME, score, attempt.player)
            pipe.hset(player_key, "name", attempt.name)
            pipe.hincrby(player_key, "days", 1)
            if best is None or score > int(best):
                pipe.hset(player_key, "best", str(score))
            # The daily habit (issue 13), in the verdict's transaction: a retried job finds the
            # verdict above and adds nothing twice.
            field.add(pipe, attempt.date, score)
            history.record(pipe, owner, GAME, attempt.date, score, attempt.name)
            streaks.advance(pipe, owner, GAME, attempt.date)
        else:
            pipe.hset(key, mapping={"verification": "rejected", "reason": reason or ""})
        pipe.publish(keys.verdict_channel(attempt_id), status)  # for whoever waits on it
        return {"attempt_id": attempt_id, "status": status, "new": True}

    return store.transaction(client, record_verdict, key)


def _ms(date: str) -> int:
    return int(opens_at(date).timestamp() * 1000)
