"""The pages blueprint: the Jinja pages and their static assets (JS, CSS, card faces)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, render_template

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

bp = Blueprint(
    "pages",
    __name__,
    template_folder=str(TEMPLATES),
    static_folder=str(TEMPLATES / "static"),
    static_url_path="/static",
)


@bp.get("/")
def today() -> str:
    """Today's challenge: start or continue."""
    return render_template("today.html")
