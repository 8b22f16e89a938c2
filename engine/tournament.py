"""Deprecated: ``engine.tournament`` moved to ``engine.pikdame.tournament`` (docs/ENGINE_API.md)."""

from __future__ import annotations

from typing import Any

from engine._deprecated import forward

_NAMES = ("main",)


def __getattr__(name: str) -> Any:
    return forward(__name__, "engine.pikdame.tournament", _NAMES, name)
