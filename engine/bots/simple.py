"""A simple deterministic bot: draw, lay the first meld it finds, discard its costliest card.

Only a placeholder so that games can be played end to end before the real levels exist.
"""

from __future__ import annotations

from engine.cards import POINTS, counts_of
from engine.meldgen import iter_melds
from engine.moves import DRAW, Move
from engine.view import View


def choose(view: View) -> Move:
    if view.phase == "draw":
        return DRAW
    hand = list(view.hand)
    if len(hand) > 3:
        for meld in iter_melds(counts_of(hand), max_len=len(hand) - 1):
            naturals = sum(1 for c in meld.cards if not c.is_joker)
            return Move("meld", meld.cards, 0, None, meld.kind if naturals == 1 else None)
    worst = max(hand, key=lambda c: (POINTS[c], int(c)))
    return Move("discard", (worst,))
