"""Brute-force references for G6, independent of engine.gin.melds: every subset of a hand is
tested for being a meld, every collection of disjoint melds is tried, and every order of lay-offs
is walked."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from tests.support.gin_positions import RANK_POINTS

RANKS = "A23456789TJQK"


def is_meld(cards: tuple[str, ...]) -> bool:
    """G6 from its text: 3 or 4 of one rank, or 3+ consecutive of one suit, ace low."""
    if len(cards) < 3:
        return False
    if len(cards) <= 4 and len({c[0] for c in cards}) == 1:
        return True
    if len({c[1] for c in cards}) != 1:
        return False
    ranks = sorted(RANKS.index(c[0]) for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def value(cards: tuple[str, ...] | frozenset[str]) -> int:
    return sum(RANK_POINTS[c[0]] for c in cards)


def min_deadwood(hand: frozenset[str]) -> int:
    cards = sorted(hand)
    melds = [
        frozenset(m) for n in range(3, len(cards) + 1) for m in combinations(cards, n) if is_meld(m)
    ]

    def best(i: int, used: frozenset[str]) -> int:
        if i == len(melds):
            return 0
        skip = best(i + 1, used)
        if melds[i] & used:
            return skip
        return max(skip, value(melds[i]) + best(i + 1, used | melds[i]))

    return value(hand) - best(0, frozenset())


def best_defence_deadwood(hand: frozenset[str], knocker: tuple[frozenset[str], ...]) -> int:
    """Least deadwood over every sequence of lay-offs (each onto a meld it keeps valid)."""

    @cache
    def walk(rest: frozenset[str], melds: tuple[frozenset[str], ...]) -> int:
        best = min_deadwood(rest)
        for c in sorted(rest):
            for i, m in enumerate(melds):
                if is_meld(tuple(m | {c})):
                    extended = (*melds[:i], m | {c}, *melds[i + 1 :])
                    best = min(best, walk(rest - {c}, extended))
        return best

    return walk(hand, knocker)
