"""The engine version string that game records name (F6). Bump BOTS_VERSION whenever any bot's
behaviour changes: a record replays only against the bots that played it."""

from typing import Final

from engine.pikdame.bots import BOTS_VERSION, TAUSENDE_BOTS_VERSION

RULES_VERSION: Final = "1"
ENGINE_VERSION: Final = f"pikdame-engine/rules-{RULES_VERSION}/bots-{BOTS_VERSION}"
#: A Tausende record (R12) names its own bots' version beside Pik Dame's, so a change to one
#: ruleset's bots never invalidates the other's records.
TAUSENDE_ENGINE_VERSION: Final = f"{ENGINE_VERSION}/tausende-bots-{TAUSENDE_BOTS_VERSION}"


def engine_version(tausende: bool) -> str:
    """The version string a record of this ruleset names (F6)."""
    return TAUSENDE_ENGINE_VERSION if tausende else ENGINE_VERSION
