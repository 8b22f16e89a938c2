"""Pik Dame (RULES.md R1–R11): the game's rules, documents, bots and optimiser.

Layers inside the package, each importing only those above it:

- ``cards`` (R1 points), ``errors`` (F7 codes), ``melds`` (R5, R6), ``meldgen``, ``moves`` (F2)
- ``rules`` (R7–R9 values: rules, seats, outcomes and their scoring), ``deal`` (F3)
- ``position`` (F5 document), ``state`` (R2–R8: ``push``, ``legal_moves``), ``view`` (R10)
- ``optimiser`` (R4.2, one entry point), ``bots`` (R10), ``version``, ``releases`` (every
  released version's bots: a record replays with the bots that played it)
- ``record`` (F6 document), ``game`` (live play), ``replay`` (F6 verification), ``daily`` (F4, R11)
- ``tausende`` (R12: Tausende as a ruleset, the hooks of ``state`` it overrides)
- ``cli`` (F7), ``tournament``
"""

from engine.core.cards import CARDS, JOKER, Card
from engine.core.records import commitment
from engine.pikdame.cards import QUEEN_OF_SPADES
from engine.pikdame.daily import DAILY_DEALER, DAILY_RULES, daily_game, daily_seats, daily_seed
from engine.pikdame.deal import deal
from engine.pikdame.errors import (
    FormatError,
    IllegalMoveError,
    NotationError,
    PikDameError,
    ReplayError,
)
from engine.pikdame.game import Game
from engine.pikdame.melds import Meld
from engine.pikdame.moves import Move
from engine.pikdame.releases import UnknownVersion, bots_of
from engine.pikdame.replay import replay
from engine.pikdame.rules import Outcome, Rules, Seat
from engine.pikdame.state import State
from engine.pikdame.tausende import TausendeState  # registers Tausende's state (R12)
from engine.pikdame.version import ENGINE_VERSION
from engine.pikdame.view import View, view

__all__ = [
    "CARDS",
    "DAILY_DEALER",
    "DAILY_RULES",
    "ENGINE_VERSION",
    "JOKER",
    "QUEEN_OF_SPADES",
    "Card",
    "FormatError",
    "Game",
    "IllegalMoveError",
    "Meld",
    "Move",
    "NotationError",
    "Outcome",
    "PikDameError",
    "ReplayError",
    "Rules",
    "Seat",
    "State",
    "TausendeState",
    "UnknownVersion",
    "View",
    "bots_of",
    "commitment",
    "daily_game",
    "daily_seats",
    "daily_seed",
    "deal",
    "replay",
    "view",
]
