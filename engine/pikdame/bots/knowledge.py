"""What a bot can work out from its view alone (R10): unseen cards, take options, who is next.

Everything here reads only :class:`engine.pikdame.view.View`, never the state, so no hidden card
can leak into a decision (the blindness tests permute hidden cards and check moves do not change).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.pikdame.cards import COPIES, JOKER_CODE, Card
from engine.pikdame.meldgen import iter_melds
from engine.pikdame.melds import InvalidMeld, Meld
from engine.pikdame.moves import Move
from engine.pikdame.view import View


def hand_counts(cards: Sequence[Card]) -> list[int]:
    counts = [0] * 53
    for c in cards:
        counts[c] += 1
    return counts


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
    return [max(0, n) for n in counts]


def next_seat(view: View) -> int:
    return (view.seat + 1) % view.rules.players


def own_melds(view: View) -> tuple[Meld, ...]:
    return view.melds[view.seat]


def joins_ok(melds: Sequence[Meld], meld: Meld) -> bool:
    """R5.4: a new set joins the owner's set of its rank and must stay valid."""
    if meld.kind != "set":
        return True
    for m in melds:
        if m.kind == "set" and m.rank == meld.rank:
            try:
                m.joined(meld)
            except InvalidMeld:
                return False
            return True
    return True


def take_options(view: View, max_len: int = 4) -> list[Meld]:
    """The take melds (R4.1) of up to ``max_len`` cards: the pile's top card plus hand cards,
    leaving one hand card, joining validly (R5.4); in the generator's fixed order."""
    if not view.discard or not view.can_take:
        return []
    top = view.discard[-1]
    pool = hand_counts(view.hand)
    pool[top] += 1
    limit = min(max_len, len(view.hand))  # top + at most len(hand) - 1 hand cards
    mine = own_melds(view)
    return [m for m in iter_melds(pool, max_len=limit, required=top) if joins_ok(mine, m)]


def take_move(meld: Meld) -> Move:
    naturals = sum(1 for c in meld.cards if c != JOKER_CODE)
    return Move("take", meld.cards, 0, None, meld.kind if naturals == 1 else None)


def after_take(view: View, meld: Meld) -> tuple[list[Card], tuple[Meld, ...]]:
    """The hand and own melds right after taking with ``meld`` (R4.1: the pile's rest to hand,
    the meld laid, a set joining the owner's set, R5.4)."""
    hand = list(view.hand)
    rest = list(meld.cards)
    rest.remove(view.discard[-1])
    for c in rest:
        hand.remove(c)
    hand.extend(view.discard[:-1])
    melds = list(own_melds(view))
    for i, m in enumerate(melds):
        if meld.kind == "set" and m.kind == "set" and m.rank == meld.rank:
            melds[i] = m.joined(meld)
            break
    else:
        melds.append(meld)
    return sorted(hand), tuple(melds)
