"""Leagues: create one, join and leave it by its invite code, read its boards."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from service import games
from service.common import clock, ownership
from service.errors import ApiError, LeagueFull
from service.habit import leagues, models
from service.habit.models import LeagueBody, LeaguePath, LeagueQuery
from service.web import idempotency, identity, outputs
from service.web.apidoc import api_blueprint
from service.web.inputs import EmptyBody
from service.web.limits import counted_read, limit_creations
from service.web.redisconn import get_rankings, get_redis, settings
from service.web.validation import checks_first

bp = api_blueprint("leagues", __name__, "/api/leagues", authorised=True)


def joining_owner() -> str:
    """The caller's owner; a browser that has never played gets its player id now."""
    player = identity.player_for_new_attempt()
    identity.remember(player)
    return ownership.owner_of(get_redis(), player)  # accounts: the state server


def known_league(code: str) -> str:
    if not leagues.exists(get_rankings(), code):
        raise ApiError(404, "unknown_league", "no league with this invite code")
    return code


def _known(code: str, date: str | None = None) -> str:
    """404 before 422 (API.md's order): checks_first's view of :func:`known_league`."""
    return known_league(code)


@bp.get("", responses=outputs.answers(models.Leagues, 401))
@counted_read
def mine() -> Response:
    """The caller's leagues."""
    owner = identity.caller_owner()
    found = [] if owner is None else leagues.of_owner(get_rankings(), owner)
    return jsonify({"leagues": found})


@bp.post(
    "", responses=outputs.answers(models.LeagueCreated, 400, 401, 409, 413, 415, 422, status=201)
)
@limit_creations()
def create(body: LeagueBody) -> tuple[Response, int]:
    """A new private league; the caller is its first member. Share its code to invite. An
    ``Idempotency-Key`` header makes a retry answer the league made first (docs/TABLES.md)."""

    def make() -> dict[str, str]:
        player = identity.player_for_new_attempt()
        owner = ownership.owner_of(get_redis(), player)  # accounts: the state server
        now_ms = int(clock.now(settings()).timestamp() * 1000)
        code = leagues.create(get_rankings(), body.name, owner, now_ms)
        return {"league": code, "owner": owner, "player": player}

    def answer(made: dict[str, str]) -> tuple[Response, int]:
        identity.remember(made["player"])  # a retry whose first answer (and cookie) was lost
        return jsonify(
            {"league": leagues.summary(get_rankings(), made["league"], made["owner"])}
        ), 201

    response, status = idempotency.once("leagues", body, make, answer)
    return response, status


@bp.get("/<code>", responses=outputs.answers(models.LeagueDoc, 401, 404, 422))
@counted_read
@checks_first(_known)
def board(path: LeaguePath, query: LeagueQuery) -> Response:
    """A league with its daily board (``date``, default today) and its all-time board, of Pik
    Dame, or with ``game=gin`` of Gin (docs/GIN_DAILY.md)."""
    code = known_league(path.code)
    client = get_rankings()
    today = clock.today(settings())
    date = query.date if query.date is not None and query.date <= today else today
    config = settings()

    def closed(day: str) -> bool:
        return clock.is_closed(day, config)

    game = query.game  # a league's boards per daily game; its members are shared
    doc: dict[str, Any] = {
        "league": leagues.summary(client, code, identity.caller_owner()),
        "day": leagues.day_board(client, code, date, closed, game),
        "all_time": leagues.all_time_board(client, code, today, closed, game),
    }
    if games.get(game).marked:  # the first daily game's answer keeps its v1 keys
        doc["game"] = game
    return jsonify(doc)


@bp.post(
    "/<code>/join",
    responses=outputs.answers(models.LeagueCreated, 400, 401, 404, 409, 413, 415),
)
@limit_creations()
@checks_first(_known)
def join(path: LeaguePath, body: EmptyBody) -> Response:
    """Join a league by its invite code (joining twice changes nothing)."""
    code = known_league(path.code)
    owner = joining_owner()
    try:
        leagues.join(get_rankings(), code, owner)
    except LeagueFull:
        raise ApiError(
            409, "league_full", f"a league has at most {leagues.MAX_MEMBERS} members"
        ) from None
    return jsonify({"league": leagues.summary(get_rankings(), code, owner)})


@bp.post(
    "/<code>/leave",
    responses=outputs.answers(models.LeagueCreated, 400, 401, 404, 409, 413, 415),
)
@checks_first(_known)
def leave(path: LeaguePath, body: EmptyBody) -> Response:
    """Leave a league (409 ``not_member`` when the caller is not in it)."""
    code = known_league(path.code)
    owner = identity.caller_owner()
    if owner is None or not leagues.leave(get_rankings(), code, owner):
        raise ApiError(409, "not_member", "you are not a member of this league")
    return jsonify({"league": leagues.summary(get_rankings(), code, owner)})
