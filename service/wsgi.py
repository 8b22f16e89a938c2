"""The WSGI entry point for gunicorn: ``gunicorn -c deploy/gunicorn.conf.py service.wsgi:app``.

gunicorn preloads this module (``preload_app``), so the bots that answer moves are imported once
in the master rather than on each worker's first move.
"""

from __future__ import annotations

from service import games
from service.app import create_app

games.preload()  # the bots load lazily otherwise
app = create_app()
