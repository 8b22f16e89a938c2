"""The optimiser's exact search (R4.2, R5, R6, R7.1): branch and bound with a memo over the
decision tree of :mod:`.tree`.

Exact cover over the hand, as in the value-by-value programme of van Rijn, Takes & Vis ("The
Complexity of Rummikub Problems", 2015). Big hands branch on their most constrained card instead
(fail first, as in Algorithm X). The undecided cards can gain at most twice their points (laid
instead of held, R7.1), so branches that cannot beat a target are cut; the memo keeps values as
exact or as upper bounds (fail-soft), with the choice that reached them, so the best arrangement
is read back by walking the memo's choices. A budget of search calls (never a clock) bounds the
work. Deterministic: fixed enumeration orders, ties kept by the first found.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.core.cards import NATURALS, Counts
from engine.core.errors import OutOfBudget
from engine.pikdame.cards import POINTS
from engine.pikdame.optimiser.tree import (
    JOKER_GAIN,
    MAX_JOKERS,
    MIN_GAIN,
    NEG,
    ORDER,
    ChosenMeld,
    Node,
    Option,
    Own,
    Tree,
    new_tuple,
)

#: From this many natural cards on, the search branches on the most constrained card instead of
#: the lowest: slower per step, far fewer steps on big hands (measured in bench/results/bots.md).
DYNAMIC_FROM: Final = 28
#: Search calls one plan may make (a count, never a clock, so the result stays deterministic):
#: at most ~0.3 s here. Almost every hand needs far fewer; past it the fallback answers.
NODE_BUDGET: Final = 20_000

#: A memo key: the cards left and the node's decisions (its position and points follow from them).
Key = tuple[bytes, int, int, int, int, bool, int]


class Entry(NamedTuple):
    """What the memo knows of a node: its value, whether exact (else an upper bound), and the
    choice that reached it (None: keep the card)."""

    value: int
    exact: bool
    choice: Option | None


class Found(NamedTuple):
    """The arrangement a search read back: the melds chosen, spare jokers, jokers disposed of."""

    melds: list[ChosenMeld]
    spares: int
    disposed: int


class Search(Tree):
    """One exact optimisation of one hand against the player's melds: the tree and the memo."""

    __slots__ = ("budget", "memo")

    def __init__(self, counts: Counts, own: Own, budget: int = NODE_BUDGET) -> None:
        super().__init__(counts, own, dynamic=sum(counts[:NATURALS]) >= DYNAMIC_FROM)
        self.budget = budget
        self.memo: dict[Key, Entry] = {}

    def key(self, node: Node) -> Key:
        """The memo's key of ``node``: the cards left and its decisions (``node[1:7]``)."""
        return (bytes(self.counts), *node[1:7])

    def search(self, node: Node, alpha: int) -> int:
        """The best gain of the undecided cards if it exceeds ``alpha`` (then exact), else an
        upper bound no larger than ``alpha``.

        The hot loop of the optimiser, so the tree's steps are written out inline here, each
        marked with the method it repeats (:meth:`Tree.first_left`, :meth:`Node.bound`,
        :meth:`Tree.decide`, :meth:`Tree.child`, :meth:`Tree.keeping`); the walk back and the
        fallbacks use the methods themselves."""
        self.budget -= 1
        if self.budget < 0:
            raise OutOfBudget
        counts = self.counts
        at, jokers, flags, mask, room, kept, disp, rem = node
        while at < NATURALS and counts[ORDER[at]] == 0:  # first_left
            at += 1
        if at == NATURALS:
            return self.ending(node).value
        bound = 2 * rem + jokers * JOKER_GAIN - (0 if kept else MIN_GAIN)  # node.bound()
        if bound <= alpha:
            return bound
        # decide: the card, and the node in its normal form
        if self.dynamic:
            c = self.pick(at, flags)
        else:
            c = ORDER[at]
            flags &= self.owned_flags | -(1 << (c % 13))
        if room > jokers:
            room = jokers
        if disp > jokers:
            disp = jokers
        node = new_tuple(Node, (at, jokers, flags, mask, room, kept, disp, rem))
        key = (bytes(counts), jokers, flags, mask, room, kept, disp)
        memo = self.memo
        hit = memo.get(key)
        if hit is not None:
            if hit.exact or hit.value <= alpha:
                return hit.value
            # An earlier, failed search proved this node worth at most hit.value: reaching that
            # proves it exact, so the options after it need not be tried.
            if hit.value < bound:
                bound = hit.value
        # The best value of laying card c in a meld, until one reaches the bound.
        best = NEG
        choice: Option | None = None
        search = self.search
        for option in self.options(node, c):
            if best >= bound:
                break  # nothing beats the bound
            naturals = option.naturals
            for x in naturals:  # take
                counts[x] -= 1
            _, _, used, gain, points, flag, bit, more_room, more_disp = option
            more_room += room
            value = search(
                new_tuple(  # child
                    Node,
                    (
                        at,
                        jokers - used,
                        flags | flag,
                        mask | bit,
                        more_room if more_room < MAX_JOKERS else MAX_JOKERS,
                        kept,
                        disp + more_disp,
                        rem - points,
                    ),
                ),
                (alpha if alpha > best else best) - gain,
            )
            for x in naturals:  # put back
                counts[x] += 1
            if value > NEG and value + gain > best:
                best, choice = value + gain, option
        # The value of keeping card c, or an upper bound when it cannot beat the floor (cut
        # without a call, as the call would return).
        floor = alpha if alpha > best else best
        left = rem - POINTS[c]
        keep = 2 * left + jokers * JOKER_GAIN  # keeping(node, c).bound()
        if keep > floor:
            counts[c] -= 1
            keep = search(
                new_tuple(Node, (at, jokers, flags, mask, room, True, disp, left)),  # keeping
                floor,
            )
            counts[c] += 1
        if keep > best:
            best, choice = keep, None
        if hit is None or not hit.exact:
            memo[key] = new_tuple(Entry, (best, best > alpha, choice))
        return best

    def walk(self, node: Node) -> Found:
        """Follow the memo's exact choices from ``node`` (the root searched): the arrangement."""
        counts = self.counts
        melds: list[ChosenMeld] = []
        while True:
            at = self.first_left(node.at)
            if at == NATURALS:
                end = self.ending(node)
                return Found(melds, end.spares, end.disposed)
            c, node = self.decide(node, at)
            entry = self.memo[self.key(node)]
            assert entry.exact
            if entry.choice is None:
                counts[c] -= 1
                node = self.keeping(node, c)
            else:
                self.take(entry.choice)
                melds.append(entry.choice.meld)
                node = self.child(node, entry.choice)


__all__ = ["DYNAMIC_FROM", "NODE_BUDGET", "Entry", "Found", "OutOfBudget", "Search"]
