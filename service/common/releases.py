"""Release modules (deploy-safe verification): previous bot versions kept beside today's.

A release module registers its versions with its game's ``engine.<game>.releases.register`` when
imported.
Web processes and workers import the ones named in ``PIKDAME_RELEASES`` before their first game or
job. The import by name lives here, not in the engine: the engine imports only fixed modules.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable


def load(modules: Iterable[str]) -> None:
    """Import each release module (each registers its versions when imported). An unimportable
    module raises: a worker that cannot keep a release it was told to keep must not start and
    judge without it."""
    for name in modules:
        importlib.import_module(name)
