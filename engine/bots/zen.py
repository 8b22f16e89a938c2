"""Zen-Meister (R10): the advanced bot's judgement, tuned by tournament."""

from __future__ import annotations

from engine.bots import planner
from engine.bots.evaluate import Weights
from engine.moves import Move
from engine.view import View

ZEN = Weights()


def choose(view: View) -> Move:
    return planner.choose(view, ZEN)
