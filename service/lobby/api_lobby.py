"""The lobby, the quick match and the ratings boards (docs/LOBBY.md): play with strangers.

``GET /api/lobby`` (and its stream) lists the public tables; a public table is joined by id
through the tables' routes (``POST /api/tables/{id}/join``). ``/api/match`` queues the caller for
a quick match (:mod:`service.lobby.matcher`): each request on it also runs its pool's matching
step, so a match needs no worker; the worker's sweep and the ticket's stream run steps too.
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Any, Final, cast

import redis
from flask import Response, current_app, jsonify

from service.common import clock, connect, keys
from service.common.ownership import Account
from service.errors import ApiError
from service.games import GAMES
from service.lobby import matcher, models, present, stream
from service.lobby.matcher import Pool, Seeker
from service.lobby.models import BoardQuery, GamePath, LobbyQuery, MatchBody
from service.tables import public, ratings, stream_leases, timers
from service.tables.store import Lifetimes, Table
from service.tables.stream import caps
from service.web import idempotency, identity, limits, outputs
from service.web.apidoc import api_blueprint
from service.web.envelope import error_response
from service.web.redisconn import get_redis, settings

bp = api_blueprint("lobby", __name__, "/api", authorised=True)
TIMER_QUEUE = "pikdame_lobby_timers"


def _now_ms() -> int:
    return int(clock.now(settings()).timestamp() * 1000)


def _lifetimes() -> Lifetimes:
    config = settings()
    return Lifetimes(config.table_idle_hours * 3600, config.table_keep_days * 86400)


def _scheduler() -> matcher.Schedule:
    """Schedules a matched table's first turn timer (docs/TABLES.md "Turn timer"), also from a
    stream's generator after the request's context is gone."""
    config = settings()
    q = current_app.extensions.get(TIMER_QUEUE)
    if q is None:
        q = current_app.extensions[TIMER_QUEUE] = timers.queue_on(
            connect.client(config, config.redis_queue_url, text=False), config.table_queue
        )

    def schedule(table: Table) -> None:
        assert table.deadline_ms is not None
        now = int(clock.now(config).timestamp() * 1000)
        with contextlib.suppress(redis.RedisError):  # the reconciler finds the turn anyway
            timers.schedule(q, table.id, table.seq, table.deadline_ms, now)

    return schedule


def _stream_response(body: Any) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _too_many_streams() -> Response:
    response = error_response(
        429, "too_many_streams", "this address holds its most live streams at once: close one"
    )
    response.headers["Retry-After"] = str(max(1, settings().heartbeat_seconds))
    return response


#: One event of a stream (before OpenAPI 3.2, a text/event-stream's schema describes each event):
#: its name, its JSON document as text, and the reconnect delay of the first.
SSE_EVENT: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "event": {"type": "string", "enum": ["lobby", "match"]},
        "data": {"type": "string", "description": "the event's JSON document"},
        "id": {"type": "string"},
        "retry": {"type": "integer"},
    },
}

STREAM_429 = {
    "description": "rate limited, or this address holds its most live streams "
    "(too_many_streams): ask again after Retry-After",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    "headers": {"Retry-After": {"schema": {"type": "integer"}}},
}


def _address_lease(name: str) -> tuple[stream_leases.Lease, bool]:
    """A lobby or ticket stream's lease in its address's set (the tables' cap per address)."""
    config = settings()
    lease = stream_leases.Lease(name, 0, limits.client_address(), secrets.token_hex(8))
    limit = caps(config)
    until = _now_ms() + limit.valid_ms
    taken = get_redis().eval(  # type: ignore[no-untyped-call]
        stream_leases.TAKE,
        1,
        keys.stream_address(lease.address),
        _now_ms(),
        until,
        limit.per_address,
        lease.address_member,
        "",
        limit.expiry_s,
    )
    return lease, bool(taken)


# --- the lobby ---------------------------------------------------------------------------------


@bp.get("/lobby", responses=outputs.answers(models.Lobby, 422))
def get_lobby(query: LobbyQuery) -> Response:
    """The lobby: public tables waiting for players (game, rules and house rules, timer, free
    seats, the seated players' names and ratings), public tables playing (who is connected or
    away, whose turn it is), the quick match's queue per game and how many are online."""
    return jsonify(present.lobby(get_redis(), _now_ms(), query.game, query.limit))


@bp.get(
    "/lobby/events",
    responses={
        200: {
            "description": models.LobbyStream.__doc__ or "",
            "content": {"text/event-stream": {"schema": SSE_EVENT}},
        },
        **outputs.errors(422),
        429: STREAM_429,
    },
)
def lobby_events(query: LobbyQuery) -> Response:
    """The lobby's live stream (Server-Sent Events): the lobby at once and on every change."""
    config = settings()
    lease, taken = _address_lease("lobby")
    if not taken:
        return _too_many_streams()
    client = get_redis()

    def now_ms() -> int:
        return int(clock.now(config).timestamp() * 1000)

    body = stream.lobby(client, lease.stream, query.game, query.limit, config, now_ms)
    response = _stream_response(body)
    response.call_on_close(lambda: _release(client, lease))
    return response


def _release(client: redis.Redis[str], lease: stream_leases.Lease) -> None:
    with contextlib.suppress(redis.RedisError):
        client.zrem(keys.stream_address(lease.address), lease.address_member)


# --- quick match -------------------------------------------------------------------------------


def _caller_player() -> str | None:
    account = identity.signed_in()
    return account.player if account is not None else identity.session_player()


def _ticket() -> dict[str, str]:
    player = _caller_player()
    if player is None:
        raise ApiError(401, "unauthorized", "the quick match knows you by your session")
    found = matcher.current(get_redis(), player)
    if found is None:
        raise ApiError(404, "not_queued", "you are not in the quick match")
    return found


def _doc(ticket: dict[str, str]) -> dict[str, Any]:
    return {"match": present.match(get_redis(), ticket, _now_ms())}


def _same_request(found: dict[str, str], pool: Pool, body: MatchBody) -> bool:
    """The live ticket was asked for with this request (the same pool, name and wait)."""
    bots_after = -1 if body.bots_after is None else body.bots_after * 1000
    return (
        found.get("pool") == pool.name
        and found.get("name") == body.name
        and found.get("bots_after") == str(bots_after)
    )


def _live(
    client: redis.Redis[str], found: dict[str, str], pool: Pool, body: MatchBody, now: int
) -> dict[str, str] | None:
    """Issue 38: a join asked again while the player's ticket is live gets that ticket back,
    waiting or matched with its table, never a second one: the same request (a retry, a double
    POST) its ticket, another one 409 (``already_queued``, or ``already_matched`` with ``M``).
    None: the ticket is over (left, expired, its matched game finished or its seat left)."""
    if found.get("status") == "waiting":
        if not _same_request(found, pool, body):
            raise ApiError(
                409, "already_queued", "you wait in the quick match already", match=found["id"]
            )
        matcher.keep_alive(client, found["id"], now)
        matcher.step_and_build(client, pool.name, _lifetimes(), now, _scheduler())
        return matcher.ticket(client, found["id"]) or found
    seated = matcher.held(client, found, _lifetimes(), now, _scheduler())
    if seated is not None and not _same_request(seated, pool, body):
        raise ApiError(
            409,
            "already_matched",
            "your quick match found a table whose game is not over",
            match=present.match(client, seated, now),
        )
    return seated


@bp.post(
    "/match",
    responses={
        **outputs.answers(models.MatchDoc, 400, 401, 403, 409, 413, 415, 422, status=201),
        200: models.MatchDoc,
    },
)
@limits.limit_table_entries(limits.joins_limit)
def join_match(body: MatchBody) -> tuple[Response, int]:
    """Enter the quick match: seated with waiting players of similar rating (the range widens
    as you wait); after ``bots_after`` seconds bots fill the free seats (null: keep waiting).
    Asked again while your ticket is live (waiting, or matched and its game not over): 200 with
    that ticket and its table, never a second seat; without a session, an ``Idempotency-Key``
    header makes a retry answer the ticket made first (docs/TABLES.md). 403
    ``account_required`` (rated, not signed in); 409 ``already_queued`` (you wait already for
    something else: its ``match`` id in the error) or ``already_matched`` (your matched table's
    game is not over: ``M`` in ``match``); 422 ``bad_value`` (seats the game has not, a rated
    match without a timer). Poll ``GET /api/match`` or stream ``/api/match/events`` at least
    every 15 s, or the ticket lapses (30 s)."""
    account = identity.signed_in()
    if body.rated and account is None:
        raise ApiError(403, "account_required", "a rated match seats signed-in accounts")
    kind = GAMES[body.game]
    if body.seats not in kind.seat_counts:
        counts = ", ".join(str(n) for n in kind.seat_counts)
        raise ApiError(422, "bad_value", f"a {body.game} table has {counts} seats")
    if body.rated and not body.turn_timer:
        raise ApiError(422, "bad_value", "a rated match is timed: choose a turn_timer")
    client = get_redis()

    def make() -> dict[str, str]:
        player = _caller_player() or identity.player_for_new_attempt()
        ticket_id, status = _join(client, player, body, account)
        return {"ticket": ticket_id, "player": player, "status": str(status)}

    def answer(made: dict[str, str]) -> tuple[Response, int]:
        identity.remember(made["player"])  # a retry whose first answer (and cookie) was lost
        found = matcher.ticket(client, made["ticket"])
        if found is None:
            raise ApiError(404, "not_queued", "you are not in the quick match")
        return jsonify(_doc(found)), int(made["status"])

    response, status = idempotency.once("match", body, make, answer)
    response.status_code = status
    return cast(Response, response), status


def _join(
    client: redis.Redis[str], player: str, body: MatchBody, account: Account | None
) -> tuple[str, int]:
    """The player's ticket for this request: its live one (200) or a new one (201)."""
    skill = ratings.read(client, body.game, account.id) if account is not None else ratings.NEW
    seeker = Seeker(
        player,
        body.name,
        account.id if account is not None else None,
        skill.rating,
        skill.provisional,
        limits.client_address(),
    )
    pool = Pool(body.game, body.seats, body.turn_timer, body.rated)
    now = _now_ms()
    release: str | None = None
    found = matcher.current(client, player)
    if found is not None:
        again = _live(client, found, pool, body, now)
        if again is not None:
            return again["id"], 200
        release = found["id"]
    queued, ticket_id = matcher.join(client, seeker, pool, body.bots_after, now, release)
    if not queued:  # a concurrent join or step came first: what it made
        raced = matcher.ticket(client, ticket_id)
        again = None if raced is None else _live(client, raced, pool, body, now)
        if again is not None:
            return again["id"], 200
        raise ApiError(
            409, "already_queued", "you wait in the quick match already", match=ticket_id
        )
    public.announce(client, "queue")  # the lobby's count of waiting players (docs/LOBBY.md)
    matcher.step_and_build(client, pool.name, _lifetimes(), now, _scheduler(), gap_ms=0)
    return ticket_id, 201


@bp.get("/match", responses=outputs.answers(models.MatchDoc, 401, 404))
def get_match() -> Response:
    """Your quick-match ticket ``M``; while it waits, this poll keeps it alive and runs its
    pool's matching step. Matched: ``table`` and your seat's ``token``."""
    found = _ticket()
    if found["status"] == "waiting":
        client = get_redis()
        now = _now_ms()
        matcher.keep_alive(client, found["id"], now)
        matcher.step_and_build(client, found["pool"], _lifetimes(), now, _scheduler())
        found = matcher.ticket(client, found["id"]) or found
    return jsonify(_doc(found))


@bp.delete("/match", responses=outputs.answers(models.MatchDoc, 401, 404, 409, 415))
def leave_match() -> Response:
    """Leave the quick match at once. 409 ``already_matched`` when a table was found first
    (``M`` in ``match``: go to its table); 404 ``not_queued``."""
    player = _caller_player()
    if player is None:
        raise ApiError(401, "unauthorized", "the quick match knows you by your session")
    status, ticket_id = matcher.leave(get_redis(), player)
    if status == "none":
        raise ApiError(404, "not_queued", "you are not in the quick match")
    found = matcher.ticket(get_redis(), ticket_id)
    assert found is not None
    if status == "left":
        public.announce(get_redis(), "queue")
    if status == "matched":
        raise ApiError(
            409,
            "already_matched",
            "a table was found already",
            match=present.match(get_redis(), found, _now_ms()),
        )
    return jsonify(_doc(found))


@bp.get(
    "/match/events",
    responses={
        200: {
            "description": models.MatchStream.__doc__ or "",
            "content": {"text/event-stream": {"schema": SSE_EVENT}},
        },
        **outputs.errors(401, 404),
        429: STREAM_429,
    },
)
def match_events() -> Response:
    """Your ticket's live stream: ``M`` at once and on every change; it runs your pool's
    matching step every second while you wait and keeps the ticket alive."""
    found = _ticket()
    config = settings()
    lease, taken = _address_lease("match")
    if not taken:
        return _too_many_streams()
    client = get_redis()

    def now_ms() -> int:
        return int(clock.now(config).timestamp() * 1000)

    body = stream.match(client, found["id"], config, now_ms, _lifetimes(), _scheduler())
    response = _stream_response(body)
    response.call_on_close(lambda: _release(client, lease))
    return response


# --- ratings -----------------------------------------------------------------------------------


@bp.get("/ratings/<game>", responses=outputs.answers(models.RatingsBoard, 404, 422))
def ratings_board(path: GamePath, query: BoardQuery) -> Response:
    """One game's ratings board, best first: established players (10 rated games or more), or
    with ``provisional=true`` the others."""
    provisional = query.provisional == "true"
    board = ratings.board(get_redis(), path.game, query.offset, query.limit, provisional)
    return jsonify(board)
