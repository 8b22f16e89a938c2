"""The pages blueprint: the Jinja pages and their static assets (JS, CSS, card faces).

Every page is a client of the JSON API (API.md): the templates carry no game data, only the
page's strings. The one extra endpoint, ``GET /replay/<id>/positions``, steps a finished game of a
closed day through the engine for the replay viewer; while the day's seed is secret it refuses, so
nothing of a running day can be read through it, except by the finished attempt's owner, who sees
their own game again as they saw it at the table (no seed, no hidden card).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Response,
    abort,
    jsonify,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader
from werkzeug.utils import cached_property

from engine.core import events as identity_of
from engine.core.errors import FormatError
from service import games
from service.common import clock
from service.dailies import replays, store
from service.dailies.archive import from_settings as archive_of
from service.errors import DayOpen, UnknownReplay
from service.events import deals as event_deals
from service.events import seasons as event_seasons
from service.events import weeks as event_weeks
from service.games.adapter import form_facts
from service.pages import assets, learn, offline
from service.pages.strings import LANG_NAMES, LANGS, strings
from service.tables import store as tables
from service.tables.documents import invite_preview
from service.web import identity
from service.web.limits import limit_table_address, limiter, replay_limit
from service.web.redisconn import get_redis, settings

TEMPLATES: Final = Path(__file__).resolve().parents[2] / "templates"
STATIC: Final = TEMPLATES / "static"
LANG_COOKIE: Final = "lang"
#: The games of the "Spielen" page, and those its table pages can show (<game>/table.html).
TABLE_GAMES: Final = tuple(g for g in games.LISTED if g in games.TABLE_GAMES)
PLAYABLE: Final = TABLE_GAMES


class PagesBlueprint(Blueprint):
    """The pages' blueprint: templates/ first, then each game kept outside the house
    (service.games.FOLDERS) for the templates under its name only (``<game>/table.html`` from
    its folder's ``templates/table.html``; Jinja refuses a name that leaves a folder)."""

    @cached_property
    def jinja_loader(self) -> BaseLoader | None:
        own = FileSystemLoader(str(TEMPLATES))
        if not games.FOLDERS:
            return own
        extra = {name: FileSystemLoader(str(f / "templates")) for name, f in games.FOLDERS.items()}
        return ChoiceLoader([own, PrefixLoader(extra)])


bp = PagesBlueprint(
    "pages",
    __name__,
    template_folder=str(TEMPLATES),
    static_folder=str(STATIC),
    static_url_path="/static",
)
assets.register(bp, STATIC)


@bp.get("/static/games/<game>/<path:filename>")
def game_static(game: str, filename: str) -> Response:
    """A static file of a game kept outside the house (its folder's ``static/``; a name that
    leaves it is 404, as ``send_from_directory`` joins safely); 404 for any other game."""
    folder = games.FOLDERS.get(game)
    if folder is None:
        abort(404)
    return send_from_directory(folder / "static", filename)


def current_lang() -> str:
    """``?lang=`` wins, then the cookie (the last choice), then the browser's Accept-Language
    (its most wanted language the site speaks, ``nl-BE`` as ``nl``), then German."""
    asked = request.args.get("lang")
    if asked in LANGS:
        return asked
    saved = request.cookies.get(LANG_COOKIE)
    if saved in LANGS:
        return saved
    return request.accept_languages.best_match(LANGS, default=LANGS[0]) or LANGS[0]


def game_page(game: str, name: str) -> str:
    """A game's own page, ``templates/<game>/<name>.html``: every game names its pages alike
    (``table``, ``play``, ``replay``, ``rules_<lang>``)."""
    return f"{game}/{name}.html"


def page(template: str, name: str, *, personal: bool = True, **context: Any) -> Response:
    """``template`` in the asker's language; ``personal`` False for a page kept for whoever uses
    the device next (the service worker's offline page): it names no account."""
    lang = current_lang()
    table = strings(lang)

    def t(key: str) -> str:
        return table.get(key, key)

    account = identity.signed_in() if personal else None
    game = context.get("game")  # a game's page: its cards' badges (the adapter's, R1)
    # as [rank, suit, text]: a badge is declared for every page of the game, held or not, so it
    # names no card code a leak check could mistake for a card on the table (R10)
    badges = (
        [[code[0], code[1], text] for code, text in games.GAMES[game].badges]
        if isinstance(game, str) and game in games.GAMES
        else []
    )
    html = render_template(
        template,
        lang=lang,
        card_badges=badges,
        account_name=account.name if account is not None else None,
        t=t,
        strings=table,
        page_name=name,
        langs=[(code, LANG_NAMES[code], _switch_url(code)) for code in LANGS],
        **context,
    )
    response = Response(html, mimetype="text/html")
    if request.args.get("lang") in LANGS:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response


def _switch_url(lang: str) -> str:
    """This page in another language (its other query arguments kept)."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    return f"{request.path}?{urlencode([*args, ('lang', lang)])}"


@bp.get("/")
def today() -> Response:
    """Today's challenge: start or continue. Whether a start here is ranked is said before it
    (an account's, or anyone's where the operator ranks anonymous play): an anonymous player
    learns up front that the game is "ohne Wertung" and where to sign in."""
    return page(
        "today.html", "today", rank_anonymous=settings().rank_anonymous, event_games=_event_games()
    )


def _game_pages(name: str) -> None:
    """A game's own pages under its URLs (its adapter's ``pages``): its rules, and for a daily
    game an attempt's board (``<prefix>/play/<id>``: the API decides whether this browser may see
    it) and the replay viewer of a finished attempt (``<prefix>/replay/<id>``, reading
    ``/replay/<id>/positions``). A marked game's endpoints carry its name (``gin_play``)."""
    adapter = games.get(name)

    def own(endpoint: str) -> str:
        return f"{name}_{endpoint}" if adapter.marked else endpoint

    def rules() -> Response:
        return page(game_page(name, f"rules_{current_lang()}"), "rules", game=name)

    def play(attempt_id: str) -> Response:
        return page(game_page(name, "play"), "play", attempt_id=attempt_id, game=name)

    def replay_viewer(attempt_id: str) -> Response:
        return page(
            game_page(name, "replay"), "replay", attempt_id=attempt_id, table_id="", game=name
        )

    bp.add_url_rule(adapter.pages.rules, f"rules_{name}" if adapter.marked else "rules", rules)
    if games.offers(name, games.DAILY):
        prefix = adapter.pages.prefix
        bp.add_url_rule(f"{prefix}/play/<attempt_id>", own("play"), play)
        bp.add_url_rule(f"{prefix}/replay/<attempt_id>", own("replay_viewer"), replay_viewer)


for _name in games.LISTED:
    _game_pages(_name)


@bp.get("/rankings")
def rankings() -> Response:
    return page("rankings.html", "rankings", daily_games=_daily_games(), event_games=_event_games())


@bp.get("/archive")
def archive() -> Response:
    return page("archive.html", "archive", daily_games=_daily_games())


def _daily_games() -> list[dict[str, Any]]:
    """The daily games as the game switch shows them (templates/_game_switch.html)."""
    return [
        {
            "name": name,
            "marked": games.get(name).marked,
            "prefix": games.get(name).pages.prefix,
            "tie_break": games.daily(name).tie_break,
        }
        for name in games.DAILY_GAMES
    ]


#: The daily games whose week's tournament has pages: those that declare ``EVENT`` (the
#: registry's, docs/EVENTS.md), each shown by the same pages.
EVENT_GAMES: Final = event_deals.EVENT_GAMES
#: The game of a tournament page without ``?game=``: the unmarked daily game if it has an event
#: (its URLs stay as they were), as the rankings' switch chooses (lib/switch.js).
EVENT_DEFAULT: Final = games.DEFAULT if games.DEFAULT in EVENT_GAMES else EVENT_GAMES[0]
#: How many closed weeks back the tournament's archive looks for events with entrants.
ARCHIVE_WEEKS: Final = 52
_WEEK: Final = dt.timedelta(days=7)


def _event_query(game: str) -> str:
    """The query that names ``game`` on the tournament's pages: none for the default game."""
    return "" if game == EVENT_DEFAULT else f"?{urlencode({'game': game})}"


def _event_games() -> list[dict[str, Any]]:
    """The event games as the game switch (templates/_game_switch.html) and the links to the
    tournament show them."""
    return [
        {
            "name": name,
            "marked": games.get(name).marked,
            "prefix": games.get(name).pages.prefix,
            "tie_break": games.daily(name).tie_break,
            "query": _event_query(name),
        }
        for name in EVENT_GAMES
    ]


def _event_game() -> str:
    """The tournament page's game: ``?game=`` (404 for a game without an event, as the API's
    ``unknown_event``), else :data:`EVENT_DEFAULT`."""
    asked = request.args.get("game") or EVENT_DEFAULT
    if asked not in EVENT_GAMES:
        abort(404)
    return asked


def event_page(template: str, **context: Any) -> Response:
    """A tournament page of the asked game: its switch to the other event games, its own
    query for the links between the pages, its daily pages' prefix and rules."""
    game = _event_game()
    return page(
        template,
        "event",
        game=game,
        daily_games=_event_games(),
        game_query=_event_query(game),
        prefix=games.get(game).pages.prefix,
        rules_url=games.get(game).pages.rules,
        **context,
    )


def _event_week(week: str) -> str:
    """``week`` if it names an ISO week that has opened (404 otherwise, as the API's
    ``unknown_event``: no page for a week whose commitments are not out)."""
    try:
        opens = identity_of.opens_at(week)
    except FormatError:
        abort(404)
    if clock.now(settings()) < opens:
        abort(404)
    return week


@bp.get("/turnier")
def event_current() -> Response:
    """This week's tournament (docs/EVENTS.md): the deals' commitments, the time left, the
    caller's progress and each played deal's result against the field; start the next deal."""
    return event_page("event.html", week="")


@bp.get("/turnier/<week>")
def event_week(week: str) -> Response:
    """A week's tournament, as :func:`event_current` (closed: the seeds too)."""
    return event_page("event.html", week=_event_week(week))


@bp.get("/turnier/<week>/stand")
def event_standings(week: str) -> Response:
    """A week's standings with the caller's place (live, then final); after the close the
    seeds and the links to the caller's replays and analyses."""
    return event_page("event_standings.html", week=_event_week(week))


@bp.get("/turnier/saison")
def event_season_current() -> Response:
    """This month's season standing (the month of the current week's Thursday)."""
    month = event_seasons.month_of(event_weeks.current_week(settings()))
    return _season_page(month)


@bp.get("/turnier/saison/<month>")
def event_season(month: str) -> Response:
    """A calendar month's season standing: each player's best four events of the month."""
    return _season_page(month)


def _season_page(month: str) -> Response:
    """The season page of ``month`` with its neighbours' links (the next one only once its
    first event has opened); 404 for a malformed month or one not yet begun."""
    try:
        weeks = event_seasons.weeks_of(month)
    except ValueError:
        abort(404)
    _event_week(weeks[0])
    before = event_seasons.month_of(identity_of.week_of(identity_of.week_monday(weeks[0]) - _WEEK))
    following = identity_of.week_of(identity_of.week_monday(weeks[-1]) + _WEEK)
    after = None
    if clock.now(settings()) >= identity_of.opens_at(following):
        after = event_seasons.month_of(following)
    return event_page(
        "event_season.html",
        month=month,
        weeks=weeks,
        before=before,
        after=after,
    )


@bp.get("/turnier/archiv")
def event_archive() -> Response:
    """The closed weeks with entrants, newest first (up to a year back), each linking to its
    final standings. Which weeks had entrants is read from the events' ranked starts (or, past
    the retention, their kept final standings)."""
    config = settings()
    game = _event_game()
    week = identity_of.week_of(identity_of.week_monday(event_weeks.current_week(config)) - _WEEK)
    candidates = []
    for _ in range(ARCHIVE_WEEKS):
        if event_weeks.is_closed(week, config):
            candidates.append(week)
        week = identity_of.week_of(identity_of.week_monday(week) - _WEEK)
    pipe = get_redis().pipeline(transaction=False)
    for week in candidates:  # its ranked starts, or once trimmed its kept final standings
        pipe.exists(event_deals.started_key(game, week), event_deals.final_key(game, week))
    held = [w for w, n in zip(candidates, pipe.execute(), strict=True) if n]
    past = [
        {
            "week": w,
            "monday": identity_of.week_monday(w).isoformat(),
            "sunday": (identity_of.week_monday(w) + _WEEK - dt.timedelta(days=1)).isoformat(),
        }
        for w in held
    ]
    return event_page("event_archive.html", past=past)


@bp.get("/account")
def account() -> Response:
    """Sign up, sign in, devices, sign out, delete (passkeys; the API does the work). The page
    knows whether the session is signed in (a signed-out page asks the API for no account it
    knows is not there) and the site's own address (passkeys work only there)."""
    return page(
        "account.html",
        "account",
        site=settings().site_address(),
    )


@bp.get("/stats")
def stats() -> Response:
    """The caller's statistics and streaks."""
    return page("stats.html", "stats")


@bp.get("/ratings/<game>")
def ratings(game: str) -> Response:
    """A table game's ratings board (docs/LOBBY.md): the established players, then the
    provisional ones; a switch to every other table game's board."""
    if game not in TABLE_GAMES:
        abort(404)
    return page("ratings.html", "ratings", game=game, table_games=TABLE_GAMES)


@bp.get("/field/<attempt_id>")
def field(attempt_id: str) -> Response:
    """A finished attempt's place in the field (the API decides who may see it)."""
    return page("field.html", "field", attempt_id=attempt_id)


@bp.get("/leagues")
def leagues() -> Response:
    return page("leagues.html", "leagues")


@bp.get("/leagues/<code>")
def league(code: str) -> Response:
    return page("league.html", "leagues", code=code)


@bp.get("/spielen")
def new_table() -> Response:
    """The lobby (the open public tables, live), the quick match, and making a table: game, seats,
    bot levels, house rules (R9), public or private, rated or casual. A game is offered
    once the backend has it and the table page can show it; the others show "bald". The form
    is built from each offered game's declaration (``forms``: service.games.adapter.form_facts),
    embedded as JSON for the script too."""
    offered = [game for game in PLAYABLE if game in games.GAMES]
    seat_counts = {game: games.GAMES[game].seat_counts for game in offered}
    forms = [form_facts(games.offering(games.TABLES)[game]) for game in offered]
    return page(
        "table_new.html",
        "tables",
        games=TABLE_GAMES,
        offered=offered,
        seat_counts=seat_counts,
        forms=forms,
        most_seats=max(n for form in forms for n in form["seats"]),
        seat_choices=sorted({n for form in forms for n in form["seats"]}),
        options=list({o["key"]: o for form in forms for o in form["options"]}.values()),
    )


@bp.get("/t/<invite>")
@limit_table_address()  # a preview answers whether an invite exists: counted as a join try
def join_table(invite: str) -> Response:
    """A friend's invite: which game, its rules and seats, then a name and the seat (the API
    checks the code; an unknown one shows the form without a preview and the join says 404).
    A table no one can join any more says why instead of the form (the join would be 409); a
    player seated there goes on to the table."""
    found = tables.by_invite(get_redis(), invite) if len(invite) <= 64 else None
    if found is None:
        return page("table_join.html", "tables", invite=invite, preview=None, closed=None)
    if found.seat_of(None, identity.session_player()) is not None:
        lang = request.args.get("lang")
        query = f"?{urlencode({'lang': lang})}" if lang in LANGS else ""
        moved = Response(status=303)  # Flask's own Response (werkzeug's redirect() is not)
        moved.headers["Location"] = f"/tables/{found.id}{query}"
        return moved
    preview = invite_preview(found)
    return page("table_join.html", "tables", invite=invite, preview=preview, closed=_closed(found))


def _closed(table: tables.Table) -> str | None:
    """Why no seat of ``table`` can be taken (the join's 409), or None: ``finished``,
    ``playing`` (``already_started``) or ``full`` (``table_full``)."""
    if table.status != "waiting":
        return "finished" if table.status == "finished" else "playing"
    if table.open_seats():
        return None
    return "full"


@bp.get("/tables/<id:table_id>")
def table(table_id: str) -> Response:
    """One table: the waiting room, the game live, round results and the final standings; the
    page of the table's game (an unknown table gets Pik Dame's page, which says so)."""
    found = tables.load(get_redis(), table_id)
    game = found.game if found is not None else games.DEFAULT
    return page(game_page(game, "table"), "tables", table_id=table_id, game=game)


@bp.get("/tables/<id:table_id>/replay")
def table_replay(table_id: str) -> Response:
    """A finished table's game, round by round, in its game's replay viewer."""
    found = tables.load(get_redis(), table_id)
    game = found.game if found is not None else games.DEFAULT
    return page(game_page(game, "replay"), "replay", attempt_id="", table_id=table_id, game=game)


@bp.get("/tables/<id:table_id>/replay/positions")
@limiter.limit(replay_limit)
def table_replay_positions(table_id: str) -> tuple[Response, int] | Response:
    """Every round's positions (F5) of a finished table, from its public record (every seed is
    revealed once the game has ended): ``{"record", "rounds": [{"record", "positions"}]}``
    (Gin, one seed dealing the whole match: ``{"record", "deals", "positions"}``)."""
    found = tables.load(get_redis(), table_id)
    if found is None:
        return _error(404, "unknown_table", "no such table")
    if found.status != "finished":
        return _error(409, "not_finished", "a table can be replayed once its game has ended")
    first = tables.Table(**{**found.__dict__, "seats": found.first_seats})
    record = found.kind.record(found.loaded(), first.engine_seats())
    response = jsonify(found.kind.table_steps(record))
    response.headers["Cache-Control"] = "public, max-age=86400, immutable"  # a finished game's
    return response


@bp.get("/replay/<id:attempt_id>/positions")
@limiter.limit(replay_limit)
def replay_positions(attempt_id: str) -> tuple[Response, int] | Response:
    """Every position (F5) of a finished game of a closed day, for the replay viewer: the same
    facts its published record and seed give anyone (F6, F4), stepped through by the engine;
    from the archive once the attempt itself has expired (service.dailies.replays)."""
    config = settings()
    try:
        text = replays.document(get_redis(), archive_of(config), attempt_id, config)
    except UnknownReplay:
        return _error(404, "unknown_attempt", "no such attempt")
    except DayOpen:
        return _own_early(attempt_id)
    response = Response(text, mimetype="application/json")
    response.headers["Cache-Control"] = "public, max-age=86400, immutable"
    return response


def _own_early(attempt_id: str) -> tuple[Response, int] | Response:
    """Before the close only the owner of a finished attempt sees it again, as seat 0 saw it and
    without the day's seed (``replays.owner_document``); anyone else, and an unfinished attempt,
    gets the refusal: 409 ``day_open``."""
    attempt = store.load(get_redis(), attempt_id)
    if attempt is None or attempt.status != "finished" or not identity.owns(attempt):
        return _error(409, "day_open", "a game can be replayed once its day has closed")
    response = Response(replays.owner_document(attempt, settings()), mimetype="application/json")
    response.headers["Cache-Control"] = "private, no-store"  # the owner's alone, until the close
    return response


def _error(status: int, code: str, message: str) -> tuple[Response, int]:
    return jsonify({"error": {"code": code, "message": message}}), status


@bp.get("/settings")
def settings_page() -> Response:
    """The player's settings: deck colours, card size, contrast, sound, language (kept on the
    device and, signed in, with the account: ``/api/account/settings``)."""
    return page("settings.html", "settings")


@bp.get("/offline")
def offline_page() -> Response:
    """What the service worker shows for a page asked without a network: that it needs one. It
    keeps the page from its install on, past a sign-out and for the next account: none named."""
    return page("offline.html", "offline", personal=False)


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker's script, at the root so its scope is the whole site; asked again by
    the browser on every visit (no-cache) so a release reaches it at once."""
    response = Response(offline.worker_script(STATIC), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def web_manifest() -> Response:
    """The web app manifest (installing the site as an app) in the page's language."""
    lang = current_lang()
    document = offline.manifest(
        lang, strings(lang), lambda name: url_for("pages.static", filename=name)
    )
    response = jsonify(document)
    response.mimetype = "application/manifest+json"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/lernen/<game>")
def lesson(game: str) -> Response:
    """A guided first round of one game on a fixed deal (service.pages.learn): every step explained
    with its rule, the learner makes each highlighted move; the positions are the engine's."""
    if game not in learn.LESSONS:
        abort(404)
    return page(
        "learn.html",
        "rules",
        game=game,
        lesson=learn.document(game, current_lang()),
        lessons=tuple(learn.LESSONS),
    )
