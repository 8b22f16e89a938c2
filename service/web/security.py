"""Security headers on every response, and CSRF by content type.

State-changing requests must carry ``Content-Type: application/json``: a cross-site HTML form can
only send form encodings or text/plain, so it cannot post to the API.
"""

from __future__ import annotations

from typing import Final

from flask import Flask, Response, request

from service.errors import ApiError
from service.web.proxies import front_adds_headers

CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)
HEADERS: Final = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
_LOWER: Final = tuple((name.lower(), name, value) for name, value in HEADERS.items())
UNSAFE_METHODS: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def register(app: Flask) -> None:
    @app.before_request
    def _json_only() -> None:
        # A URL or method without a route is answered by routing (404, 405 with Allow).
        if (
            request.method in UNSAFE_METHODS
            and request.routing_exception is None
            and request.mimetype != "application/json"
        ):
            raise ApiError(
                415, "unsupported_media_type", "send the body as Content-Type: application/json"
            )

    @app.after_request
    def _headers(response: Response) -> Response:
        # One pass over the response's few headers, then one extend: seven setdefault calls
        # scanned the header list seven times, a measurable part of a cheap read's CPU.
        have = {name.lower() for name, _ in response.headers}  # (name, value) pairs
        if front_adds_headers(request.environ):  # the shipped nginx adds them (service.web.proxies)
            missing = []
        else:
            missing = [(name, value) for low, name, value in _LOWER if low not in have]
        if request.path.startswith("/api/") and "cache-control" not in have:
            missing.append(("Cache-Control", "no-store"))
        response.headers.extend(missing)
        return response
