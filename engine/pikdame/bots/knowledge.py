"""What a bot can work out from its view alone (R10): unseen cards, take options, who is next.

Everything here reads only :class:`engine.pikdame.view.View`, never the state, so no hidden card
can leak into a decision (the blindness tests permute hidden cards and check moves do not change).
"""

from __future__ import annotations

from engine.core.cards import Card, counts_of
from engine.pikdame.cards import COPIES
from engine.pikdame.meldgen import iter_melds
from engine.pikdame.melds import Meld, joins_ok, placed
from engine.pikdame.moves import Move
from engine.pikdame.view import View


def unseen(view: View) -> list[int]:
    """Per card kind, how many copies lie in other hands or the stock (R10: hidden from us)."""
    counts = list(COPIES)
    for c in view.hand:
        counts[c] -= 1
    for melds in view.melds:
        for m in melds:
            for c in m.cards:
                counts[c] -= 1
    for c in view.discard:
        counts[c] -= 1
    for c in view.removed:
        counts[c] -= 1
    return [n if n > 0 else 0 for n in counts]


def next_seat(view: View) -> int:
    return (view.seat + 1) % view.rules.players


def own_melds(view: View) -> tuple[Meld, ...]:
    return view.melds[view.seat]


def take_options(view: View, max_len: int = 4) -> list[Meld]:
    """The take melds (R4.1) of up to ``max_len`` cards: the pile's top card plus hand cards,
    leaving one hand card, joining validly (R5.4); in the generator's fixed order."""
    if not view.discard or not view.can_take:
        return []
    top = view.discard[-1]
    pool = counts_of(view.hand)
    pool[top] += 1
    limit = min(max_len, len(view.hand))  # top + at most len(hand) - 1 hand cards
    mine = own_melds(view)
    return [m for m in iter_melds(pool, max_len=limit, required=top) if joins_ok(mine, m)]


def take_move(meld: Meld) -> Move:
    return Move.laying(meld, "take")


def after_take(view: View, meld: Meld) -> tuple[list[Card], tuple[Meld, ...]]:
    """The hand and own melds right after taking with ``meld`` (R4.1: the pile's rest to hand,
    the meld laid, a set joining the owner's set, R5.4)."""
    hand = list(view.hand)
    rest = list(meld.cards)
    rest.remove(view.discard[-1])
    for c in rest:
        hand.remove(c)
    hand.extend(view.discard[:-1])
    return sorted(hand), tuple(placed(own_melds(view), meld))
