"""Fortgeschritten (R10): the exact optimiser, take against draw weighed by the resulting
position, discards that keep pairs and neighbours and avoid feeding the next player's take."""

from __future__ import annotations

from engine.pikdame.bots import planner
from engine.pikdame.bots.evaluate import PLAIN
from engine.pikdame.moves import Move
from engine.pikdame.view import View


def choose(view: View) -> Move:
    return planner.choose(view, PLAIN)
