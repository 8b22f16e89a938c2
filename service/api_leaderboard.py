"""Rankings (API.md): a day's board, the entries around one attempt, the all-time board."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from service.api_daily import known_day
from service.data import ranking
from service.errors import ApiError
from service.limits import counted_read, read_pipeline
from service.redisconn import get_redis
from service.requests import int_arg

bp = Blueprint("leaderboard", __name__, url_prefix="/api/leaderboard")

MAX_OFFSET = 10**9


@bp.get("/all-time")
def all_time() -> Response:
    offset = int_arg("offset", 0, 0, MAX_OFFSET)
    limit = int_arg("limit", 50, 1, 100)
    return jsonify(ranking.alltime_page(get_redis(), offset, limit))


@bp.get("/<date>")
@counted_read
def day_board(date: str) -> Response:
    known_day(date)
    offset = int_arg("offset", 0, 0, MAX_OFFSET)
    limit = int_arg("limit", 50, 1, 100)
    pipe, count = read_pipeline(get_redis())
    return jsonify(ranking.day_page(get_redis(), date, offset, limit, pipe, count.check))


@bp.get("/<date>/around/<attempt_id>")
@counted_read
def around(date: str, attempt_id: str) -> Response:
    known_day(date)
    radius = int_arg("radius", 5, 0, 50)
    pipe, count = read_pipeline(get_redis())
    page = ranking.around(get_redis(), date, attempt_id[:64], radius, pipe, count.check)
    if page is None:
        raise ApiError(404, "not_ranked", "this attempt is not on the day's leaderboard")
    return jsonify(page)
