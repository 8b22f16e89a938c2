"""Requests counted and timed per route (service.common.metrics), as WSGI middleware outside
everything else, so the early views' answers (service.dailies.early_views), the 503 of a Redis
outage and an exception that escapes Flask (gunicorn's 500) are counted too.

The route is the URL rule Flask matched (``/api/attempts/<attempt_id>``), never the path: a
label's values stay as few as the routes. Flask names it in the WSGI environ in its first
``before_request``; a request answered before Flask routes it looks its rule up in the map.
The time is to the status line (a stream's: until its answer begins, not its whole life).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Final

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from service.common import metrics

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

ROUTE: Final = "pikdame.route"  # the WSGI environ's key for the matched URL rule


class Measured:
    """Wraps the app's WSGI callable (service.app.create_app)."""

    def __init__(self, app: WSGIApplication, flask_app: Flask) -> None:
        self.app = app
        self.flask_app = flask_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Any:
        started = time.perf_counter()

        def measured_start(status: str, headers: Any, exc_info: Any = None) -> Any:
            self.record(environ, int(status[:3]), started)
            return start_response(status, headers, exc_info)

        try:
            return self.app(environ, measured_start)
        except Exception:
            self.record(environ, 500, started)  # gunicorn answers 500
            raise

    def record(self, environ: WSGIEnvironment, status: int, started: float) -> None:
        if environ.get(ROUTE + ".done"):
            return  # a start_response called again with exc_info: counted once
        environ[ROUTE + ".done"] = True
        route = environ.get(ROUTE) or self.rule_of(environ)
        method = str(environ.get("REQUEST_METHOD", ""))
        metrics.observe_request(route, method, status, time.perf_counter() - started)

    def rule_of(self, environ: WSGIEnvironment) -> str | None:
        """The URL rule of a request Flask did not route (an early view's answer)."""
        try:
            rule, _ = self.flask_app.url_map.bind_to_environ(environ).match(return_rule=True)
        except HTTPException:
            return None
        return str(rule.rule)


def register(app: Flask) -> None:
    """The middleware, and the hook that names the route (before every other hook)."""

    def name_route() -> None:
        rule = request.url_rule
        if rule is not None:
            request.environ[ROUTE] = rule.rule

    app.before_request_funcs.setdefault(None, []).insert(0, name_route)
    app.wsgi_app = Measured(app.wsgi_app, app)  # type: ignore[method-assign]
