"""Zen-Meister (R10): the advanced bot's machinery with judgement tuned by tournament.

Measured against three advanced bots (bench/results/bots.md; 2000 rounds, seed 1: +28.4 ± 5.9
points per round, paired 95% CI; weights were tuned on other seeds): meld points decide most rounds
(R7.1: a loser's melds still count), so zen values partial melds twice as much, barely fears a
card's points until the round nears its end, and holds jokers back for later melds (R5.3) when
they are worth more in hand than the 20 points they would add to the table as extras. It weighs
only three-card takes (a bigger take meld is a take plus lay-offs, R4.1/R4.2), which is as strong
and cuts its slowest turns.
"""

from __future__ import annotations

from engine.pikdame.bots import planner
from engine.pikdame.bots.evaluate import Weights
from engine.pikdame.moves import Move
from engine.pikdame.view import View

ZEN = Weights(
    pair=120,
    neighbour=100,
    gap=50,
    joker=600,
    points=0,
    late_points=6,
    keep_jokers=1,
    take_len=3,
)


def choose(view: View) -> Move:
    return planner.choose(view, ZEN)
