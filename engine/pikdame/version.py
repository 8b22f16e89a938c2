"""The engine version string that game records name (F6). Bump BOTS_VERSION whenever any bot's
behaviour changes: a record replays only against the bots that played it."""

from typing import Final

from engine.pikdame.bots import BOTS_VERSION

RULES_VERSION: Final = "1"
ENGINE_VERSION: Final = f"pikdame-engine/rules-{RULES_VERSION}/bots-{BOTS_VERSION}"
