"""The rules engines: pure Python, deterministic, no I/O (docs/ENGINE_API.md, docs/ARCHITECTURE.md).

``engine.core`` holds what every game shares (card ids, the F3 random stream, errors, meld
primitives, the game/state/view shape); each game is a package beside it (``engine.pikdame``).
Pik Dame's public names stay importable from ``engine`` itself.
"""

# Pik Dame's public names are the engine's (docs/ENGINE_API.md): one list, engine.pikdame's.
from engine.pikdame import *  # noqa: F403
from engine.pikdame import __all__ as __all__
