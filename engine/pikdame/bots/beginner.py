"""Anfänger (R10): plausible but simple. Takes only a small pile with a plain three-card meld,
lays greedily, discards its costliest card that is not part of a pair."""

from __future__ import annotations

from engine.core.cards import JOKER_CODE, Card, counts_of
from engine.pikdame.bots.greedy import greedy_arrangement
from engine.pikdame.bots.knowledge import own_melds, take_move, take_options
from engine.pikdame.cards import POINTS
from engine.pikdame.moves import DRAW, Move
from engine.pikdame.view import View

SMALL_PILE = 4


def choose(view: View) -> Move:
    if view.phase == "draw":
        plain = [m for m in take_options(view, max_len=3) if JOKER_CODE not in m.cards]
        if plain and (len(view.discard) <= SMALL_PILE or not view.can_draw):
            return take_move(plain[0])
        if view.can_draw or not view.can_take:
            return DRAW
        return take_move(take_options(view, max_len=3)[0])  # R4.4: a forced take
    arr = greedy_arrangement(view.hand, own_melds(view))
    if arr.moves:
        return arr.moves[0]
    return Move.discard(_discard(view.hand))


def _discard(hand: tuple[Card, ...]) -> Card:
    counts = counts_of(hand)
    singles = [
        c for c in hand if c != JOKER_CODE and sum(counts[t * 13 + c % 13] for t in range(4)) == 1
    ]
    pool = singles or [c for c in hand if c != JOKER_CODE] or list(hand)
    return max(pool, key=lambda c: (POINTS[c], int(c)))
