"""``GET /api/openapi.json``: the API's OpenAPI document, generated from the routes' declarations
(:mod:`service.web.apidoc`)."""

from __future__ import annotations

from flask import Response, current_app, jsonify

from service.web import outputs
from service.web.apidoc import api_blueprint

bp = api_blueprint("openapi", __name__)


@bp.get("/api/openapi.json", responses=outputs.answers(outputs.OpenApi))
def openapi() -> Response:
    """This document (OpenAPI 3.1), generated from the routes' declarations."""
    return jsonify(current_app.api_doc)  # type: ignore[attr-defined]
