"""The daily habit: the caller's streaks and statistics, a finished attempt's place in
the field (matchpoints, histogram, the bot's par) and its spoiler-free share text.

Every per-player datum is read under :func:`service.common.ownership.owner_of` of the caller's
player.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from service import games
from service.common import clock, ownership, played
from service.dailies import par, ranking, store
from service.dailies.models import AttemptPath, GameQuery
from service.errors import ApiError
from service.games import GAMES
from service.habit import field, history, models, streaks
from service.habit.models import LangQuery
from service.pages.strings import strings
from service.tables import ratings
from service.web import identity, outputs
from service.web.apidoc import api_blueprint
from service.web.limits import counted_read
from service.web.redisconn import get_rankings, get_redis, settings
from service.web.validation import checks_first

bp = api_blueprint("habit", __name__, "/api", authorised=True)


@bp.get("/me/stats", responses=outputs.answers(models.Me, 401, 422))
@counted_read
def my_stats(query: GameQuery) -> Response:
    """The caller's streaks (every daily game) and statistics (zeros for a browser that has
    never played) of one daily game: Pik Dame's, or with ``game=gin`` Gin's."""
    game = query.game
    owner = identity.caller_owner()
    client = get_rankings()
    today = clock.today(settings())
    if owner is None:
        return jsonify(
            {
                "streaks": {g: {"current": 0, "best": 0, "last": None} for g in streaks.GAMES},
                "stats": history.statistics(client, "", game) | {"games": 0},
                "ratings": None,
            }
        )
    return jsonify(
        {
            "streaks": streaks.read(client, owner, today),
            "stats": history.statistics(client, owner, game),
            "ratings": _ratings(),
        }
    )


def _ratings() -> dict[str, Any] | None:
    """The signed-in caller's rating per table game with its latest changes (null otherwise)."""
    account = identity.signed_in()
    if account is None:
        return None
    client = get_redis()
    found: dict[str, Any] = {}
    for game in GAMES:
        skill = ratings.read(client, game, account.id)
        found[game] = {
            "rating": skill.rating,
            "provisional": skill.provisional,
            "games": skill.games,
            "history": ratings.history(client, game, account.id, 20),
        }
    return found


@bp.get("/me/games", responses=outputs.answers(models.PlayedGames, 401))
def my_games() -> Response:
    """The caller's finished games ("Meine Spiele"): daily attempts (ranked and practice), tables
    and Gin matches, newest first, at most 50, each with its replay page; only games still kept
    (an empty list for a browser that has never finished one)."""
    games = played.listing(get_redis(), identity.players_of_caller())
    response = jsonify({"games": games})
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _finished(attempt_id: str, lang: str = "de") -> store.Attempt:
    """The caller's (or, once closed, anyone's) finished attempt: 404, 401/403, 409."""
    attempt = store.load(get_redis(), attempt_id)
    if attempt is None:
        raise ApiError(404, "unknown_attempt", "no such attempt")
    identity.require_reader(attempt)
    if attempt.status != "finished" or attempt.score is None:
        # Nothing of the field nor the par before the end: the par tells of the deal.
        raise ApiError(409, "not_finished", "the place in the field shows once you have finished")
    if attempt.verification == "rejected":
        raise ApiError(409, "not_ranked", "this attempt was rejected by the verification")
    return attempt


def place_doc(attempt: store.Attempt) -> dict[str, Any]:
    client = get_rankings()
    assert attempt.score is not None
    ranked = attempt.verification == "verified"
    game = attempt.kind  # the field of the attempt's own daily game
    where = field.place(client, attempt.date, attempt.score, ranked, game)
    rank = ranking.rank_of(client, attempt.date, attempt.id, game) if ranked else None
    return {
        "attempt_id": attempt.id,
        "date": attempt.date,
        "score": attempt.score,
        "final": clock.is_closed(attempt.date, settings()),
        "ranked": ranked,
        "beaten": where.beaten,
        "ties": where.ties,
        "others": where.others,
        "percentage": where.percentage,
        "rank": rank,
        "total": where.others + 1,
        "histogram": field.histogram(client, attempt.date, game),
        "mark": field.bucket_of(attempt.score),
        "par": par.read(client, attempt.date) if games.offers(attempt.kind, games.PAR) else None,
    }


@bp.get(
    "/attempts/<id:attempt_id>/place",
    responses=outputs.answers(models.Place, 401, 403, 404, 409),
)
@counted_read
def place(path: AttemptPath) -> Response:
    """A finished attempt's place in the day's field: matchpoints, histogram, the bot's par."""
    return jsonify(place_doc(_finished(path.attempt_id)))


def share_text(doc: dict[str, Any], streak: int, lang: str, game: str = games.DEFAULT) -> str:
    """Date, game, score, place, percentage and streak; never a card (spoiler-free). Without a
    percentage (no one else in the field yet) its part is left out, not shown as "– %"."""
    table = strings(lang)
    percentage = "" if doc["percentage"] is None else f"{doc['percentage']:g}"
    place_text = (
        f"{doc['beaten'] + 1}/{doc['total']}"
        if doc["rank"] is None
        else (f"{doc['rank']}/{doc['total']}")
    )
    values = {
        "date": doc["date"],
        "score": f"{doc['score']:+d}",
        "place": place_text,
        "percentage": percentage,
        "streak": str(streak),
    }
    text = table.get(f"share.field.{game}") or table["share.field"]
    if f"share.field.{game}" not in table:  # the first daily game's text, with this game's name
        text = text.replace(games.get(games.DEFAULT).title, games.get(game).title, 1)
    if not percentage:
        text = text.replace(" · {percentage} %", "")
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


@bp.get(
    "/attempts/<id:attempt_id>/share",
    responses=outputs.answers(models.Share, 401, 403, 404, 409, 422),
)
@counted_read
@checks_first(_finished)
def share(path: AttemptPath, query: LangQuery) -> Response:
    """The spoiler-free share text of a finished attempt (no card names)."""
    attempt = _finished(path.attempt_id)
    owner = ownership.owner_of(get_redis(), attempt.player)
    today = clock.today(settings())
    streak = streaks.read(get_rankings(), owner, today)[attempt.kind]["current"]
    assert isinstance(streak, int)
    return jsonify({"text": share_text(place_doc(attempt), streak, query.lang, attempt.kind)})
