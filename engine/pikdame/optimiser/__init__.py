"""The exact meld optimiser: the arrangement that gains the most this turn (R4.2), one entry point.

The page's hint and the bots ask :func:`best_arrangement`. Inside, in the order a reader needs them:

- :mod:`.arrangement` — the answer (:class:`Arrangement`);
- :mod:`.solver` — swap plans, the aspiration window around the search, the answer assembled;
- :mod:`.tree` — the decision tree every walk follows: nodes, each card's options, the steps;
- :mod:`.search` — the exact branch and bound over the tree (bound, memo, walking the memo back);
- :mod:`.fallback` — the greedy floor and the best effort past the node budget;
- :mod:`.moves` — the chosen melds written as F2 moves that push in order.

Exact (checked against a brute force over ``State.legal_moves`` in ``tests/bots``); beyond a
deterministic node budget it answers with its best legal arrangement and ``exact`` False. An
earlier memoised search was exact too but slower on big hands (bench/results/bots.md has both
figures), so it gave way.
"""

from __future__ import annotations

from engine.pikdame.optimiser.arrangement import Arrangement
from engine.pikdame.optimiser.solver import BOTS, HINT, Budget, best_arrangement

__all__ = ["BOTS", "HINT", "Arrangement", "Budget", "best_arrangement"]
