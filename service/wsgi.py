"""The WSGI entry point for gunicorn: ``gunicorn -c deploy/gunicorn.conf.py service.wsgi:app``."""

from __future__ import annotations

from service.app import create_app

app = create_app()
