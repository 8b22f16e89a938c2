"""Rename the game-state keys stored before the hash tags (service.common.keys.LEGACY_PATTERNS) to
their tagged names, once, on the single Redis, between days (no attempt is played across it),
before game state moves to a Redis Cluster. Idempotent: a key whose new name exists is left."""

from __future__ import annotations

import re
from collections.abc import Callable

import redis

from service.common import keys


def rename_legacy(client: redis.Redis[str]) -> int:
    """Rename every legacy game-state key; returns how many were renamed."""
    renamed = 0
    for pattern, expression, name in keys.LEGACY_PATTERNS:
        new_name: Callable[..., str] = getattr(keys, name)
        shape = re.compile(expression)
        for key in list(client.scan_iter(match=pattern, count=1000)):
            found = shape.fullmatch(key)
            if found is None:
                continue
            if client.renamenx(key, new_name(*found.groups())):  # type: ignore[no-untyped-call]
                renamed += 1
    return renamed
