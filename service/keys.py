"""Moved to :mod:`service.data.keys` (the Flask-free data layer); this alias keeps
``from service import keys`` working for code written before the move. Import from
``service.data`` in new code."""

from service.data.keys import *  # noqa: F403
