"""Reading request input: a JSON object body (400 otherwise) and bounded integer parameters."""

from __future__ import annotations

import re
from typing import Any, Final

from flask import request

from service.data import names
from service.errors import ApiError

INTEGER: Final = re.compile(r"-?[0-9]{1,12}")


def json_object() -> dict[str, Any]:
    """The body as a JSON object; anything else is a malformed request (400)."""
    body = request.get_json(silent=True, force=False)
    if body is None:
        raise ApiError(400, "bad_json", "the body must be valid JSON (UTF-8)")
    if not isinstance(body, dict):
        raise ApiError(400, "bad_json", "the body must be a JSON object")
    return body


def int_arg(name: str, default: int, low: int, high: int) -> int:
    """A query parameter in ``low … high``; out of range or not a number is 422 bad_value."""
    text = request.args.get(name)
    if text is None:
        return default
    if INTEGER.fullmatch(text) is None:
        raise ApiError(422, "bad_value", f"{name} must be an integer")
    value = int(text)
    if not low <= value <= high:
        raise ApiError(422, "bad_value", f"{name} must be between {low} and {high}")
    return value


def name_field(body: dict[str, Any]) -> str:
    """A player's name, normalised (service.data.names: NFKC, visible, 1–24 characters; 422
    bad_value)."""
    name = body.get("name")
    if not isinstance(name, str):
        raise ApiError(422, "bad_value", "name: 1 to 24 printable characters")
    try:
        return names.normalise(name)
    except names.BadName as e:
        raise ApiError(422, "bad_value", str(e)) from None
