"""Bots (RULES.md R10): each level is a pure function of a seat's view to its next move.

- ``beginner`` (beginner.py): takes a small pile with a plain meld, lays greedily (greedy.py),
  discards its costliest lone card.
- ``advanced`` (advanced.py): planner.py with plain judgement (evaluate.py): weighs every take
  against drawing by the position it leaves, lays the exact optimiser's arrangement
  (engine.pikdame.optimiser), discards what is least useful, least likely to feed the next
  player's take.
- ``zen`` (zen.py): the same planner with judgement tuned by tournament (engine.pikdame.tournament).
- ``meister`` (meister.py, issue 40 item 8): plays ``zen``'s and ``advanced``'s moves out on
  deals sampled from its view and keeps the better (a table's level; the analysis plays a
  Meister seat out by ``zen``, never by the Meister: nested play-outs would take minutes).

Bots read only the view (knowledge.py works out unseen cards and take options from it), use no
randomness, no floats in decisions and no set or dict order, so replay can recompute every move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.pikdame.moves import Move
from engine.pikdame.rules import LEVELS, PLAIN_LEVELS
from engine.pikdame.view import View

#: Bump whenever any bot's behaviour changes: game records name it (F6) and replay recomputes
#: every bot move (F7 ``bot_mismatch``). The bots play engine.pikdame.optimiser's arrangements,
#: so a change in its answers or tie-breaks is a change of behaviour too.
BOTS_VERSION: Final = "9"
#: The same for the Tausende bots (R12, bots/tausende.py); Pik Dame's answers never depend on it.
TAUSENDE_BOTS_VERSION: Final = "1"


def _choosers() -> dict[str, Callable[[View], Move]]:
    # The levels load on first use: the optimiser behind them is heavy to import.
    from engine.pikdame.bots import advanced, beginner, meister, zen

    return {
        "beginner": beginner.choose,
        "advanced": advanced.choose,
        "zen": zen.choose,
        "meister": meister.choose,
    }


_CHOOSERS: dict[str, Callable[[View], Move]] = {}


def choose_move(level: str, view: View) -> Move:
    """The move the bot of ``level`` makes in ``view`` (its own seat must be to move)."""
    if view.rules.tausende and level != "meister":  # the Meister plays zen's Tausende move
        from engine.pikdame.bots import tausende

        return tausende.choose(level, view)
    if not _CHOOSERS:
        _CHOOSERS.update(_choosers())
    return _CHOOSERS[level](view)


__all__ = ["BOTS_VERSION", "LEVELS", "PLAIN_LEVELS", "TAUSENDE_BOTS_VERSION", "choose_move"]
