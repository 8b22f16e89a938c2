"""Moved to :mod:`service.data.clock` (the Flask-free data layer); this alias keeps
``from service import clock`` working for code written before the move. Import from
``service.data`` in new code."""

from service.data.clock import *  # noqa: F403
