"""An attempt: reading it, playing moves (the bots answer), its record, and a hint."""

from __future__ import annotations

from typing import Any

import redis
from flask import Blueprint, Response, current_app, jsonify

from engine import view
from service import clock, identity, keys, present, queue, store
from service.errors import ApiError
from service.limits import counted_read, limiter, moves_limit, per_attempt_key, read_pipeline
from service.redisconn import get_queue, get_redis
from service.requests import json_object

bp = Blueprint("attempts", __name__, url_prefix="/api/attempts")


def _load(attempt_id: str) -> store.Attempt:
    attempt = store.load(get_redis(), attempt_id) if len(attempt_id) <= 64 else None
    if attempt is None:
        raise ApiError(404, "unknown_attempt", "no such attempt")
    return attempt


@bp.get("/<attempt_id>")
@counted_read
def get_attempt(attempt_id: str) -> Response:
    client = get_redis()
    pipe, count = read_pipeline(client)
    pipe.hgetall(keys.attempt(attempt_id))
    (stored,) = count.check(pipe.execute()) if len(attempt_id) <= 64 else ({},)
    if not stored:
        raise ApiError(404, "unknown_attempt", "no such attempt")
    attempt = store.Attempt.from_hash(stored)
    identity.require_reader(attempt)
    return jsonify({"attempt": present.attempt_json(get_redis(), attempt)})


def _move_body() -> tuple[str, int]:
    body = json_object()
    move, seq = body.get("move"), body.get("seq")
    if not isinstance(move, str) or type(seq) is not int:
        raise ApiError(400, "bad_request", 'the body is {"move": "<F2>", "seq": <int>}')
    if len(move) > 400:
        raise ApiError(400, "bad_request", "a move is at most 400 characters")
    return move, seq


@bp.post("/<attempt_id>/moves")
@limiter.limit(moves_limit, key_func=per_attempt_key)
def post_move(attempt_id: str) -> Response:
    """Apply the player's move, then the bots' until the player moves again or the round ends.
    Checks in API.md's order: 400 body, 404, 401/403 owner, 409 stale / day closed, 422 move.
    The attempt is read once (under WATCH, in store.play) and its game parsed once."""
    move, seq = _move_body()
    config = current_app.config

    def check(attempt: store.Attempt) -> None:
        identity.require_owner(attempt)
        if attempt.seq != seq:
            raise ApiError(
                409, "stale", f"seq {seq} is not current ({attempt.seq})", seq=attempt.seq
            )
        if attempt.ranked and clock.is_closed(attempt.date, config):
            raise ApiError(409, "day_closed", "this day and its grace period are over")

    now_ms = int(clock.now(config).timestamp() * 1000)
    client = get_redis()
    played = (
        store.play(client, attempt_id, seq, move, now_ms, check) if len(attempt_id) <= 64 else None
    )
    if played is None:
        raise ApiError(404, "unknown_attempt", "no such attempt")
    updated, game, events, finished = played
    if finished and updated.ranked:
        try:
            queue.enqueue_verify(get_queue(), attempt_id)
        except redis.RedisError:
            # The attempt is in the finished set: the reconciler will queue it.
            current_app.logger.warning("could not enqueue verification for %s", attempt_id)
    # The moves as seat 0 saw them (R10): a bot's face-down going-out card stays hidden (R4.3).
    seat_view = view(game.state, 0)
    seen = seat_view.history
    body: dict[str, Any] = {
        "attempt": present.attempt_json(client, updated, seat_view),
        "events": [{"seat": s, "move": m} for s, m in seen[len(seen) - len(events) :]],
    }
    return jsonify(body)


@bp.get("/<attempt_id>/log")
def get_log(attempt_id: str) -> Response:
    """The game record (F6) once finished; its seed only after the day has closed."""
    attempt = _load(attempt_id)
    identity.require_reader(attempt)
    if attempt.status != "finished":
        raise ApiError(409, "not_finished", "the record is available once the round has ended")
    seed = present.seed_if_published(attempt.date, current_app.config)
    if seed is not None:
        return jsonify(attempt.game.to_record(bytes.fromhex(seed)))
    # Before the day closes the record can't be replayed anyway (no seed): it shows the moves as
    # the player saw them, without a bot's face-down going-out card (R4.3).
    record = attempt.game.to_record(None)
    record["moves"] = [{"seat": s, "move": m} for s, m in view(attempt.game.state, 0).history]
    return jsonify(record)


@bp.get("/<attempt_id>/hint")
def get_hint(attempt_id: str) -> Response:
    """The arrangement laying the most points from the player's hand now (owner, play phase)."""
    attempt = _load(attempt_id)
    identity.require_owner(attempt)
    seat_view = view(attempt.game.state, 0)
    if seat_view.outcome is not None or seat_view.turn != 0 or seat_view.phase != "play":
        raise ApiError(409, "wrong_phase", "a hint is available in your play phase")
    # Imported lazily: the optimiser is heavy to import.
    from engine.pikdame.optimiser import best_arrangement

    best = best_arrangement(seat_view.hand, seat_view.melds[0])
    return jsonify({"moves": [str(m) for m in best.moves], "points": best.points})
