"""The meld optimiser's best effort once its exact search ran out of budget (R4.2).

A greedy dive (each lowest card takes its first option) gives a floor for the exact search; a
limited discrepancy search (Harvey & Ginsberg, 1995) improves on it when the budget is spent.
Both move through the same decision tree as the exact search (:mod:`.tree`), so what they return
is legal.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.core.cards import JOKER_CODE, NATURALS
from engine.pikdame.cards import POINTS
from engine.pikdame.optimiser.search import Found
from engine.pikdame.optimiser.tree import (
    NEG,
    ORDER,
    ChosenMeld,
    Node,
    Tree,
    root,
)

#: Calls of the limited discrepancy search, and the most deviations from its option order.
FALLBACK_BUDGET: Final = 5_000
DISCREPANCIES: Final = 8


class Improved(NamedTuple):
    """The best arrangement the discrepancy search met, and its gain."""

    found: Found
    gain: int


class Discrepancies:
    """Limited discrepancy search in card order (Harvey & Ginsberg, 1995), keeping the best
    complete arrangement it meets. Pass k follows the option order (fewest jokers, richest first;
    keeping the card last) but may deviate k times, so the search spreads over the whole tree
    instead of sinking into one corner. Stops after ``budget`` calls (deterministic)."""

    def __init__(self, tree: Tree, floor: int, budget: int) -> None:
        self.tree = tree
        self.left = budget
        self.path: list[ChosenMeld] = []
        self.best_gain = floor
        self.best: Found | None = None

    def run(self, start: Node) -> Improved | None:
        """The best arrangement above the floor, or None."""
        for k in range(DISCREPANCIES + 1):
            if self.left <= 0:
                break
            self.go(start, 0, k)
        return None if self.best is None else Improved(self.best, self.best_gain)

    def go(self, node: Node, acc: int, slack: int) -> None:
        """Follow the tree from ``node`` (``acc`` gained so far) with ``slack`` deviations."""
        self.left -= 1
        if self.left < 0:
            return
        tree = self.tree
        at = tree.first_left(node.at)
        if at == NATURALS:
            self.arrive(node, acc)
            return
        if acc + node.bound() <= self.best_gain:
            return
        c = ORDER[at]
        node = node._replace(at=at)
        tried = 0
        for option in tree.options(node, c):
            if tried > slack:
                return
            tree.take(option)
            self.path.append(option.meld)
            self.go(tree.child(node, option), acc + option.gain, slack - tried)
            self.path.pop()
            tree.put_back(option)
            tried += 1
        if tried > slack:
            return
        tree.counts[c] -= 1
        self.go(tree.keeping(node, c), acc, slack - tried)
        tree.counts[c] += 1

    def arrive(self, node: Node, acc: int) -> None:
        """A leaf: keep its arrangement if it is the best so far."""
        end = self.tree.ending(node)
        if end.value > NEG and acc + end.value > self.best_gain:
            self.best_gain = acc + end.value
            self.best = Found(list(self.path), end.spares, end.disposed)


def improve(tree: Tree, start: Node, floor: int, budget: int) -> Improved | None:
    """The fallback when the exact search ran out of budget: the best arrangement above
    ``floor`` that a limited discrepancy search from ``start`` meets within ``budget`` calls."""
    return Discrepancies(tree, floor, budget).run(start)


def dive(tree: Tree, kept: bool) -> Found:
    """A greedy arrangement, no backtracking: each lowest card takes its first option (fewest
    jokers, richest; a set when it gains at least as much as the first run), or stays. If
    nothing is kept yet, the cheapest card is set aside first (R4.2). Disposes of no joker."""
    counts = tree.counts[:]
    saved = tree.counts
    tree.counts = counts
    try:
        if not kept:
            naturals = [c for c in range(NATURALS) if counts[c]]
            cheapest = min(naturals, key=lambda c: (POINTS[c], c)) if naturals else JOKER_CODE
            counts[cheapest] -= 1
        node = root(counts, kept=True)
        melds: list[ChosenMeld] = []
        for c in ORDER:
            while counts[c]:
                options = tree.options(node, c)
                if not options:
                    counts[c] = 0
                    continue
                # The first set (sets come first: they set a flag) against the first run.
                option = options[0]
                run = next((o for o in options if not o.flag), None)
                if run is not None and (not option.flag or run.gain > option.gain):
                    option = run
                tree.take(option)
                melds.append(option.meld)
                node = tree.child(node, option)
        return Found(melds, tree.ending(node).spares, 0)
    finally:
        tree.counts = saved
