"""URL converters: ``<id:attempt_id>`` for every stored object's id (attempts; tables next).

An id longer than any the service hands out names nothing. The converter cuts it to one character
more than the longest id: still unknown to every lookup, so the route answers its own 404
(``unknown_attempt``, ``not_ranked``) at its own place in API.md's order (a malformed body still
comes first), and Redis never sees a key built from an arbitrarily long URL.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import BaseConverter

from service.web.inputs import MAX_ID


class IdConverter(BaseConverter):
    def to_python(self, value: str) -> str:
        return value[: MAX_ID + 1]


def register(app: Flask) -> None:
    app.url_map.converters["id"] = IdConverter
