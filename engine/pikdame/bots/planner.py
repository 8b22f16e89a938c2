"""The advanced and zen bots' turn: weigh take against draw, lay the optimiser's arrangement,
discard by judgement (R4.1–R4.3). One move per call: the bot is asked again after every move."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.core.cards import JOKER, Card
from engine.pikdame.bots.evaluate import Weights, choose_discard, hand_worth
from engine.pikdame.bots.knowledge import (
    after_take,
    next_seat,
    own_melds,
    take_move,
    take_options,
    unseen,
)
from engine.pikdame.cards import POINTS
from engine.pikdame.melds import Meld
from engine.pikdame.moves import DRAW, Move
from engine.pikdame.optimiser import Arrangement, best_arrangement
from engine.pikdame.view import View

LATE_STOCK = 12  # below this many stock cards the round is near its end (R4.4)
LATE_HAND = 4  # an opponent with this few cards may go out soon (R4.3)


@lru_cache(maxsize=4096)
def arrangement(hand: tuple[Card, ...], melds: tuple[Meld, ...]) -> Arrangement:
    """The optimiser, cached: it is a pure function, so the cache never changes a result."""
    return best_arrangement(hand, melds)


def is_late(view: View) -> bool:
    others = [n for s, n in enumerate(view.hand_sizes) if s != view.seat]
    return view.stock_size < LATE_STOCK or min(others, default=99) <= LATE_HAND


def worth(
    hand: Sequence[Card], melds: tuple[Meld, ...], unseen_: list[int], late: bool, w: Weights
) -> int:
    """Tenths of a point: own melds after the best arrangement, plus what the rest is worth."""
    arr = arrangement(tuple(sorted(hand)), melds)
    table = sum(m.points for m in melds) + arr.points
    return 10 * table + hand_worth(arr.kept, unseen_, late, w)


def draw_or_take(view: View, w: Weights) -> Move:
    """R4.1: the take whose resulting position is worth most, if it beats drawing."""
    options = take_options(view, w.take_len)
    if not options:
        return DRAW
    seen = unseen(view)
    late = is_late(view)
    mine = own_melds(view)
    best: Move | None = None
    best_value = worth(view.hand, mine, seen, late, w) + w.draw if view.can_draw else None
    for meld in options:
        hand, melds = after_take(view, meld)
        value = worth(hand, melds, seen, late, w)
        if best_value is None or value > best_value:
            best, best_value = take_move(meld), value
    return DRAW if best is None else best


def play(view: View, w: Weights) -> Move:
    """R4.2 then R4.3: the next move of the best arrangement, else the discard."""
    arr = choose_arrangement(view, w)
    if arr.moves:
        return arr.moves[0]
    return Move.discard(discard(view, w))


def choose_arrangement(view: View, w: Weights) -> Arrangement:
    """The optimiser's arrangement, or (``keep_jokers``) one that holds jokers back for later
    melds when a joker in hand is worth more than 20 points on the table (R5.3)."""
    mine = own_melds(view)
    full = arrangement(view.hand, mine)
    jokers = view.hand.count(JOKER)
    if not w.keep_jokers or not jokers or len(full.kept) <= 1:
        return full
    seen = unseen(view)
    late = is_late(view)
    best, best_value = full, 10 * full.points + hand_worth(full.kept, seen, late, w)
    hand = list(view.hand)
    for k in range(1, jokers + 1):
        hand.remove(JOKER)
        arr = arrangement(tuple(hand), mine)
        kept = (*arr.kept, *[JOKER] * k)
        value = 10 * arr.points + hand_worth(kept, seen, late, w)
        if value > best_value:
            best, best_value = Arrangement(arr.moves, arr.points, arr.gain, kept, arr.exact), value
    return best


def discard(view: View, w: Weights) -> Card:
    nxt = next_seat(view)
    pile = sum(POINTS[c] for c in view.discard)
    return choose_discard(view.hand, unseen(view), view.hand_sizes[nxt], pile, is_late(view), w)


def choose(view: View, w: Weights) -> Move:
    if view.phase == "draw":
        return draw_or_take(view, w)
    return play(view, w)
