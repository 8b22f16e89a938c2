"""Moved to :mod:`service.data.config` (the Flask-free data layer); this alias keeps
``from service import config`` working for code written before the move. Import from
``service.data`` in new code."""

from service.data.config import *  # noqa: F403
