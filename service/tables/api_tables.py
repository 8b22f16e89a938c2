"""Tables (API.md "Tables", docs/TABLES.md): whole games with friends and bots, live.

Each change goes through :mod:`service.tables.store` (one WATCHed read and write of the table);
then its turn-timer job is scheduled, and when it left a deferred bot (the Meister) to move, the
bots' job is queued (service.tables.bots): that bot moves off the request. Every answer is the
caller's view (R10).
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Any, cast

import redis
from flask import Response, current_app, jsonify, request

from service import games
from service.common import clock, connect
from service.dailies import models as dailies_models
from service.dailies.models import MoveBody
from service.errors import ApiError, NoHint, PhraseTooSoon, Stale, TableError
from service.tables import analyses, bots, models, ratings, stream_leases, talk, timers
from service.tables import store as tables
from service.tables.models import (
    EventsQuery,
    InvitePath,
    LevelBody,
    MuteBody,
    NewTableBody,
    PhraseBody,
    SeatPath,
    TableAnalysisQuery,
    TablePath,
    TableRules,
)
from service.tables.reads import move_answer, table_doc
from service.tables.store import Changed, Lifetimes, Sitter, Table
from service.tables.stream import caps, stream
from service.web import idempotency, identity, limits, outputs, pending
from service.web.apidoc import api_blueprint
from service.web.envelope import error_response
from service.web.inputs import NameBody
from service.web.redisconn import get_analysis_queue, get_redis, settings
from service.web.validation import checks_first

bp = api_blueprint("tables", __name__, "/api/tables", authorised=True)
TIMER_QUEUE = "pikdame_table_timers"
BOT_QUEUE = "pikdame_table_bots"


def _now_ms() -> int:
    return int(clock.now(settings()).timestamp() * 1000)


def _lifetimes() -> Lifetimes:
    config = settings()
    return Lifetimes(config.table_idle_hours * 3600, config.table_keep_days * 86400)


def _timer_queue() -> Any:
    q = current_app.extensions.get(TIMER_QUEUE)
    if q is None:
        config = settings()
        q = current_app.extensions[TIMER_QUEUE] = timers.queue_on(
            connect.client(config, config.redis_queue_url, text=False), config.table_queue
        )
    return q


def _bot_queue() -> Any:
    q = current_app.extensions.get(BOT_QUEUE)
    if q is None:
        config = settings()
        q = current_app.extensions[BOT_QUEUE] = bots.queue_on(
            connect.client(config, config.redis_queue_url, text=False), config.bot_queue
        )
    return q


def _load(table_id: str) -> Table:
    table = tables.load(get_redis(), table_id)
    if table is None:
        raise ApiError(404, "unknown_table", "no such table")
    return table


def _caller_seat(table: Table) -> int | None:
    return table.seat_of(identity.bearer_token(), identity.session_player())


def _member(table: Table) -> int:
    """The caller's seat: 401 without any credentials, 403 with someone else's."""
    seat = _caller_seat(table)
    if seat is not None:
        return seat
    if identity.bearer_token() is None and identity.session_player() is None:
        raise ApiError(401, "unauthorized", "this table needs a seat's bearer token or session")
    raise ApiError(403, "forbidden", "you have no seat at this table")


def _seated(table_id: str) -> tuple[Table, int]:
    table = _load(table_id)
    return table, _member(table)


def _apply(action: Any) -> Changed:
    """Run a table change; map its refusals to API errors and schedule the turn timer."""
    try:
        done: Changed = action()
    except TableError as e:
        raise ApiError(e.status, e.code, e.message) from None
    except Stale:
        raise ApiError(409, "stale", "the table has moved on: read it again") from None
    table = done.table
    if table.deadline_ms is not None and done.events:
        _schedule(table)  # a new turn: its deadline's job (a job of an older seq does nothing)
    if table.bot_due_ms is not None:
        _wake_bots(table)  # a deferred bot (the Meister) moves in the bots' worker
    return done


def _wake_bots(table: Table) -> None:
    """Queue the bots' job of the table's seq (once: a job already queued for it stays)."""
    try:
        bots.enqueue(_bot_queue(), table.id, table.seq)
    except redis.RedisError:  # the bots' sweep queues it (service.reconcile.reconcile_bots)
        current_app.logger.warning("could not queue the bots of %s", table.id)


def _schedule(table: Table) -> None:
    assert table.deadline_ms is not None
    try:
        timers.schedule(_timer_queue(), table.id, table.seq, table.deadline_ms, _now_ms())
    except redis.RedisError:
        current_app.logger.warning("could not schedule the turn timer of %s", table.id)


def _doc(table: Table, seat: int | None) -> dict[str, Any]:
    return table_doc(get_redis(), table, seat, _now_ms())


def _player() -> str:
    return identity.session_player() or tables.new_player()


@bp.post(
    "", responses=outputs.answers(models.TableCreated, 400, 401, 409, 413, 415, 422, status=201)
)
@limits.limit_table_entries(limits.tables_limit)
def create_table(body: NewTableBody) -> Response:
    """Make a table: seat 0 is yours; human seats wait for friends (invite), bots play (R9).
    An ``Idempotency-Key`` header makes a retry answer the table made first (docs/TABLES.md)."""
    kind = games.offering(games.TABLES).get(body.game)
    if kind is None:
        raise ApiError(422, "bad_value", f"the game {body.game!r} is not offered yet")
    if body.seats[0].kind != "human":
        raise ApiError(422, "bad_value", "seat 0 is the creator's: a human seat")
    refused = kind.seats_refused(len(body.seats))
    if refused is not None:
        raise ApiError(422, "bad_value", refused)
    seats: list[dict[str, Any]] = []
    for spec in body.seats:
        if spec.kind == "human":
            seats.append({"kind": "human"})
        elif spec.level is not None and spec.level not in kind.levels:
            raise ApiError(422, "bad_value", f"{body.game} bots are {', '.join(kind.levels)}")
        else:
            seats.append({"kind": "bot", "level": spec.level or kind.default_level})
    options = _options(body.game, body.rules)
    if body.rated:
        _require_account()
        if not body.rules.turn_timer:
            raise ApiError(422, "bad_value", "a rated table is timed: choose a turn_timer")
        if body.rules.hints:
            raise ApiError(422, "bad_value", "a rated table has no hints")
        if "hints" in options:
            options["hints"] = False

    def make() -> dict[str, str]:
        player = _player()
        table, token = tables.create(
            get_redis(),
            body.game,
            body.name,
            player,
            seats,
            options,
            body.rules.turn_timer or 0,
            _lifetimes(),
            _now_ms(),
            sitter=_sitter(body.name, player, body.game, body.public or body.rated, body.rated),
            public=body.public,
            rated=body.rated,
        )
        return {"table": table.id, "player": player, "token": token}

    def answer(made: dict[str, str]) -> tuple[Response, int]:
        identity.remember(made["player"])  # a retry whose first answer (and cookie) was lost
        table = _load(made["table"])
        return jsonify(
            {"table": _doc(table, 0), "token": made["token"], "invite": table.invite}
        ), 201

    response, status = idempotency.once("tables", body, make, answer, sealed=("token",))
    response.status_code = status
    return cast(Response, response)


def _require_account() -> None:
    if identity.signed_in() is None:
        raise ApiError(403, "account_required", "a rated table seats signed-in accounts")


def _sitter(name: str, player: str, game: str, strangers: bool, rated: bool) -> Sitter:
    """The caller as seated: with the signed-in account (at a rated table its rating in the
    game, which the game moves: a casual table shows none), and at a table for strangers the
    address the operator's review compares."""
    account = identity.signed_in()
    if account is None:
        return Sitter(name, player, address=limits.client_address() if strangers else None)
    skill = ratings.read(get_redis(), game, account.id)
    return Sitter(
        name,
        player,
        account=account.id,
        rating=skill.rating if rated else None,
        provisional=skill.provisional,
        address=limits.client_address() if strangers else None,
    )


def _options(game: str, rules: TableRules) -> dict[str, bool]:
    """The table's options (T's ``rules``): the house rules its game declares (``HOUSE_RULES``:
    R9's for Pik Dame; for Tausende R8's ``strict_1000`` and R12.8's, never ``hand_out_double``,
    R12.7; none for a game without house rules), and ``hints`` where the game offers them. An
    option of another game is 422."""
    given = rules.model_dump(exclude={"turn_timer", "hints"})
    house = games.offering(games.HOUSE_RULES).get(game)
    offered = house.options if house is not None else ()
    wrong = sorted(key for key, on in given.items() if on and key not in offered)
    if wrong:
        raise ApiError(422, "bad_value", f"{game} has no option {', '.join(wrong)}")
    options = {key: bool(given[key]) for key in offered}
    if games.offering(games.TABLES)[game].hints:
        options["hints"] = rules.hints is not False  # the house option: hints on unless off
    elif rules.hints is False:
        raise ApiError(422, "bad_value", f"{game} has no option hints")
    return options


@bp.post(
    "/join/<invite>",
    responses=outputs.answers(models.TableJoined, 400, 401, 404, 409, 413, 415, 422),
)
@limits.limit_table_entries(limits.joins_limit)
@limits.limit_table_address()  # every try counts here: guessed invites too
def join_table(path: InvitePath, body: NameBody) -> Response:
    """Take the first open human seat of the invite's table, with a name."""
    player = _player()
    client = get_redis()
    found = tables.by_invite(client, path.invite)
    if found is None:
        raise ApiError(404, "unknown_invite", "no table has this invite")
    return _join(found, body.name, player, by_id=False)


def _join(found: Table, name: str, player: str, *, by_id: bool) -> Response:
    """Take a seat (by invite or, at a public table, by id); schedule the turn timer when the
    last stranger's seat started the game."""
    sitter = _sitter(name, player, found.game, found.from_lobby or found.rated, found.rated)
    tokens: list[str] = []

    def take() -> Changed:
        done, token = tables.take_seat(
            get_redis(), found.id, sitter, _lifetimes(), _now_ms(), by_id=by_id
        )
        tokens.append(token)
        return done

    done = _apply(take)
    table = done.table
    if table.status == "playing" and table.deadline_ms is not None and not done.events:
        _schedule(table)  # the first human's cut or move begins at once
    identity.remember(player)
    seat = table.seat_of(tokens[0], None)
    return jsonify({"table": _doc(table, seat), "token": tokens[0]})


@bp.post(
    "/<id:table_id>/join",
    responses=outputs.answers(models.TableJoined, 400, 401, 403, 404, 409, 413, 415, 422),
)
@limits.limit_table_entries(limits.joins_limit)
@limits.limit_table_address()
def join_public_table(path: TablePath, body: NameBody) -> Response:
    """Take the first open seat of a public table from the lobby (docs/LOBBY.md), with a name:
    403 ``private_table`` (invite only), ``account_required`` (rated, not signed in); 409 as a
    join by invite. The last open seat taken starts the game."""
    found = _load(path.table_id)
    return _join(found, body.name, _player(), by_id=True)


@bp.post(
    "/<id:table_id>/start",
    responses=outputs.answers(models.TableDoc, 401, 403, 404, 409, 415),
)
@limits.limit_table_route(limits.table_moves_limit)
def start_table(path: TablePath) -> Response:
    """Start the game (the creator): open seats become bots at R9's default level."""
    _, seat = _seated(path.table_id)
    done = _apply(lambda: tables.start(get_redis(), path.table_id, seat, _lifetimes(), _now_ms()))
    if done.table.deadline_ms is not None and not done.events:
        _schedule(done.table)  # the creator's own cut comes first (two seats)
    return jsonify({"table": _doc(done.table, seat)})


@bp.get("/<id:table_id>", responses=outputs.answers(models.TableDoc, 401, 403, 404))
def get_table(path: TablePath) -> Response:
    """The table in your seat's view; anyone may read a finished table, and watch a public
    table's game (docs/LOBBY.md "Watching"): ``seat`` and ``view`` null, no invite, no card."""
    table = _load(path.table_id)
    seat = _caller_seat(table)
    watched = table.public and table.status == "playing"
    if seat is None and table.status != "finished" and not watched:
        _member(table)
    return jsonify({"table": _doc(table, seat)})


@bp.get("/<id:table_id>/hint", responses=outputs.answers(models.TableHint, 401, 403, 404, 409))
@limits.limit_table_route(lambda: settings().limit_default)
def get_table_hint(path: TablePath) -> Response:
    """The moves worth laying from your hand now (your seat, your play phase), from your own
    view alone. 409 ``not_playing`` (waiting or finished), ``hints_off`` (the table's
    ``rules.hints`` is false, or Gin), ``not_your_turn``, ``wrong_phase`` (draw first, a cut)."""
    table, seat = _seated(path.table_id)
    if table.status != "playing":
        raise ApiError(409, "not_playing", "a hint is available while the game runs")
    if not table.kind.hints or not table.options.get("hints", True):
        raise ApiError(409, "hints_off", "this table's rules have no hints")
    try:
        answer = table.kind.hint(table.loaded(), seat)
    except NoHint as e:
        raise ApiError(409, e.code, e.message) from None
    return jsonify(answer)


def _analysis_reader(table_id: str) -> tuple[Table, int | None]:
    """The table and the caller's seat (None: not seated) if the caller may read analyses of
    it: 404, then 401/403 while the game is not finished (a running game is its seats')."""
    table = _load(table_id)
    seat = _caller_seat(table)
    if seat is None and table.status != "finished":
        _member(table)
    return table, seat


@bp.get(
    "/<id:table_id>/analysis",
    responses={
        **outputs.answers(dailies_models.Analysis, 401, 403, 404, 409, 422),
        202: dailies_models.AnalysisQueued,
    },
)
@limits.limit_table_route(lambda: settings().limit_default)
@checks_first(lambda table_id: _analysis_reader(table_id))
def get_table_analysis(path: TablePath, query: TableAnalysisQuery) -> Response:
    """A seat's play in one round (Gin: ``?hand=N``) analysed move by move (docs/ANALYSIS.md):
    your own seat once the round has ended, another seat once the game has ended. ``view``
    mode from what the seat saw; ``deal`` on the real deal once its seed is revealed (Pik Dame,
    Tausende: the round's end; Gin: the match's). 202 ``{"status": "queued"}`` while it is
    computed, then 200; 503 ``analysis_failed`` once when its job failed (ask again: it is
    queued anew)."""
    table, seat = _analysis_reader(path.table_id)
    if not games.offers(table.game, games.ANALYSIS):  # a game that declares none
        raise ApiError(404, "not_found", "this game has no analysis")
    asked = {"round": query.round, "hand": query.hand}
    word = table.analysis.part_name  # the other word names no part of this game: as if none
    part = None if any(n is not None for w, n in asked.items() if w != word) else asked[word]
    try:
        analysed = analyses.check(table, seat, query.seat, part, query.mode)
    except TableError as e:
        raise ApiError(e.status, e.code, e.message) from None
    assert part is not None  # check refused a missing one
    return pending.analysis_answer(
        analyses.cached(get_redis(), table, part, analysed, query.mode),
        lambda: analyses.enqueue(
            get_analysis_queue(), table, part, analysed, query.mode, limits.admit_analysis
        ),
    )


@bp.post(
    "/<id:table_id>/moves",
    responses=outputs.answers(models.TablePlayed, 400, 401, 403, 404, 409, 413, 415, 422),
)
@limits.limit_table_route(limits.table_moves_limit)
def post_table_move(path: TablePath, body: MoveBody) -> Response:
    """Play a move (F2, or ``cut K`` when the round waits for your cut); the bots answer."""
    _, seat = _seated(path.table_id)
    client = get_redis()
    done = _apply(
        lambda: tables.play(
            client, path.table_id, seat, body.seq, body.move, _lifetimes(), _now_ms()
        )
    )
    table = done.table
    after = table.seq - len(done.events)  # this move's events: not a later one already logged
    return jsonify(move_answer(client, table, after, seat, _now_ms()))


@bp.get(
    "/<id:table_id>/events",
    responses={
        200: {
            "description": models.EventStream.__doc__ or "",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **outputs.errors(401, 403, 404, 422),
        429: {
            "description": "rate limited (rate_limited), or your seat or address holds its most "
            "live streams at once (too_many_streams): close one, ask again after Retry-After",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            "headers": {"Retry-After": {"schema": {"type": "integer"}}},
        },
    },
)
@limits.limit_table_route(lambda: settings().limit_default)
def table_events(path: TablePath, query: EventsQuery) -> Response:
    """The table's live stream (Server-Sent Events) in your seat's view; resume with
    ``Last-Event-ID`` (or ``?after=``) set to the last seq seen: no event is missed. A seat and
    an address hold a few streams at once (429 ``too_many_streams``)."""
    _, seat = _seated(path.table_id)
    after = query.after
    last_id = request.headers.get("Last-Event-ID", "").strip()
    if last_id.isdigit() and len(last_id) < 12:
        after = int(last_id)
    config = settings()

    def now_ms() -> int:  # the generator runs after the request's context is gone
        return int(clock.now(config).timestamp() * 1000)

    client = get_redis()
    lease = stream_leases.Lease(path.table_id, seat, limits.client_address(), secrets.token_hex(8))
    full = stream_leases.take(client, lease, caps(config), now_ms())
    if full is not None:
        return _too_many_streams(full, config.heartbeat_seconds)
    body = stream(client, lease, after, config, now_ms)
    response = Response(body, mimetype="text/event-stream")
    # a stream that never started (the client left at once) gives its leases back here too
    response.call_on_close(lambda: _give_back(client, lease))
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response


def _too_many_streams(full: stream_leases.Holder, heartbeat_seconds: int) -> Response:
    """429 ``too_many_streams``: the seat (``full == "seat"``) or the address already holds its
    most streams. A slot frees when one of them ends; one whose client went away is noticed at its
    next heartbeat, hence ``Retry-After``."""
    who = "this seat" if full == "seat" else "this address"
    response = error_response(
        429, "too_many_streams", f"{who} holds its most live streams at once: close one"
    )
    response.headers["Retry-After"] = str(max(1, heartbeat_seconds))
    return response


def _give_back(client: redis.Redis[str], lease: stream_leases.Lease) -> None:
    with contextlib.suppress(redis.RedisError):  # else the leases run out on their own
        stream_leases.give_back(client, lease)


@bp.post(
    "/<id:table_id>/seats/<n>",
    responses=outputs.answers(models.TableDoc, 400, 401, 403, 404, 409, 415, 422),
)
@limits.limit_table_route(limits.table_moves_limit)
def set_seat_level(path: SeatPath, body: LevelBody) -> Response:
    """Change a bot's level (any human at the table), from its next move on."""
    _, seat = _seated(path.table_id)
    done = _apply(
        lambda: tables.set_level(
            get_redis(), path.table_id, seat, path.n, body.level, _lifetimes(), _now_ms()
        )
    )
    return jsonify({"table": _doc(done.table, seat)})


@bp.post(
    "/<id:table_id>/resign",
    responses=outputs.answers(models.ResignAnswer, 401, 403, 404, 409, 415),
)
@limits.limit_table_route(limits.table_moves_limit)
def resign_table(path: TablePath) -> Response:
    """Propose or agree to resign (R8): the game ends once every seated human agreed; against
    bots alone at once. ``pending``: the seats still to agree."""
    _, seat = _seated(path.table_id)
    pending: list[int] = []

    def act() -> Changed:
        done, still = tables.resign(get_redis(), path.table_id, seat, _lifetimes(), _now_ms())
        pending.extend(still)
        return done

    done = _apply(act)
    return jsonify({"pending": pending, "table": _doc(done.table, seat)})


@bp.get("/<id:table_id>/record", responses=outputs.answers(dailies_models.Record, 404, 409))
def get_table_record(path: TablePath) -> Response:
    """The whole game's record (``pikdame-game/1``) once finished: public, every seed in it;
    ``python -m engine replay`` verifies it."""
    table = _load(path.table_id)
    if table.status != "finished":
        raise ApiError(409, "not_finished", "the record is available once the game has ended")
    first = Table(**{**table.__dict__, "seats": table.first_seats})
    return jsonify(table.kind.record(table.loaded(), first.engine_seats()))


@bp.post(
    "/<id:table_id>/rematch",
    responses=outputs.answers(models.TableDoc, 401, 403, 404, 409, 415),
)
@limits.limit_table_route(limits.table_moves_limit)
def rematch_table(path: TablePath) -> Response:
    """A rematch with the same seats and rules once the game is over (any seated human; asking
    again gives the same table, and accepts it). Every human keeps their token and session; it
    starts only once every human seat accepted (``POST .../accept``; strangers' at once,
    friends' by the creator's start). The finished table's ``rematch`` names it (streams see it
    too). 409 ``not_finished``, ``rematch_declined``."""
    _, seat = _seated(path.table_id)
    try:
        new = tables.rematch(get_redis(), path.table_id, seat, _lifetimes(), _now_ms())
    except TableError as e:
        raise ApiError(e.status, e.code, e.message) from None
    if new.agreed is not None:  # asking is agreeing; strangers' starts once every human did
        done = _apply(
            lambda: tables.agree_rematch(get_redis(), new.id, seat, _lifetimes(), _now_ms())
        )
        new = done.table
        if new.status == "playing" and new.deadline_ms is not None and not done.events:
            _schedule(new)
    return jsonify({"table": _doc(new, seat)})


def _answer_rematch(table_id: str, agree: bool) -> Response:
    _, seat = _seated(table_id)
    done = _apply(
        lambda: tables.answer_rematch(
            get_redis(), table_id, seat, _lifetimes(), _now_ms(), agree=agree
        )
    )
    if done.table.deadline_ms is not None and not done.events and done.table.status == "playing":
        _schedule(done.table)  # it started with a human's cut first
    return jsonify({"table": _doc(done.table, seat)})


@bp.post(
    "/<id:table_id>/accept",
    responses=outputs.answers(models.TableDoc, 401, 403, 404, 409, 415),
)
@limits.limit_table_route(limits.table_moves_limit)
def accept_rematch(path: TablePath) -> Response:
    """Accept this rematch (a waiting table that follows a finished game, ``T.rematch_of``):
    ``T.rematch_agreed`` adds your seat. A rematch starts only once every human seat accepted:
    among strangers at once, among friends by the creator's start. 409 ``not_a_rematch``,
    ``rematch_declined``, ``already_started``."""
    return _answer_rematch(path.table_id, True)


@bp.post(
    "/<id:table_id>/decline",
    responses=outputs.answers(models.TableDoc, 401, 403, 404, 409, 415),
)
@limits.limit_table_route(limits.table_moves_limit)
def decline_rematch(path: TablePath) -> Response:
    """Decline this rematch: the offer ends for everyone (``T.rematch_declined`` names your
    seat; it never starts, and asking for it again is 409 ``rematch_declined``). 409
    ``not_a_rematch``, ``already_started``."""
    return _answer_rematch(path.table_id, False)


@bp.post(
    "/<id:table_id>/resign/decline",
    responses=outputs.answers(models.TableDoc, 401, 403, 404, 409, 415),
)
@limits.limit_table_route(limits.table_moves_limit)
def decline_resign(path: TablePath) -> Response:
    """Say no to the pending resign proposal (R8: every human must agree): the proposal ends,
    the game goes on, ``T.resign_declined`` names your seat. 409 ``not_playing``,
    ``no_resign_proposal``."""
    _, seat = _seated(path.table_id)
    done = _apply(
        lambda: tables.decline_resign(get_redis(), path.table_id, seat, _lifetimes(), _now_ms())
    )
    return jsonify({"table": _doc(done.table, seat)})


@bp.post(
    "/<id:table_id>/claim",
    responses=outputs.answers(models.TableDoc, 400, 401, 403, 404, 409, 415, 422),
)
@limits.limit_table_route(limits.table_moves_limit)
def claim_game(path: TablePath, body: models.ClaimBody) -> Response:
    """Claim the game against an away seat (``T.seats[n].claimable``: a human with no live
    stream whose turn the timer has played since its own last move): the game ends as that
    seat's forfeit (``T.result.forfeited_by``, last place, never the winner). 404
    ``unknown_seat``; 409 ``not_playing``, ``not_claimable``; 422 ``bad_value`` (your own seat,
    a bot)."""
    _, seat = _seated(path.table_id)
    done = _apply(
        lambda: tables.claim(get_redis(), path.table_id, seat, body.seat, _lifetimes(), _now_ms())
    )
    return jsonify({"table": _doc(done.table, seat)})


@bp.post(
    "/<id:table_id>/phrases",
    responses={
        **outputs.answers(models.PhraseSaid, 400, 401, 403, 404, 413, 415, 422),
        429: {
            "description": "rate limited, or phrase_too_soon: one phrase per seat every 3 s "
            "(Retry-After)",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            "headers": {"Retry-After": {"schema": {"type": "integer"}}},
        },
    },
)
@limits.limit_table_route(limits.table_moves_limit)
def say_phrase(path: TablePath, body: PhraseBody) -> Response:
    """Say one of the fixed phrases to the table (docs/LOBBY.md "Table talk"): every seat's
    stream sends it (``event: phrase``) unless that seat muted yours. No free text. 429
    ``phrase_too_soon`` within 3 s of your seat's last phrase (``error.retry_after_ms``: how
    long until the next, besides ``Retry-After`` in whole seconds)."""
    table, seat = _seated(path.table_id)
    try:
        said = talk.say(get_redis(), table.id, seat, body.phrase, _lifetimes().finished, _now_ms())
    except PhraseTooSoon as e:
        response = error_response(429, "phrase_too_soon", str(e), retry_after_ms=e.wait_ms)
        response.headers["Retry-After"] = str(max(1, -(-e.wait_ms // 1000)))
        return response
    return jsonify({"phrase": said})


@bp.post(
    "/<id:table_id>/mute",
    responses=outputs.answers(models.Muted, 400, 401, 403, 404, 413, 415, 422),
)
@limits.limit_table_route(limits.table_moves_limit)
def mute_seat(path: TablePath, body: MuteBody) -> Response:
    """Mute (``muted`` true) or hear again another seat's phrases, for your seat (every device
    of it: stored with the table). ``T.muted`` lists them; 404 ``unknown_seat``."""
    table, seat = _seated(path.table_id)
    if body.seat >= table.players:
        raise ApiError(404, "unknown_seat", f"the table has no seat {body.seat}")
    if body.seat == seat:
        raise ApiError(422, "bad_value", "mute another seat, not your own")
    now = talk.mute(get_redis(), table.id, seat, body.seat, body.muted, _lifetimes().finished)
    return jsonify({"muted": now})


@bp.post(
    "/<id:table_id>/replay-same",
    responses=outputs.answers(models.TableDoc, 401, 403, 404, 409, 415, 422),
)
def repeat_table(path: TablePath) -> Response:
    """Gin's "Wiederholen": a new waiting table that deals the same seeded match again
    (unranked), with the same seats; a running match against bots alone is resigned first.
    Asking again gives the same table; the old table's ``repeated`` names it, the new one's
    ``repeat_of`` the old one. 409 ``not_finished`` while a friend still plays; 422
    ``bad_value`` for a game other than Gin."""
    _, seat = _seated(path.table_id)
    try:
        new = tables.repeat(get_redis(), path.table_id, seat, _lifetimes(), _now_ms())
    except TableError as e:
        raise ApiError(e.status, e.code, e.message) from None
    return jsonify({"table": _doc(new, seat)})
