"""The application factory (microblog style): ``create_app(config)``, one blueprint per area."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from service import config as settings
from service import errors, redisconn


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from the environment, then ``config`` (tests pass REDIS_URL, a clock …)."""
    app = Flask(__name__, static_folder=None)  # pages.bp serves templates/ and /static
    app.config.update(settings.load(config))
    redisconn.init_app(app)
    errors.register(app)

    from service import ops, pages

    app.register_blueprint(ops.bp)
    app.register_blueprint(pages.bp)
    return app
