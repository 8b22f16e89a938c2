"""Deprecated: ``engine.optimiser`` moved to ``engine.pikdame.optimiser`` (docs/ENGINE_API.md)."""

from __future__ import annotations

from typing import Any

from engine._deprecated import forward

_NAMES = ("best_arrangement", "Arrangement")


def __getattr__(name: str) -> Any:
    return forward(__name__, "engine.pikdame.optimiser", _NAMES, name)
