"""The application factory (microblog style): ``create_app(config)``, one blueprint per area.

The API's blueprints are flask-openapi3 ``APIBlueprint``s: their routes validate the inputs
they declare and document themselves (service/web/apidoc.py); the pages are a plain blueprint.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.common import config as settings
from service.common import releases
from service.dailies import queue, store, verdicts
from service.dailies.early_views import EarlyViews
from service.web import (
    caching,
    compression,
    envelope,
    identity,
    limits,
    logs,
    redisconn,
    routing,
    security,
)
from service.web.apidoc import ApiApp
from service.web.proxies import TrustedProxies
from service.web.redisconn import settings_of
from service.web.requests import ApiRequest
from service.web.sessions import CookieSessions


def create_app(config: Mapping[str, Any] | None = None) -> ApiApp:
    """Build the app from the environment, then ``config`` (tests pass REDIS_URL, a clock …)."""
    app = ApiApp(__name__, static_folder=None)  # pages.bp serves templates/ and /static
    app.request_class = ApiRequest
    app.session_interface = CookieSessions()
    known = {v.name for v in settings.VARIABLES} | {"PIKDAME_NOW"}
    given = dict(config or {})
    app.config.update(settings.load(given).flask_config())
    app.config.update({k: v for k, v in given.items() if k not in known})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.wsgi_app = TrustedProxies(  # type: ignore[method-assign]
        EarlyViews(app.wsgi_app, app), settings_of(app).proxies
    )
    from service.web import measure  # the metrics per route (docs/METRICS.md)

    measure.register(app)  # outermost: it counts every answer, the early views' too
    redisconn.init_app(
        app, lambda client, config: queue.queue_on(client, config.queue, config.retry_intervals)
    )
    identity.init_app(app, store.player_for_token)  # bearer tokens are the attempts'
    # previous bot versions this install keeps: a game begun before a deploy goes on
    # with the bots it began with
    releases.load(settings_of(app).release_modules)
    envelope.register(app)
    logs.register(app)
    security.register(app)
    compression.register(app)  # before caching: it runs after it
    caching.register(app)
    limits.init_app(app)
    verdicts.init_app(app)
    routing.register(app)

    from service.accounts import api_accounts
    from service.dailies import api_attempts, api_daily, api_leaderboard
    from service.events import api_events
    from service.habit import api_habit, api_leagues
    from service.lobby import api_lobby
    from service.pages import pages
    from service.tables import api_tables
    from service.web import openapi, ops

    for api in (
        ops.bp,
        openapi.bp,
        api_daily.bp,
        api_attempts.bp,
        api_leaderboard.bp,
        api_events.bp,
        api_accounts.bp,
        api_habit.bp,
        api_leagues.bp,
        api_tables.bp,
        api_lobby.bp,
    ):
        app.register_api(api)
    app.register_blueprint(pages.bp)
    redisconn.register_acknowledgements(app)  # last: its 503 is what the other hooks see
    # API.md's limits are for the API; pages and their static assets (many per page load) are
    # left to the front proxy.
    limits.limiter.exempt(ops.bp)
    limits.limiter.exempt(pages.bp)
    return app
