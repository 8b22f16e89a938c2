"""Moved to :mod:`service.data.store` (the Flask-free data layer); this alias keeps
``from service import store`` working for code written before the move. Import from
``service.data`` in new code."""

from service.data.store import *  # noqa: F403
