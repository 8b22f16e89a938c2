"""An attempt: reading it, playing moves (the bots answer), its record, and a hint.

The routes serve every daily game: the attempt knows its game, whose adapter (service.games)
plays its moves and writes its view and record (a Gin attempt's are docs/GIN_DAILY.md's). The
routes read the stores and hand the facts to the presenter (service.dailies.present)."""

from __future__ import annotations

from typing import Any

import redis
from flask import Response, current_app, jsonify, request

from service import games
from service.common import clock, keys
from service.dailies import (
    analyses,
    early_views,
    models,
    present,
    queue,
    ranking,
    store,
    verdicts,
)
from service.dailies.models import AnalysisQuery, AttemptPath, MoveBody, WaitQuery
from service.errors import ApiError, NoHint
from service.web import identity, outputs, pending
from service.web.apidoc import api_blueprint
from service.web.limits import admit_analysis, counted_read, limit_moves, read_pipeline
from service.web.redisconn import (
    acknowledge,
    get_analysis_queue,
    get_queue,
    get_rankings,
    get_redis,
    settings,
)
from service.web.validation import checks_first

bp = api_blueprint("attempts", __name__, "/api/attempts", authorised=True)


def _load(attempt_id: str) -> store.Attempt:
    attempt = store.load(get_redis(), attempt_id)
    if attempt is None:
        raise ApiError(404, "unknown_attempt", "no such attempt")
    return attempt


def verified_rank(attempt: store.Attempt | store.AttemptHead) -> int | None:
    """A verified ranked attempt's place on its day's board (read from the rankings), else
    None without a read."""
    if not (attempt.ranked and attempt.verification == "verified"):
        return None
    return ranking.rank_of(get_rankings(), attempt.date, attempt.id, attempt.kind)


def _json(attempt: store.Attempt, rank: int | None) -> dict[str, Any]:
    """``A`` with seat 0's view of the stored game."""
    return present.attempt_json(attempt, attempt.daily.seat_view(attempt.played), rank)


def _readable(attempt_id: str) -> store.Attempt:
    """The attempt if the caller may read it: 404, then 401/403 (API.md)."""
    attempt = _load(attempt_id)
    identity.require_reader(attempt)
    return attempt


def verify_queue() -> queue.VerifyQueue:
    """The verification queue the app built (service.app: the platform holds it as an RQ Queue)."""
    q = get_queue()
    assert isinstance(q, queue.VerifyQueue)
    return q


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
        # short fields), and only when the tag differs the whole hash (the 304 path).
        pipe.hmget(key, store.HEAD_FIELDS)
        (values,) = count.check(pipe.execute())
        head = store.AttemptHead.from_values(values)
        if head is None:
            raise ApiError(404, "unknown_attempt", "no such attempt")
        identity.require_reader(head)
        tag = present.version_tag(head, verified_rank(head))
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
    # the game or building the view.
    rank = verified_rank(attempt)
    tag = present.version_tag(attempt, rank)
    if request.if_none_match.contains(tag):
        return _private(Response(status=304), tag)
    response = _view_answer(_json(attempt, rank))
    if early_views.answers(attempt) and _asks_early():
        store.save_view(client, attempt.id, tag, response.get_data(as_text=True))
    return _private(response, tag)


def _view_answer(doc: dict[str, Any]) -> Response:
    """GET /api/attempts/{id}'s answer for the attempt document ``A``, built in one place: the
    view a move stores is then byte for byte the view Flask renders."""
    return jsonify({"attempt": doc})


def _asks_early() -> bool:
    """A client whose next read of its view is answered before Flask (service.dailies.
    early_views): only for it is a view worth storing."""
    return early_views.asks_early(
        request.headers.get("Authorization"), request.headers.get("Cookie")
    )


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
    verification = present.verification_json(attempt, verified_rank(attempt))
    response = jsonify({"verification": verification})
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
    rendered: dict[str, Any] = {}

    def render(
        updated: store.Attempt, game: Any, events: list[tuple[int, str]]
    ) -> tuple[str, str] | None:
        """The view and the moves as seat 0 saw them (R10): a bot's face-down card stays hidden
        (R4.3, G6), from the game just played (not parsed again); its JSON is stored with the
        move as GET /api/attempts/{id}'s body, the read a reload or poll makes next."""
        seat_view, seen = updated.daily.played_view(game, events)
        rank = verified_rank(updated)
        rendered["attempt"], rendered["seen"] = present.attempt_json(updated, seat_view, rank), seen
        if not (early_views.answers(updated) and _asks_early()):
            return None
        body = _view_answer(rendered["attempt"]).get_data(as_text=True)
        return present.version_tag(updated, rank), body

    played = store.play(client, attempt_id, seq, move, now_ms, check, render)
    if played is None:
        raise ApiError(404, "unknown_attempt", "no such attempt")
    updated = played.attempt
    if played.finished and updated.ranked:
        try:
            queue.enqueue_verify(verify_queue(), attempt_id)
        except redis.RedisError:
            # The attempt is in the finished set: the reconciler will queue it.
            current_app.logger.warning("could not enqueue verification for %s", attempt_id)
    acknowledge()  # the replicas have the move before the player is told (deploy/SCALING.md)
    answer: dict[str, Any] = {
        "attempt": rendered["attempt"],
        "events": [{"seat": s, "move": m} for s, m in rendered["seen"]],
    }
    return jsonify(answer)


@bp.get("/<id:attempt_id>/log", responses=outputs.answers(models.Record, 401, 403, 404, 409))
def get_log(path: AttemptPath) -> Response:
    """The game record (F6) once finished; ``deal.seed`` is null until the day has closed."""
    attempt = _readable(path.attempt_id)
    if attempt.status != "finished":
        raise ApiError(409, "not_finished", "the record is available once the round has ended")
    # Before the day closes the record can't be replayed anyway (no seed): it shows the moves
    # as the player saw them, without a bot's face-down card (R4.3, G6).
    config = settings()
    closed = clock.is_closed(attempt.date, config)  # an event deal's date closes with its event
    seed = store.attempt_seed(attempt, config.secret) if closed else None
    return jsonify(attempt.daily.daily_record(attempt.played, seed))


@bp.get("/<id:attempt_id>/hint", responses=outputs.answers(models.Hint, 401, 403, 404, 409))
def get_hint(path: AttemptPath) -> Response:
    """The moves laying the most points from your hand now (owner, your play phase)."""
    attempt = _load(path.attempt_id)
    identity.require_owner(attempt)
    try:
        return jsonify(attempt.daily.daily_hint(attempt.played))
    except NoHint as e:
        raise ApiError(409, e.code, e.message) from None


def _analysable(attempt_id: str, mode: str = "view") -> store.Attempt:
    """The attempt if the caller may read its analysis in ``mode``: 404, then 401/403 (the
    owner; anyone once the day has closed, like replays), then 409: never of a running game,
    only of a verified one, and on the real deal only once the day has closed (its seed is
    secret until then, F4)."""
    attempt = _readable(attempt_id)
    if not games.offers(attempt.kind, games.ANALYSIS):  # a game that declares none
        raise ApiError(404, "not_found", "this game has no analysis")
    if attempt.status != "finished":
        raise ApiError(409, "not_finished", "a game is analysed once it has ended")
    if attempt.verification != "verified":
        raise ApiError(409, "not_verified", "a game is analysed once it is verified")
    if mode == "deal" and not clock.is_closed(attempt.date, settings()):
        raise ApiError(409, "day_open", "the real deal is analysed once its day has closed")
    return attempt


@bp.get(
    "/<id:attempt_id>/analysis",
    responses={
        **outputs.answers(models.Analysis, 401, 403, 404, 409, 422),
        202: models.AnalysisQueued,
    },
)
@checks_first(_analysable)
def get_analysis(path: AttemptPath, query: AnalysisQuery) -> Response:
    """The analysis of your verified attempt (docs/ANALYSIS.md): ``view`` mode from what you saw,
    ``deal`` mode on the real deal once the day has closed; anyone's once its day has closed.
    A Gin match's hand by ``?hand=N`` (default 1; 404 ``unknown_hand`` past its last).
    202 ``{"status": "queued"}`` while it is computed (ask again in a moment), then 200; 503
    ``analysis_failed`` once when its job failed (ask again: it is queued anew)."""
    attempt = _analysable(path.attempt_id, query.mode)
    analysis = attempt.analysis
    word = analysis.part_name
    asked = {"round": query.round, "hand": query.hand}
    if any(n is not None for w, n in asked.items() if w != word):
        raise ApiError(422, "bad_value", f"this game's analysis takes ?{word}=N")
    part = asked[word] or 1
    if part > analysis.daily_parts(attempt.played):
        raise ApiError(404, f"unknown_{word}", f"the game has no such {word}")
    return pending.analysis_answer(
        analyses.cached(get_redis(), attempt, query.mode, part),
        lambda: analyses.enqueue(get_analysis_queue(), attempt, query.mode, part, admit_analysis),
    )
