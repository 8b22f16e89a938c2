"""Flask's signed-cookie session without its per-request set-up costs (same cookies, same headers).

Flask builds a new signing serializer on every request, and itsdangerous test-serialises ``{}`` in
its constructor, even when the request carries no session cookie (every bearer-token and public
read): about a tenth of a cheap read's CPU (cProfile, bench/results/service_refactor.md). Here the
serializer is built once per key set, a request without the cookie gets an empty session without
it, and an empty untouched session is saved by doing nothing (``Vary: Cookie`` as before when it
was read).
"""

from __future__ import annotations

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import URLSafeTimedSerializer


class CookieSessions(SecureCookieSessionInterface):
    """The app's session interface (service.app)."""

    def __init__(self) -> None:
        self._serializers: dict[tuple[object, ...], URLSafeTimedSerializer] = {}

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        key = (app.secret_key, *(app.config["SECRET_KEY_FALLBACKS"] or ()))
        serializer = self._serializers.get(key)
        if serializer is None:
            serializer = super().get_signing_serializer(app)
            assert serializer is not None
            self._serializers[key] = serializer
        return serializer

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if not session and not session.modified:  # Flask's own early return, taken earlier
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)
