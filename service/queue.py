"""Moved to :mod:`service.data.queue` (the Flask-free data layer); this alias keeps
``from service import queue`` working for code written before the move. Import from
``service.data`` in new code."""

from service.data.queue import *  # noqa: F403
