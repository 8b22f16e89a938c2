"""Versioned static files: each URL carries its content's hash (``?v=``), so a browser and the
front proxy keep it for a year (``immutable``) and a changed file is a new URL.

``url_for('pages.static', filename=…)`` in the templates adds the version by itself. Files the
JavaScript imports by relative path carry no version: they keep Flask's revalidation (ETag).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any, Final

from flask import Blueprint, Response, request

YEAR: Final = 365 * 24 * 3600
IMMUTABLE: Final = f"public, max-age={YEAR}, immutable"


@cache
def version(root: Path, filename: str) -> str | None:
    """The first 12 hex digits of the file's SHA-256 (None for a name that is not a file)."""
    path = (root / filename).resolve()
    if not path.is_relative_to(root.resolve()) or not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def register(bp: Blueprint, root: Path) -> None:
    """Version the blueprint's static URLs and mark a request for the current version immutable."""

    @bp.app_url_defaults
    def _versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == f"{bp.name}.static" and "v" not in values:
            found = version(root, str(values.get("filename", "")))
            if found is not None:
                values["v"] = found

    @bp.after_request
    def _immutable(response: Response) -> Response:
        if request.endpoint != f"{bp.name}.static" or response.status_code != 200:
            return response
        given = request.args.get("v")
        if given and given == version(root, str((request.view_args or {}).get("filename", ""))):
            response.headers["Cache-Control"] = IMMUTABLE
        return response
