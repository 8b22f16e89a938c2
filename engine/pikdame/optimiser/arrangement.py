"""What the optimiser answers: one arrangement of this turn's meld, lay and swap moves (R4.2)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.cards import Card
from engine.pikdame.moves import Move


@dataclass(frozen=True)
class Arrangement:
    """What to lay this turn: ``moves`` can be pushed in order (meld numbers already count the
    melds laid earlier in the same arrangement, R5.4 joins keep their number); ``points`` is what
    the player's melds gain; ``gain`` the change in round score (melds up, hand down, R7.1);
    ``kept`` the cards left in hand in canonical order (at least one, R4.2); ``exact`` whether
    it is the optimum."""

    moves: tuple[Move, ...]
    points: int
    gain: int
    kept: tuple[Card, ...]
    exact: bool = True


__all__ = ["Arrangement"]
