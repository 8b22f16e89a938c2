"""The week's tournament's routes (docs/EVENTS.md, "The API"): the event with the caller's
progress, starting the next deal, and the standings (live, then final after the close).

A deal, once started, is an attempt: its moves, view, verification and record are the attempts'
routes (``/api/attempts/{id}``, service.dailies.api_attempts), its verification the daily's job
(worker.events). What is here is what the event adds: its deals in order, each once, ranked
only for an account that has not seen the deal (issue 42), and the scoring against the field.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, Final

from flask import Response, jsonify, request

from engine.core import events as identity_of
from engine.core.errors import FormatError
from service import games
from service.common import clock, keys, ownership
from service.dailies import present
from service.dailies import store as attempts
from service.errors import ApiError
from service.events import deals, models, places, seasons, store, weeks
from service.events.models import EventPath, GamePath, SeasonPath, StartDealBody
from service.web import caching, identity, outputs
from service.web.apidoc import api_blueprint
from service.web.limits import limit_creations
from service.web.redisconn import acknowledge, get_rankings, get_redis, settings
from service.web.validation import checks_first

bp = api_blueprint("events", __name__, "/api/events")

#: How old the live standings may be (issue 42: no more than 60 s behind the last verification).
LIVE_S: Final = 60
#: The age at which the live standings are computed anew on a read. Less than LIVE_S: the
#: publisher (service.web.publishing) asks them every STANDINGS_S and serves a version up to
#: KEPT_MAX_S, nginx and a browser hold its file a few seconds more, so what the page shows
#: through nginx is still under LIVE_S.
FRESH_S: Final = 20
#: The least a final standings' place index lives once (re)written: past the retention it is
#: rebuilt from the kept final document on a read, and kept a day from then.
INDEX_MIN_S: Final = 86_400


def known_event(game: str, week: str) -> str:
    """The event's week if ``game`` offers one and ``week`` exists and has opened (404
    ``unknown_event``: no commitment is shown before the opening)."""
    if game not in deals.EVENT_GAMES:
        raise ApiError(404, "unknown_event", f"{game} has no week's tournament yet")
    try:
        opens = identity_of.opens_at(week)
    except FormatError:
        raise ApiError(404, "unknown_event", "no such week (YYYY-Www)") from None
    if clock.now(settings()) < opens:
        raise ApiError(404, "unknown_event", f"{week}'s event has not opened yet")
    return week


def _known_game(game: str) -> str:
    """The game if it offers an event (404 ``unknown_event``), checked before a bad value."""
    return known_event(game, weeks.current_week(settings()))


def _now_ms() -> int:
    return int(clock.now(settings()).timestamp() * 1000)


def _caller() -> str | None:
    """The player the caller plays as (no one is refused here: a read): a bearer token's, a
    signed-in account's home player, the session's; None for a caller who never played."""
    token = identity.bearer_token()
    if token is not None:
        return attempts.player_for_token(get_redis(), token)  # an unknown one: no progress
    account = identity.signed_in()
    if account is not None:
        return account.player
    return identity.session_player()


def _percent(value: Fraction) -> float:
    return round(float(value), 2)


def _progress(game: str, week: str, player: str) -> dict[str, Any] | None:
    client = get_redis()
    started = deals.started(client, game, week, player)
    if not started:
        return None
    pipe = client.pipeline(transaction=False)
    for n in sorted(started):
        pipe.hmget(keys.attempt(started[n]), ["ranked", "status", "score", "verification"])
    rows = []
    finished = 0
    stored = list(zip(sorted(started), pipe.execute(), strict=True))
    # a verified deal's result; an abandoned one's once the close has folded it in
    scored = [
        n
        for n, (ranked, status, _, v) in stored
        if v == "verified" or (ranked == "1" and status != "finished")
    ]
    results = store.deal_results(get_rankings(), game, week, player, scored)
    for n, (ranked, status, score, verification) in stored:
        found = results.get(n)
        result = None
        if found is not None:
            result = {
                "score": found.score,
                "beaten": found.beaten,
                "tied": found.tied,
                "others": found.others,
                "percent": _percent(found.percent),
            }
        finished += status == "finished"
        rows.append(
            {
                "n": n,
                "attempt_id": started[n],
                "ranked": ranked == "1",
                "status": status or "playing",
                "score": int(score) if score not in (None, "") and status == "finished" else None,
                "verification": verification or None,
                "result": result,
            }
        )
    count = len(started)
    return {
        "started": count,
        "finished": finished,
        "of": identity_of.EVENT_DEALS,
        "next": count + 1 if count < identity_of.EVENT_DEALS else None,
        "deals": rows,
    }


def _event(game: str, week: str) -> dict[str, Any]:
    config = settings()
    now = clock.now(config)
    info = weeks.info(config, game, week)
    left = (identity_of.ends_at(week) - now).total_seconds()
    player = _caller()
    closed = weeks.is_closed(week, config)
    if closed:
        _standings(game, week)  # the close (once): an abandoned deal's result in the progress
    return {
        **info,
        "seconds_left": max(0, int(left)),
        "closed": closed,
        "progress": None if player is None else _progress(game, week, player),
    }


@bp.get("/<game>", responses=outputs.answers(models.EventAnswer, 404, 422))
@checks_first(_known_game)
def current(path: GamePath) -> Response:
    """This week's event of ``game`` (the service's clock), with the caller's progress."""
    week = known_event(path.game, weeks.current_week(settings()))
    return jsonify({"event": _event(path.game, week)})


@bp.get("/<game>/<week>", responses=outputs.answers(models.EventAnswer, 404, 422))
@checks_first(known_event)
def event(path: EventPath) -> Response:
    """A week's event: the deals' commitments (their seeds once closed), the time left and the
    caller's progress ("Blatt 3 von 6") with each verified deal's result against the field."""
    return jsonify({"event": _event(path.game, known_event(path.game, path.week))})


def _can_start(game: str, week: str) -> tuple[str, int, bool]:
    """The player, the deal and whether it is ranked, before the name: 401 (an unknown token),
    404, 409 ``event_not_open`` (not between Monday 00:00 and Sunday 24:00), ``event_done``
    (every deal started), ``deal_running`` (the last one not finished), ``event_deal_seen`` (one of
    the caller's ids has started this deal: no ranked play of it)."""
    player = identity.player_for_new_attempt()
    week = known_event(game, week)
    if not deals.is_open(week, clock.now(settings())):
        raise ApiError(409, "event_not_open", f"{week}'s event takes no new deal now")
    client = get_redis()
    started = deals.started(client, game, week, player)
    n = len(started) + 1
    if n > identity_of.EVENT_DEALS:
        raise ApiError(409, "event_done", "every deal of this event is started")
    if started and client.hget(keys.attempt(started[n - 1]), "status") != "finished":
        raise ApiError(409, "deal_running", f"deal {n - 1} is not finished", attempt=started[n - 1])
    ranked = ownership.account_of(client, player) is not None
    if ranked and deals.seen_by(client, game, week, identity.players_of_caller(), n):
        raise ApiError(
            409, "event_deal_seen", f"deal {n} was started already by this device or account"
        )
    return player, n, ranked


@bp.post(
    "/<game>/<week>/deals",
    responses=outputs.answers(models.DealCreated, 400, 401, 404, 409, 413, 415, 422, status=201),
)
@limit_creations()
@checks_first(_can_start)
def start_deal(path: EventPath, body: StartDealBody) -> tuple[Response, int]:
    """Start your next deal of the event (deals in order, each once): ranked for a signed-in
    account, else "ohne Wertung". Play it through ``/api/attempts/{id}`` with the token."""
    player, n, ranked = _can_start(path.game, path.week)
    config = settings()
    made = deals.start(
        get_redis(),
        secret=config.secret,
        game=path.game,
        week=path.week,
        n=n,
        name=body.name,
        player=player,
        ranked=ranked,
        now_ms=_now_ms(),
        keep_s=deals.keep_s(
            weeks.closes_at(path.week, config), clock.now(config), config.event_keep_days
        ),
    )
    if made is None:  # a concurrent start of the same deal won
        raise ApiError(409, "deal_running", f"deal {n} was started meanwhile")
    identity.remember(player)
    acknowledge()
    adapter = games.daily(path.game)
    doc = present.attempt_json(made.attempt, adapter.seat_view(made.game), None)
    return jsonify({"n": n, "attempt": doc, "token": made.token}), 201


def _standings(game: str, week: str) -> dict[str, Any]:
    """The caller-free standings: final once closed and judged (computed once, kept), else
    live, computed anew once FRESH_S seconds old on the app's clock."""
    client, rankings = get_redis(), get_rankings()
    kept = client.get(deals.final_key(game, week))
    if kept is not None:
        return dict(json.loads(kept))
    now_ms = _now_ms()
    final = False
    if weeks.is_closed(week, settings()):
        closes_ms = int(weeks.closes_at(week, settings()).timestamp() * 1000)
        final = deals.close(client, rankings, game, week, closes_ms).judged
    live_key = deals.live_key(game, week)
    if not final:
        cached = client.get(live_key)
        if cached is not None:
            doc = json.loads(cached)
            if 0 <= now_ms - int(doc["at"]) < FRESH_S * 1000:
                return dict(doc)
    lines, incomplete = store.standings(rankings, game, week)
    names = deals.names(client, game, week)
    doc = {
        "at": now_ms,
        "final": final,
        "entries": [
            {
                "place": i,
                "player": s.player,
                "name": names.get(s.player, "?"),
                "percent": _percent(s.score),
                "tops": s.tops,
            }
            for i, s in enumerate(lines, 1)
        ],
        "incomplete": [
            {"player": p, "name": names.get(p, "?"), "deals": c}
            for p, c in sorted(incomplete.items(), key=lambda pc: (-pc[1], pc[0]))
        ],
        "distributions": [
            {str(s): c for s, c in store.distribution(rankings, game, week, n).items()}
            for n in range(1, identity_of.EVENT_DEALS + 1)
        ],
    }
    text = json.dumps(doc, separators=(",", ":"))
    if final:
        if client.set(deals.final_key(game, week), text, nx=True):  # kept: the archive's
            keep = _keep_s(week)
            store.expire(rankings, game, week, keep)  # the field's counts: the final has them
            pipe = client.pipeline(transaction=True)
            places.write(pipe, places.index_key(game, week, True), doc, max(keep, INDEX_MIN_S))
            pipe.execute()
    else:
        pipe = client.pipeline(transaction=True)  # the document and its index agree
        pipe.set(live_key, text, ex=2 * LIVE_S)
        places.write(pipe, places.index_key(game, week, False), doc, 2 * LIVE_S)
        pipe.execute()
    return doc


def _keep_s(week: str) -> int:
    """Seconds the event's deals and counts still live (docs/EVENTS.md, "Retention")."""
    config = settings()
    return deals.keep_s(weeks.closes_at(week, config), clock.now(config), config.event_keep_days)


def _index(game: str, week: str, lines: list[str], players: list[str]) -> places.Found | None:
    """``lines`` and the ``players``' places from the current standings' place index without
    computing anything: the final's once kept (its index rebuilt from the kept document when
    gone: past the retention, or a final kept before the index), else the live one's while
    ``_standings`` would answer it (under FRESH_S old; after the close only while a verdict is
    pending, the close tried first as there). None: ``_standings`` first."""
    client = get_redis()
    pipe = client.pipeline(transaction=False)
    pipe.exists(deals.final_key(game, week))
    pipe.hget(places.index_key(game, week, True), places.HEAD)
    kept, head = pipe.execute()
    if kept:
        key = places.index_key(game, week, True)
        if head is None:
            raw = client.get(deals.final_key(game, week))
            if raw is None:
                return None
            pipe = client.pipeline(transaction=True)
            places.write(pipe, key, json.loads(raw), max(_keep_s(week), INDEX_MIN_S))
            pipe.execute()
        return places.read(client, key, lines, players)
    if weeks.is_closed(week, settings()):
        closes_ms = int(weeks.closes_at(week, settings()).timestamp() * 1000)
        if deals.close(client, get_rankings(), game, week, closes_ms).judged:
            return None  # final now: _standings computes and keeps it
        # closed, a verdict still pending: the live standings, as _standings answers them
    found = places.read(client, places.index_key(game, week, False), lines, players)
    if found is None or not 0 <= _now_ms() - found.head.at < FRESH_S * 1000:
        return None
    return found


def _placed(game: str, week: str, lines: list[str], players: list[str]) -> places.Found:
    """As :func:`_index`, computing the standings first when they are due (as a read of the
    whole document would: the index is written with it)."""
    found = _index(game, week, lines, players)
    if found is not None:
        return found
    doc = _standings(game, week)
    key = places.index_key(game, week, bool(doc["final"]))
    found = places.read(get_redis(), key, lines, players)
    if found is not None and found.head.at == doc["at"]:
        return found
    # a document kept without its index (written before the index existed): read it in memory
    every = places.fields(doc)
    head = places.head_of(every[places.HEAD])
    got = {f: json.loads(every[f]) for f in lines if f in every}
    where = {p: every[f"p:{p}"] for p in players if f"p:{p}" in every}
    got |= {w: json.loads(every[w]) for w in where.values()}
    return places.Found(head, got, where)


def _whole(game: str, week: str, mine: set[str]) -> dict[str, Any]:
    """The unpaged answer: the whole document (the published file's, without credentials)."""
    doc = _standings(game, week)
    return {
        "game": game,
        "week": week,
        "final": doc["final"],
        "entries": [
            {k: v for k, v in e.items() if k != "player"} | {"you": e["player"] in mine}
            for e in doc["entries"]
        ],
        "incomplete": [
            {k: v for k, v in e.items() if k != "player"} | {"you": e["player"] in mine}
            for e in doc["incomplete"]
        ],
        "distributions": doc["distributions"],
    }


def _page(path: EventPath, offset: int, limit: int, mine: list[str]) -> dict[str, Any]:
    """A window of the standings from the place index: entries and incomplete players
    ``offset`` … ``offset + limit − 1``, each list in its own order, with both totals."""
    found = _placed(path.game, path.week, places.page_fields(offset, limit), mine)
    head = found.head
    yours = set(found.places.values())

    def lines(kind: str, total: int) -> list[dict[str, Any]]:
        fields = [f"{kind}{k}" for k in range(offset, min(offset + limit, total))]
        return [found.lines[f] | {"you": f in yours} for f in fields if f in found.lines]

    return {
        "game": path.game,
        "week": path.week,
        "final": head.final,
        "offset": offset,
        "limit": limit,
        "total": head.total,
        "incomplete_total": head.incomplete_total,
        "entries": lines("e", head.total),
        "incomplete": lines("i", head.incomplete_total),
        "distributions": head.distributions,
    }


@bp.get("/<game>/<week>/standings", responses=outputs.answers(models.Standings, 404, 422))
@checks_first(known_event)
def standings(path: EventPath, query: models.StandingsQuery) -> Response:
    """The standings with your place: live during the week (at most 60 s old), final once the
    event has closed and every finished deal is judged (an abandoned deal then counts as the
    field's worst score on it). With ``offset`` or ``limit`` (as the daily board's), a window
    of them: ``entries`` and ``incomplete`` from ``offset``, at most ``limit`` of each, with
    ``total`` and ``incomplete_total``; without either, the whole standings."""
    week = known_event(path.game, path.week)
    # without credentials no one's own: the session is not even read (no Vary: Cookie), so the
    # answer is the published file's (service.web.publishing), the same for everyone
    mine = [] if caching.anonymous() else identity.players_of_caller()
    if "offset" not in request.args and "limit" not in request.args:
        return jsonify(_whole(path.game, week, set(mine)))
    return jsonify(_page(path, query.offset, query.limit, mine))


def _best(found: places.Found) -> str | None:
    """The caller's line among their ids' (an account's attached devices too): a place in the
    standings before an incomplete count, the better place, the more deals."""

    def rank(field: str) -> tuple[int, int]:
        line = found.lines.get(field, {})
        if field.startswith("e"):
            return (0, int(line.get("place", 0)))
        return (1, -int(line.get("deals", 0)))

    fields = sorted({f for f in found.places.values() if f in found.lines}, key=rank)
    return fields[0] if fields else None


@bp.get("/<game>/<week>/standings/me", responses=outputs.answers(models.MyPlace, 401, 404))
@checks_first(known_event)
def my_place(path: EventPath) -> Response:
    """Your own place (or your count of deals while incomplete), read alone from the standings'
    place index: no page of the standings needs credentials. ``entry`` and ``incomplete`` are
    null for a caller without credentials or not in the standings."""
    week = known_event(path.game, path.week)
    mine = [] if caching.anonymous() else identity.players_of_caller()
    found = _placed(path.game, week, [], mine)
    field = _best(found)
    line = found.lines[field] if field is not None else None
    return jsonify(
        {
            "game": path.game,
            "week": week,
            "final": found.head.final,
            "total": found.head.total,
            "incomplete_total": found.head.incomplete_total,
            "entry": line if field is not None and field.startswith("e") else None,
            "incomplete": (
                line | {"offset": int(field[1:])}
                if line is not None and field is not None and field.startswith("i")
                else None
            ),
        }
    )


def known_season(game: str, month: str) -> str:
    """The month if ``game`` offers events and the month's first event has opened (404
    ``unknown_event``, as a week's)."""
    if game not in deals.EVENT_GAMES:
        raise ApiError(404, "unknown_event", f"{game} has no week's tournament yet")
    try:
        first = seasons.weeks_of(month)[0]
    except ValueError:
        raise ApiError(404, "unknown_event", "no such month (YYYY-MM)") from None
    known_event(game, first)
    return month


@bp.get("/<game>/seasons/<month>", responses=outputs.answers(models.Season, 404, 422))
@checks_first(known_season)
def season(path: SeasonPath) -> Response:
    """A calendar month's season standing: each player's best four event scores of the month
    summed, from the final standings of its closed events (docs/EVENTS.md, "The season")."""
    month = known_season(path.game, path.month)
    config = settings()
    weeks_doc = []
    finals = []
    for week in seasons.weeks_of(month):
        doc = _standings(path.game, week) if weeks.is_closed(week, config) else None
        final = doc is not None and bool(doc["final"])
        weeks_doc.append({"week": week, "final": final})
        if final and doc is not None:
            finals.append(doc["entries"])
    mine = set(identity.players_of_caller())
    return jsonify(
        {
            "game": path.game,
            "month": month,
            "final": all(w["final"] for w in weeks_doc),
            "weeks": weeks_doc,
            "entries": [
                {
                    "place": i,
                    "name": line.name,
                    "points": line.points / 100,
                    "counted": [c / 100 for c in line.counted],
                    "events": line.events,
                    "you": line.player in mine,
                }
                for i, line in enumerate(seasons.season(finals), 1)
            ],
        }
    )
