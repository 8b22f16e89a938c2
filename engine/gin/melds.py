"""Gin's melds, exact minimum deadwood and a defender's best lay-offs (GIN.md G6).

Melds, lay-off chains and the deadwood search are the standard deck's
(``engine.core.deadwood``: sets, runs on the line with the ace low), here with G1's values;
Gin adds the defender's answer to a knock (:class:`Defence`, :func:`best_defence`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, Final

from engine.core.deadwood import (
    ALL_MELDS,
    DeadwoodSearch,
    deadwood_search,
    extends,
    is_meld,
    layoff_chains,
    layoff_options,
    meld_collections,
    meld_kind,
    meld_names,
    meldable,
)
from engine.core.standard import SUIT_BITS
from engine.gin.cards import NAMES, VALUES

#: G6's search with G1's values.
SEARCH: Final[DeadwoodSearch] = deadwood_search(VALUES)
#: G6: the exact minimum deadwood of a hand (any number of cards).
min_deadwood: Final = SEARCH.min_deadwood
#: The exact minimum deadwood of a hand and one arrangement of melds reaching it (deterministic).
arrange: Final = SEARCH.arrange
#: The deadwood of a hand with the given (disjoint) melds declared.
deadwood_of: Final = SEARCH.deadwood_of
_best: Final = SEARCH.best  # the search's memo (benchmarks clear it)


@dataclass(frozen=True)
class Defence:
    """A defender's answer (G6): own melds, lay-offs (card, 0-based knocker meld) in order, and
    the resulting deadwood."""

    melds: tuple[int, ...]
    layoffs: tuple[tuple[int, int], ...]
    deadwood: int

    def to_json(self) -> dict[str, Any]:
        """Cards in F1; a lay-off as [card, meld number N] (1-based, as G8 writes it)."""
        return {
            "melds": [meld_names(m) for m in self.melds],
            "layoffs": [[NAMES[c], i + 1] for c, i in self.layoffs],
            "deadwood": self.deadwood,
        }


def best_defence(hand: int, knocker_melds: Sequence[int], gin: bool) -> Defence:
    """The defender's exact best answer: least deadwood over every legal set of lay-offs
    (successive extensions included, a card on at most one meld) and the best melds of the rest.
    After gin there are no lay-offs (G6)."""
    options = [[()]] if gin else [layoff_options(m, i, hand) for i, m in enumerate(knocker_melds)]
    best: Defence | None = None
    for combo in product(*options):
        laid = [lay for part in combo for lay in part]
        used = 0
        for c, _ in laid:
            used |= 1 << c
        if used.bit_count() != len(laid):
            continue  # one card on two melds
        deadwood, melds = arrange(hand & ~used)
        if best is None or deadwood < best.deadwood:
            best = Defence(melds, tuple(laid), deadwood)
    assert best is not None
    return best


__all__ = [
    "ALL_MELDS",
    "SEARCH",
    "SUIT_BITS",
    "Defence",
    "arrange",
    "best_defence",
    "deadwood_of",
    "extends",
    "is_meld",
    "layoff_chains",
    "layoff_options",
    "meld_collections",
    "meld_kind",
    "meld_names",
    "meldable",
    "min_deadwood",
]
