"""Gin Rommé, the second game (GIN.md G1–G9): engine, bots, records and command line.

Standard library only and deterministic; it builds on ``engine.core`` and on no other game.
The public API for the service (tables, daily challenge) is re-exported here.

Layers inside the package, each importing only those above it (as Pik Dame's):

- ``cards`` (G1), ``errors`` (G9 codes), ``melds`` (G6), ``moves`` (G8)
- ``rules`` (G4–G7 values: phases, limits, ``Knock``, ``HandOutcome``), ``deal`` (G3)
- ``position`` (``gin-position/1``), ``state`` (G4–G7: ``push``, ``legal_moves``), ``view`` (G9)
- ``bots``, ``record`` (``gin-log/1``), ``releases`` (every released version's bots)
- ``game`` (Gin as a ``GameType``), ``match`` (live play to 100, G2), ``replay`` (G9
  verification), ``daily`` (F4 for Gin), ``event`` (the week's tournament's one-hand deal)
- ``tournament``, ``cli`` (G9)
"""

from engine.core.records import parse_seed
from engine.gin.bots import BOTS_VERSION, LEVELS, choose_move
from engine.gin.cards import NAMES, POINTS, from_mask, names, parse_card, to_mask
from engine.gin.daily import (
    DAILY_LEVEL,
    DAILY_RULES,
    daily_hands,
    daily_match,
    daily_score,
    daily_seats,
    daily_seed,
)
from engine.gin.deal import Deal, deal, hand_seed
from engine.gin.event import HAND_MOST, event_match, event_score, ranked_score
from engine.gin.match import TARGET, GinMatch, HandResult, Seat, commitment
from engine.gin.melds import Defence, arrange, best_defence, is_meld, min_deadwood
from engine.gin.moves import Move, parse_move
from engine.gin.record import ENGINE_VERSION, LOG_FORMAT
from engine.gin.releases import UnknownVersion, bots_of
from engine.gin.replay import replay
from engine.gin.state import CODES, POSITION_FORMAT, HandOutcome, HandState, Knock
from engine.gin.view import FACE_DOWN, View, public_moves, suggested_defence, view

__all__ = [
    "BOTS_VERSION",
    "CODES",
    "DAILY_LEVEL",
    "DAILY_RULES",
    "ENGINE_VERSION",
    "FACE_DOWN",
    "HAND_MOST",
    "LEVELS",
    "LOG_FORMAT",
    "NAMES",
    "POINTS",
    "POSITION_FORMAT",
    "TARGET",
    "Deal",
    "Defence",
    "GinMatch",
    "HandOutcome",
    "HandResult",
    "HandState",
    "Knock",
    "Move",
    "Seat",
    "UnknownVersion",
    "View",
    "arrange",
    "best_defence",
    "bots_of",
    "choose_move",
    "commitment",
    "daily_hands",
    "daily_match",
    "daily_score",
    "daily_seats",
    "daily_seed",
    "deal",
    "event_match",
    "event_score",
    "from_mask",
    "hand_seed",
    "is_meld",
    "min_deadwood",
    "names",
    "parse_card",
    "parse_move",
    "parse_seed",
    "public_moves",
    "ranked_score",
    "replay",
    "suggested_defence",
    "to_mask",
    "view",
]
