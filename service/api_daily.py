"""The daily challenge and starting attempts (API.md: Daily challenge, Attempts), plus the
archive's extras: ``GET /api/days`` and unranked practice of a closed day."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, Response, jsonify, request

from engine import daily_game, daily_seed
from service import identity, present
from service.data import archive, clock, keys, store
from service.errors import ApiError
from service.limits import counted_read, limit_creations, read_pipeline
from service.redisconn import get_redis, settings
from service.requests import int_arg, json_object, name_field

bp = Blueprint("daily", __name__, url_prefix="/api")


def known_day(date: str) -> str:
    """A day up to today; a malformed or future date is unknown (404)."""
    day = clock.parse_date(date)
    if day is None or date > clock.today(settings()):
        raise ApiError(404, "unknown_day", f"no challenge for {date!r}")
    return date


def _day(date: str) -> Response:
    """The day's document: its attempts counter read with the rate-limit count, one round trip."""
    pipe, count = read_pipeline(get_redis())
    pipe.get(keys.day_count(date))
    (attempts,) = count.check(pipe.execute())
    return jsonify(present.day_doc(date, settings(), attempts))


@bp.get("/daily")
@counted_read
def today() -> Response:
    return _day(clock.today(settings()))


@bp.get("/daily/<date>")
@counted_read
def day(date: str) -> Response:
    return _day(known_day(date))


@bp.get("/days")
def days() -> Response:
    """Days that had players, newest first, strictly before ``before`` (default: today)."""
    config = settings()
    before = request.args.get("before", clock.today(config))
    day = clock.parse_date(before)
    if day is None:
        raise ApiError(422, "bad_value", "before must be a date YYYY-MM-DD")
    limit = int_arg("limit", 30, 1, 100)
    client = get_redis()
    dates = client.zrevrangebyscore(keys.DAYS, day.toordinal() - 1, "-inf", start=0, num=limit)
    return jsonify({"days": [present.day_json(client, str(d), config) for d in dates]})


def _created(attempt: store.Attempt, token: str) -> tuple[Response, int]:
    body: dict[str, Any] = {"attempt": present.attempt_json(get_redis(), attempt), "token": token}
    return jsonify(body), 201


def _new_game(date: str, name: str, ranked: bool, player: str) -> tuple[Response, int]:
    config = settings()
    game = daily_game(daily_seed(config.secret, date), name)
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
        )
    except store.NameTaken:
        raise ApiError(
            422, "bad_value", "name: looks like another player's name today; choose another"
        ) from None
    identity.remember(player)
    return _created(attempt, token)


@bp.post("/daily/<date>/attempts")
@limit_creations()
def start_attempt(date: str) -> tuple[Response, int]:
    """One ranked attempt per player, today only. Checks in API.md's order: 400, 401, 404, 409,
    422."""
    body = json_object()
    player = identity.player_for_new_attempt()
    known_day(date)
    config = settings()
    if date != clock.today(config):
        raise ApiError(409, "day_closed", f"{date} is over; only today's challenge can be started")
    existing = store.attempt_for_player(get_redis(), date, player)
    if existing is not None:
        raise ApiError(
            409, "attempt_exists", "you already started today's challenge", attempt_id=existing
        )
    name = name_field(body)
    try:
        return _new_game(date, name, True, player)
    except store.AttemptExists as e:
        raise ApiError(
            409, "attempt_exists", "you already started today's challenge", attempt_id=e.attempt_id
        ) from None


@bp.post("/daily/<date>/practice")
@limit_creations()
def start_practice(date: str) -> tuple[Response, int]:
    """An unranked replay of a closed day's seeded deal ("Wiederholen"): same API, no ranking."""
    body = json_object()
    player = identity.player_for_new_attempt()
    known_day(date)
    if not clock.is_closed(date, settings()):
        raise ApiError(409, "day_open", f"{date} is still open: practice starts once it closes")
    name = name_field(body)
    return _new_game(date, name, False, player)
