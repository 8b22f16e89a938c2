"""Rankings (API.md): a day's board, the entries around one attempt, the all-time board; per
daily game (``game=…``, docs/GIN_DAILY.md; without it the first daily game's, as in API v1)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from service import games
from service.common import clock
from service.dailies import models, ranking
from service.dailies.days import known_day
from service.dailies.models import AroundPath, AroundQuery, DayPath, GamePageQuery
from service.errors import ApiError
from service.web import outputs
from service.web.apidoc import api_blueprint
from service.web.limits import counted_read, read_pipeline
from service.web.redisconn import get_rankings, settings
from service.web.validation import checks_first

bp = api_blueprint("leaderboard", __name__, "/api/leaderboard")


def provisional(date: str) -> bool:
    """A day's ranking is "vorläufig" until the day and its grace have closed (late
    verdicts may still change it)."""
    return not clock.is_closed(date, settings())


def _day_of(date: str, attempt_id: str = "") -> str:
    """The URL's day, before its query's values (API.md: 404 before 422)."""
    return known_day(date)


@bp.get("/all-time", responses=outputs.answers(models.AllTime, 422))
def all_time(query: GamePageQuery) -> Response:
    """Per player: the sum of verified daily scores (of the daily game ``game``)."""
    return jsonify(ranking.alltime_page(get_rankings(), query.offset, query.limit, query.game))


def _board(page: dict[str, Any], date: str, game: str) -> dict[str, Any]:
    """A board's document: a marked daily game's names its game; the first's keeps its v1
    keys."""
    extra = {"game": game} if games.get(game).marked else {}
    return {**page, **extra, "provisional": provisional(date)}


@bp.get("/<date>", responses=outputs.answers(models.Board, 404, 422))
@counted_read
@checks_first(_day_of)
def day_board(path: DayPath, query: GamePageQuery) -> Response:
    """A day's verified attempts in R11 order (Gin: score, fewer hands, earlier finish)."""
    date = known_day(path.date)
    pipe, count = read_pipeline(get_rankings())
    page = ranking.day_page(
        get_rankings(), date, query.offset, query.limit, pipe, count.check, query.game
    )
    return jsonify(_board(page, date, query.game))


@bp.get(
    "/<date>/around/<id:attempt_id>",
    responses=outputs.answers(models.Around, 404, 422),
)
@counted_read
@checks_first(_day_of)
def around(path: AroundPath, query: AroundQuery) -> Response:
    """The entries around one ranked attempt."""
    date = known_day(path.date)
    pipe, count = read_pipeline(get_rankings())
    page = ranking.around(
        get_rankings(), date, path.attempt_id, query.radius, pipe, count.check, query.game
    )
    if page is None:
        raise ApiError(404, "not_ranked", "this attempt is not on the day's leaderboard")
    return jsonify(_board(page, date, query.game))
