"""Pik Dame rules engine: pure Python, deterministic, no I/O (see docs/ENGINE_API.md)."""

from engine.cards import CARDS, JOKER, QUEEN_OF_SPADES, Card
from engine.daily import DAILY_DEALER, DAILY_RULES, daily_game, daily_seats, daily_seed
from engine.deal import deal
from engine.errors import (
    FormatError,
    IllegalMoveError,
    NotationError,
    PikDameError,
    ReplayError,
)
from engine.game import Game, Seat, commitment, replay
from engine.melds import Meld
from engine.moves import Move
from engine.state import Outcome, Rules, State
from engine.version import ENGINE_VERSION
from engine.view import View, view

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
    "View",
    "commitment",
    "daily_game",
    "daily_seats",
    "daily_seed",
    "deal",
    "replay",
    "view",
]
