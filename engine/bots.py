"""Deprecated: ``engine.bots`` moved to ``engine.pikdame.bots`` (docs/ENGINE_API.md)."""

from __future__ import annotations

from typing import Any

from engine._deprecated import forward

_NAMES = ("choose_move", "LEVELS", "BOTS_VERSION")


def __getattr__(name: str) -> Any:
    return forward(__name__, "engine.pikdame.bots", _NAMES, name)
