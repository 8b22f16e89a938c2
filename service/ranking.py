"""Moved to :mod:`service.data.ranking` (the Flask-free data layer); this alias keeps
``from service import ranking`` working for code written before the move. Import from
``service.data`` in new code."""

from service.data.ranking import *  # noqa: F403
