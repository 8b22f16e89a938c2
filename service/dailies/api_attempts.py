"""An attempt: reading it, playing moves (the bots answer), its record, and a hint.

The routes serve every daily game (issue 14): the attempt knows its game; a Gin attempt's moves
are G8 notation and its documents are docs/GIN_DAILY.md's."""

from __future__ import annotations

from typing import Any

import redis
from flask import Response, current_app, jsonify, request

from engine import gin, view
from service.common import clock, keys
from service.dailies import models, present, queue, store, verdicts
from service.dailies.models import AttemptPath, MoveBody, WaitQuery
from service.errors import ApiError
from service.games import dailies
from service.web import identity, outputs
from service.web.apidoc import api_blueprint
from service.web.limits import counted_read, limit_moves, read_pipeline
from service.web.redisconn import acknowledge, get_queue, get_redis, settings
from service.web.validation import checks_first

bp = api_blueprint("attempts", __name__, "/api/attempts", authorised=True)


def _load(attempt_id: str) -> store.Attempt:
    attempt = store.load(get_redis(), attempt_id)
    if attempt is None:
        raise ApiError(404, "unknown_attempt", "no such attempt")
    return attempt


def _readable(attempt_id: str) -> store.Attempt:
    """The attempt if the caller may read it: 404, then 401/403 (API.md)."""
    attempt = _load(attempt_id)
    identity.require_reader(attempt)
    return attempt


@bp.get(
    "/<id:attempt_id>",
    responses=outputs.answers(models.AttemptDoc, 401, 403, 404),
)
@counted_read
def get_attempt(path: AttemptPath) -> Response:
    """An attempt (its owner; anyone once finished and its day closed)."""
    client = get_redis()
    key = keys.attempt(path.attempt_id)
    pipe, count = read_pipeline(client)
    if request.if_none_match:
        # The client has a copy: its owner check and entity tag from the attempt's head (a few
        # short fields), and only when the tag differs the whole hash (issue 16's 304 path).
        pipe.hmget(key, store.HEAD_FIELDS)
        (values,) = count.check(pipe.execute())
        head = store.AttemptHead.from_values(values)
        if head is None:
            raise ApiError(404, "unknown_attempt", "no such attempt")
        identity.require_reader(head)
        tag = present.attempt_etag(head)
        if request.if_none_match.contains(tag):
            return _private(Response(status=304), tag)
        stored = client.hgetall(key)
    else:
        pipe.hgetall(key)
        (stored,) = count.check(pipe.execute())
    if not stored:
        raise ApiError(404, "unknown_attempt", "no such attempt")
    attempt = store.Attempt.from_hash(stored)
    identity.require_reader(attempt)
    # Unchanged since the client's copy (same seq, same verdict and rank): 304, without parsing
    # the game or building the view (issue 16).
    tag = present.attempt_etag(attempt)
    if request.if_none_match.contains(tag):
        return _private(Response(status=304), tag)
    return _private(jsonify({"attempt": present.attempt_json(client, attempt)}), tag)


def _private(response: Response, tag: str) -> Response:
    """The view's validators: the browser keeps it and asks again with the tag; no proxy
    stores it."""
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get(
    "/<id:attempt_id>/verification",
    responses=outputs.answers(models.VerificationDoc, 401, 403, 404, 422),
)
@checks_first(_readable)
def get_verification(path: AttemptPath, query: WaitQuery) -> Response:
    """The attempt's verification, waiting up to ``wait`` seconds for the verdict.

    Answers as soon as the verification is no longer ``queued`` (or at once when it is not
    queued, or ``wait`` is 0), else with ``queued`` after ``wait`` seconds: ask again then.
    When too many requests of the server are already waiting it answers at once with a
    ``Retry-After`` header: ask again after that many seconds. Same readers as the attempt.
    """
    attempt = _readable(path.attempt_id)
    retry_after = None
    if query.wait and attempt.verification == "queued":
        with verdicts.waiters().slot() as allowed:
            if allowed:
                verdicts.wait(get_redis(), attempt.id, query.wait)
                attempt = _load(attempt.id)
            else:
                retry_after = verdicts.RETRY_AFTER
    response = jsonify({"verification": present.verification_json(get_redis(), attempt)})
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


@bp.post(
    "/<id:attempt_id>/moves",
    responses=outputs.answers(models.Played, 400, 401, 403, 404, 409, 413, 415, 422),
)
@limit_moves()
def post_move(path: AttemptPath, body: MoveBody) -> Response:
    """Play a move (F2); the bots answer until it is your turn again or the round ends.

    Checks in API.md's order: 400 body (MoveBody), 404, 401/403 owner, 409 stale / day closed,
    422 move. The attempt is read once (under WATCH, in store.play) and its game parsed once.
    """
    attempt_id, move, seq = path.attempt_id, body.move, body.seq
    config = settings()

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
    played = store.play(client, attempt_id, seq, move, now_ms, check)
    if played is None:
        raise ApiError(404, "unknown_attempt", "no such attempt")
    updated, game, events, finished = played
    if finished and updated.ranked:
        try:
            queue.enqueue_verify(get_queue(), attempt_id)
        except redis.RedisError:
            # The attempt is in the finished set: the reconciler will queue it.
            current_app.logger.warning("could not enqueue verification for %s", attempt_id)
    acknowledge()  # the replicas have the move before the player is told (deploy/SCALING.md)
    if updated.kind == dailies.GIN:
        # As seat 0 saw them: the bot's knock card is face down (G6, GIN_DECISIONS D15).
        return jsonify(
            {
                "attempt": present.gin_attempt_json(client, updated, game),
                "events": [{"seat": s, "move": m} for s, m in gin.public_moves(events, 0)],
            }
        )
    # The moves as seat 0 saw them (R10): a bot's face-down going-out card stays hidden (R4.3).
    seat_view = view(game.state, 0)
    seen = seat_view.history
    answer: dict[str, Any] = {
        "attempt": present.attempt_json(client, updated, seat_view),
        "events": [{"seat": s, "move": m} for s, m in seen[len(seen) - len(events) :]],
    }
    return jsonify(answer)


@bp.get("/<id:attempt_id>/log", responses=outputs.answers(models.Record, 401, 403, 404, 409))
def get_log(path: AttemptPath) -> Response:
    """The game record (F6) once finished; ``deal.seed`` is null until the day has closed."""
    attempt = _readable(path.attempt_id)
    if attempt.status != "finished":
        raise ApiError(409, "not_finished", "the record is available once the round has ended")
    if attempt.kind == dailies.GIN:
        return jsonify(gin_log(attempt))
    seed = present.seed_if_published(attempt.date, settings())
    if seed is not None:
        return jsonify(attempt.game.to_record(bytes.fromhex(seed)))
    # Before the day closes the record can't be replayed anyway (no seed): it shows the moves as
    # the player saw them, without a bot's face-down going-out card (R4.3).
    record = attempt.game.to_record(None)
    record["moves"] = [{"seat": s, "move": m} for s, m in view(attempt.game.state, 0).history]
    return jsonify(record)


def gin_log(attempt: store.Attempt) -> dict[str, Any]:
    """A finished Gin attempt's ``gin-log/1``: complete with its seed once the day has closed;
    before, without the seed and with the bot's face-down knock cards as ``??`` (G6)."""
    match = attempt.match
    if present.seed_if_published(attempt.date, settings(), dailies.GIN) is not None:
        return match.to_record(reveal_seed=True)
    record = match.to_record(reveal_seed=False)
    record["moves"] = [{"seat": s, "move": m} for s, m in gin.public_moves(match.moves, 0)]
    return record


@bp.get("/<id:attempt_id>/hint", responses=outputs.answers(models.Hint, 401, 403, 404, 409))
def get_hint(path: AttemptPath) -> Response:
    """The moves laying the most points from your hand now (owner, your play phase)."""
    attempt = _load(path.attempt_id)
    identity.require_owner(attempt)
    if attempt.kind != dailies.PIKDAME:  # Gin's view carries its help (deadwood, suggestion)
        raise ApiError(409, "wrong_phase", "a hint is available in Pik Dame's play phase")
    seat_view = view(attempt.game.state, 0)
    if seat_view.outcome is not None or seat_view.turn != 0 or seat_view.phase != "play":
        raise ApiError(409, "wrong_phase", "a hint is available in your play phase")
    # Imported lazily: the optimiser is heavy to import.
    from engine.pikdame.optimiser import HINT, best_arrangement

    # A web worker waits for this: the hint's small deterministic budget keeps it under 50 ms;
    # past it the answer is the best found, marked as not proven optimal (issue 16).
    best = best_arrangement(seat_view.hand, seat_view.melds[0], HINT)
    return jsonify(
        {"moves": [str(m) for m in best.moves], "points": best.points, "exact": best.exact}
    )
