"""The plain bot: greedy on deadwood alone.

It takes the pile's top card whenever that lowers its least reachable deadwood, discards the card
that leaves the least deadwood (the highest on ties) and knocks as soon as it may.
"""

from __future__ import annotations

from engine.gin.bots.common import (
    deadwood_after_take,
    defend,
    discard_options,
    knock_or_none,
)
from engine.gin.cards import POINTS
from engine.gin.melds import min_deadwood
from engine.gin.moves import Move
from engine.gin.view import View


def choose(v: View) -> Move:
    if v.phase == "defend":
        return defend(v)
    if v.phase in ("upcard", "draw"):
        if v.can_take and deadwood_after_take(v) < min_deadwood(v.hand):
            return Move("take")
        return Move("pass") if v.phase == "upcard" else Move("draw")
    options = discard_options(v)
    knock = knock_or_none(v, options)
    if knock is not None:
        return knock
    _, card = min(options, key=lambda o: (o[0], -POINTS[o[1]], -o[1]))
    return Move("discard", card)


__all__ = ["choose"]
