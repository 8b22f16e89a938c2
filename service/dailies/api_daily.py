"""The daily challenge and starting attempts (API.md: Daily challenge, Attempts), plus the
archive's extras: ``GET /api/days`` and unranked practice of a closed day.

Every route serves each daily game (service.games.DAILY_GAMES, docs/GIN_DAILY.md): ``game=…`` in
the query (reads) or the body (starts) selects one; without it the answers are the first daily
game's, as in API v1."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Response, jsonify, request, session

from service import games
from service.common import clock, keys, ownership
from service.dailies import archive, models, present, seen, store
from service.dailies.days import known_day
from service.dailies.models import DayPath, DaysQuery, GameQuery, StartBody
from service.errors import ApiError, AttemptExists, NameTaken
from service.web import caching, identity, outputs
from service.web.apidoc import api_blueprint
from service.web.inputs import calendar_day
from service.web.limits import client_address, counted_read, limit_creations, read_pipeline
from service.web.redisconn import acknowledge, get_redis, settings
from service.web.validation import checks_first

bp = api_blueprint("daily", __name__, "/api")
CREATED = outputs.answers(models.Created, 400, 401, 404, 409, 413, 415, 422, status=201)


def _day(date: str, game: str) -> Response:
    """The day's document: its attempts counter read with the rate-limit count, one round trip,
    and what a start would be for the caller (``ranked_start``)."""
    pipe, count = read_pipeline(get_redis())
    pipe.get(keys.day_count(date, game))
    (attempts,) = count.check(pipe.execute())
    doc = present.day_doc(date, settings(), attempts, game)
    return jsonify({**doc, "ranked_start": ranked_start(date, game)})


def _caller() -> str | None:
    """The player a start by this caller would be, without refusing anyone (a read): a known
    bearer token's player, a signed-in account's home player, the session's player; None for a
    caller a start would give a fresh player id."""
    token = identity.bearer_token()
    if token is not None:
        attempt = store.attempt_for_token(get_redis(), token)
        return None if attempt is None else attempt.player
    account = identity.signed_in()
    if account is not None:
        return account.player
    if session.get(identity.ACCOUNT_KEY) is not None:
        return None  # signed out everywhere: a start begins afresh (player_for_new_attempt)
    return identity.session_player()


def ranked_start(date: str, game: str) -> dict[str, Any]:
    """Whether the caller's start of ``date`` would be ranked, before any deal is shown; if not,
    why: ``day_closed`` (not today), ``attempt_exists`` (its ranked attempt is started),
    ``deal_seen`` (it has started an attempt of this deal, ranked or not: signing up would not
    rank today either), ``anonymous`` (anonymous play is "ohne Wertung"). A caller without
    credentials gets everyone's answer (a shared cache may keep it, service.web.caching)."""
    config = settings()
    if date != clock.today(config):
        return {"available": False, "reason": "day_closed"}
    player = None if caching.anonymous() else _caller()
    if player is None:
        ranked = config.rank_anonymous
        return {"available": ranked, "reason": None if ranked else "anonymous"}
    client = get_redis()
    ranked = ranks(player)
    if ranked and store.attempt_for_player(client, date, player, game) is not None:
        return {"available": False, "reason": "attempt_exists"}
    if seen.seen_by(client, date, player, game) is not None:
        return {"available": False, "reason": "deal_seen"}
    return {"available": ranked, "reason": None if ranked else "anonymous"}


@bp.get("/daily", responses=outputs.answers(models.Day, 422))
@counted_read
def today(query: GameQuery) -> Response:
    """Today's challenge (UTC); ``game=gin``: Gin's (docs/GIN_DAILY.md)."""
    return _day(clock.today(settings()), query.game)


@bp.get("/daily/<date>", responses=outputs.answers(models.Day, 404, 422))
@counted_read
@checks_first(known_day)
def day(path: DayPath, query: GameQuery) -> Response:
    """A day's challenge; its seed once closed; ``game=gin``: Gin's."""
    return _day(known_day(path.date), query.game)


@bp.get("/days", responses=outputs.answers(models.Days, 422))
def days(query: DaysQuery) -> Response:
    """Archive: every day from the launch date (PIKDAME_LAUNCH_DATE) on, played or not, newest
    first, strictly before ``before`` (default: today): practice opens on each once it closes.
    ``game=gin``: Gin's days."""
    config = settings()
    day = calendar_day(query.before or clock.today(config))
    launch = calendar_day(config.launch_date)
    assert day is not None and launch is not None  # checked by DaysQuery and config
    first = max(launch.toordinal(), day.toordinal() - query.limit)
    dates = [dt.date.fromordinal(o).isoformat() for o in range(day.toordinal() - 1, first - 1, -1)]
    pipe = get_redis().pipeline(transaction=False)
    for d in dates:
        pipe.get(keys.day_count(d, query.game))
    counts = pipe.execute()
    docs = [present.day_doc(d, config, n, query.game) for d, n in zip(dates, counts, strict=True)]
    return jsonify({"days": docs})


def _created(attempt: store.Attempt, token: str, game: object) -> tuple[Response, int]:
    # The game just stored: seat 0's view from it, not from its record parsed again (as a
    # move's answer does; half of a start's engine time, bench/results/profile_paths.md). Just
    # made: no verdict, no rank.
    doc = present.attempt_json(attempt, attempt.daily.seat_view(game), None)
    body: dict[str, Any] = {"attempt": doc, "token": token}
    return jsonify(body), 201


def _new_game(
    date: str, name: str, ranked: bool, player: str, kind: str, practice: bool = False
) -> tuple[Response, int]:
    config = settings()
    daily = games.daily(kind)
    game = daily.new(daily.seed(config.secret, date), name)
    now = clock.now(config)
    try:
        attempt, token = store.create(
            get_redis(),
            date=date,
            name=name,
            player=player,
            ranked=ranked,
            game=game,
            now_ms=int(now.timestamp() * 1000),
            day_ordinal=dt.date.fromisoformat(date).toordinal(),
            expiry=archive.expiry_for(date, ranked, config),
            kind=kind,
        )
    except NameTaken:
        raise ApiError(
            422, "bad_value", "name: looks like another player's name today; choose another"
        ) from None
    identity.remember(player)
    if not practice:  # the player has seen today's deal: no ranked attempt of it any more
        seen.mark(get_redis(), date, player, attempt.id, kind, seen.keep_s(date, settings()))
    acknowledge()  # a 503 here: asking again finds the attempt (409 attempt_exists)
    if not practice:
        seen.note_start(get_redis(), date, attempt.id, client_address(), kind, ranked)
    return _created(attempt, token, game)


def ranks(player: str) -> bool:
    """An account's attempts are ranked; an anonymous player's only where the operator
    ranks anonymous play (PIKDAME_RANK_ANONYMOUS), else they are played "ohne Wertung"."""
    return settings().rank_anonymous or ownership.account_of(get_redis(), player) is not None


def _requested_game() -> str:
    """The body's daily game where a check runs before the body's model (a bad name): the
    slot checked for ``attempt_exists`` is that game's (docs/GIN_DAILY.md)."""
    body = request.get_json(silent=True)
    game = body.get("game") if isinstance(body, dict) else None
    return game if isinstance(game, str) and game in games.DAILY_GAMES else games.DEFAULT


def _can_start(date: str, game: str | None = None) -> tuple[str, bool]:
    """The player starting today's attempt and whether it is ranked, after API.md's checks
    before the name: 401 (an unknown token), 404, 409 (another day; a ranked attempt of this
    daily game already started: an account's first attempt of the day is its ranked one; the
    day's deal already seen by this player, ``deal_seen``, service.dailies.seen)."""
    if game is None:
        game = _requested_game()
    player = identity.player_for_new_attempt()
    known_day(date)
    if date != clock.today(settings()):
        raise ApiError(409, "day_closed", f"{date} is over; only today's challenge can be started")
    ranked = ranks(player)
    if ranked:
        existing = store.attempt_for_player(get_redis(), date, player, game)
        if existing is not None:
            raise AttemptExists(existing)
        if seen.seen_by(get_redis(), date, player, game) is not None:
            raise ApiError(
                409,
                "deal_seen",
                f"this device or account has started an attempt of {date}'s deal already"
                " (ranked or not): no ranked attempt of it today",
            )
    return player, ranked


def _can_practise(date: str) -> str:
    """The player practising a closed day (401, 404, 409 before the name)."""
    player = identity.player_for_new_attempt()
    known_day(date)
    if not clock.is_closed(date, settings()):
        raise ApiError(409, "day_open", f"{date} is still open: practice starts once it closes")
    return player


@bp.post("/daily/<date>/attempts", responses=CREATED)
@limit_creations()
@checks_first(_can_start)
def start_attempt(path: DayPath, body: StartBody) -> tuple[Response, int]:
    """Start today's attempt: ranked for a signed-in account (one a day per daily game), else
    "ohne Wertung" (``ranked: false``) unless the operator ranks anonymous play. ``game: "gin"``
    starts Gin's daily match (docs/GIN_DAILY.md)."""
    player, ranked = _can_start(path.date, body.game)
    return _new_game(path.date, body.name, ranked, player, body.game)


@bp.post("/daily/<date>/practice", responses=CREATED)
@limit_creations()
@checks_first(_can_practise)
def start_practice(path: DayPath, body: StartBody) -> tuple[Response, int]:
    """An unranked replay of a closed day's deal ("Wiederholen"): same API, never ranked;
    ``game: "gin"``: the day's Gin match."""
    player = _can_practise(path.date)
    return _new_game(path.date, body.name, False, player, body.game, practice=True)
