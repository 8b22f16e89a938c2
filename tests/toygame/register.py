"""The toy game's registration, one line per layer, as ``PIKDAME_EXTRA_GAMES`` names it: the
engine's registry (engine.games.register), the service's (its ``ADAPTER``, read by
service.games), and its folder of pages, scripts and strings (``FOLDER``: ``templates/``,
``static/``, ``i18n/<lang>.json``, found by service.pages)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from engine import games
from tests.toygame.adapter import ADAPTER
from tests.toygame.engine.game import THREES

games.register(THREES)
FOLDER: Final = Path(__file__).resolve().parent

__all__ = ["ADAPTER", "FOLDER"]
