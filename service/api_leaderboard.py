"""Rankings (API.md): a day's board, the entries around one attempt, the all-time board."""

from __future__ import annotations

from flask import Response, jsonify

from service import outputs
from service.api_daily import known_day
from service.apidoc import api_blueprint
from service.data import clock, ranking
from service.errors import ApiError
from service.inputs import AroundPath, AroundQuery, DayPath, PageQuery
from service.limits import counted_read, read_pipeline
from service.redisconn import get_rankings, settings
from service.validation import checks_first

bp = api_blueprint("leaderboard", __name__, "/api/leaderboard")


def provisional(date: str) -> bool:
    """Issue 13: a day's ranking is "vorläufig" until the day and its grace have closed (late
    verdicts may still change it)."""
    return not clock.is_closed(date, settings())


def _day_of(date: str, attempt_id: str = "") -> str:
    """The URL's day, before its query's values (API.md: 404 before 422)."""
    return known_day(date)


@bp.get("/all-time", responses=outputs.answers(outputs.AllTime, 422))
def all_time(query: PageQuery) -> Response:
    """Per player: the sum of verified daily scores."""
    return jsonify(ranking.alltime_page(get_rankings(), query.offset, query.limit))


@bp.get("/<date>", responses=outputs.answers(outputs.Board, 404, 422))
@counted_read
@checks_first(_day_of)
def day_board(path: DayPath, query: PageQuery) -> Response:
    """A day's verified attempts in R11 order."""
    date = known_day(path.date)
    pipe, count = read_pipeline(get_rankings())
    page = ranking.day_page(get_rankings(), date, query.offset, query.limit, pipe, count.check)
    return jsonify({**page, "provisional": provisional(date)})


@bp.get(
    "/<date>/around/<id:attempt_id>",
    responses=outputs.answers(outputs.Around, 404, 422),
)
@counted_read
@checks_first(_day_of)
def around(path: AroundPath, query: AroundQuery) -> Response:
    """The entries around one ranked attempt."""
    date = known_day(path.date)
    pipe, count = read_pipeline(get_rankings())
    page = ranking.around(get_rankings(), date, path.attempt_id, query.radius, pipe, count.check)
    if page is None:
        raise ApiError(404, "not_ranked", "this attempt is not on the day's leaderboard")
    return jsonify({**page, "provisional": provisional(date)})
