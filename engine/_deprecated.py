"""Old module paths that documented callers may still use: each forwards to the new home of a name
with a :class:`DeprecationWarning` that names it (docs/ENGINE_API.md lists the paths)."""

from __future__ import annotations

import importlib
import warnings
from typing import Any


def forward(old: str, new: str, names: tuple[str, ...], name: str) -> Any:
    """The attribute ``name`` of module ``old``, looked up in ``new`` with a warning."""
    if name not in names:
        raise AttributeError(f"module {old!r} has no attribute {name!r}")
    warnings.warn(
        f"{old}.{name} is deprecated: import it from {new}", DeprecationWarning, stacklevel=3
    )
    return getattr(importlib.import_module(new), name)
