"""Reading a request body: a JSON object in UTF-8 (API.md), or a malformed request (400).

The app's request class, so every reader of the body (the route models of
:mod:`service.web.validation`, flask-openapi3 underneath) gets the same strict reading: bytes
that are not UTF-8 (UTF-16 would decode under ``json.loads``' own detection), nesting deeper than
the
parser's stack (a ``RecursionError`` was a 500), and anything but an object are refused.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Request

from service.errors import ApiError


class ApiRequest(Request):
    """Flask's request with :meth:`get_json` reading API.md's JSON object (and caching it)."""

    _object: dict[str, Any] | None = None

    def get_json(
        self, force: bool = False, silent: bool = False, cache: bool = True
    ) -> dict[str, Any]:
        """The body as a JSON object whatever ``silent`` asks: a bad body is the client's error
        (400), never ``None`` for a model to misread as a missing field."""
        if self._object is None:
            self._object = json_object(self.get_data(cache=True))
        return self._object


def json_object(data: bytes) -> dict[str, Any]:
    try:
        text = data.decode("utf-8-sig")  # a UTF-8 byte order mark is still UTF-8
        body = json.loads(text)
    except RecursionError:
        raise ApiError(400, "bad_request", "the JSON body is nested too deeply") from None
    except ValueError:  # UnicodeDecodeError and JSONDecodeError alike
        raise ApiError(400, "bad_json", "the body must be valid JSON (UTF-8)") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_json", "the body must be a JSON object")
    return body
