"""The three bot levels for Tausende (RULES.md R12, R10), pure functions of a seat's view.

The bots ask a shadow state built from the view alone (the own hand, every meld, the pile, the
stock's size, who has opened) for the legal moves, so they obey R12 exactly as the engine does
without a second copy of its rules, and see nothing a view does not hold (R10). No randomness:
every choice is a maximum over a fixed order with integer keys.

- ``beginner``: draws, opens only with plain three-card melds, no lay-offs, no pot.
- ``advanced``: plans an opening of 30 over several melds (R12.3), lays off on any meld (R12.5),
  takes the pot when the take meld is worth it (R12.4), keeps pairs and neighbours.
- ``zen``: advanced, plus the swapping round (R12.2), a hunger for melding the Q♠ it can never
  throw away (R12.6) and a pot taken more eagerly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.core.cards import JOKER, JOKER_CODE, NUM_KINDS, Card, counts_of
from engine.pikdame.cards import QUEEN_OF_SPADES_CODE, TAUSENDE_POINTS
from engine.pikdame.melds import Meld
from engine.pikdame.moves import DRAW, RESIGN, Move
from engine.pikdame.tausende import OPENING, PASS, TausendeState, opening_points
from engine.pikdame.view import View

#: The largest new meld the bots consider (bigger ones are a meld plus lay-offs).
MAX_MELD: Final = 5


@dataclass(frozen=True)
class Style:
    """What a level does differently."""

    plain_only: bool  # only three-card melds of naturals
    lay_off: bool  # lay off and swap on any meld (R12.5)
    take_min: int  # the least points a take meld must have (0: never take unless forced)
    swap_up: bool  # use the swapping round (R12.2)
    queen_bonus: int  # extra worth of a meld holding the Q♠ (R12.6)


STYLES: Final = {
    "beginner": Style(plain_only=True, lay_off=False, take_min=0, swap_up=False, queen_bonus=0),
    "advanced": Style(plain_only=False, lay_off=True, take_min=25, swap_up=False, queen_bonus=0),
    "zen": Style(plain_only=False, lay_off=True, take_min=15, swap_up=True, queen_bonus=200),
}


def shadow(view: View) -> TausendeState:
    """A state holding only what ``view`` shows: other hands empty, the stock dummy cards."""
    state = TausendeState(view.rules, view.dealer, view.round)
    state.turn = view.turn
    state.phase = view.phase
    state.opened_at_turn_start = view.opened_at_turn_start
    state.hands = [[0] * NUM_KINDS for _ in view.hand_sizes]
    state.hands[view.seat] = counts_of(view.hand)
    state.hand_sizes = list(view.hand_sizes)
    state.melds = [list(ms) for ms in view.melds]
    state.stock = [JOKER] * view.stock_size
    state.discard = list(view.discard)
    fields = view.tausende or {}
    state.opened = list(fields.get("opened", state.opened))
    state.laid = list(fields.get("laid", state.laid))
    state.swaps = fields.get("swaps")
    state.turn_points = int(fields.get("turn_points", 0))
    return state


def _worth(hand: Sequence[Card], card: Card) -> int:
    """How much ``card`` helps ``hand`` towards melds: pairs and run neighbours (no wrap)."""
    if card == JOKER_CODE:
        return 1000
    counts = counts_of(hand)
    rank, suit = card % 13, card // 13
    same_rank = sum(counts[s * 13 + rank] for s in range(4)) - 1
    score = 40 * same_rank
    for d, w in ((1, 40), (2, 15)):
        for r in (rank - d, rank + d):
            if 0 <= r < 13 and counts[suit * 13 + r]:
                score += w
    return score


def _discard(hand: Sequence[Card], legal: list[Move]) -> Move:
    options = [m for m in legal if m.kind == "discard"]
    if not options:
        return PASS if PASS in legal else RESIGN
    return max(
        options, key=lambda m: (-_worth(hand, m.cards[0]), TAUSENDE_POINTS[m.cards[0]], str(m))
    )


def _meld_of(move: Move) -> Meld:
    return Meld.build(move.cards, move.prefix)


def _opening_plan(melds: list[Move], hand: Sequence[Card], need: int) -> list[Move]:
    """Disjoint melds from ``hand`` worth at least ``need`` opening points (R12.3), the most
    valuable first; at most three melds; empty when there is none."""
    return _best_opening(melds, counts_of(hand), need, 0, [], 0, (-1, []))[1]


def _best_opening(
    melds: list[Move],
    counts: list[int],
    need: int,
    start: int,
    chosen: list[Move],
    points: int,
    best: tuple[int, list[Move]],
) -> tuple[int, list[Move]]:
    """_opening_plan's walk over ``melds[start:]``: ``best`` (points, plan), bettered by ``chosen``
    and its extensions in the walk's order. A module function, not a closure: a closure that
    calls itself is a reference cycle, left to the collector at every call."""
    if points >= need and points > best[0]:
        best = (points, chosen[:])
    if len(chosen) == 3:
        return best
    for i in range(start, len(melds)):
        move = melds[i]
        if all(counts[c] >= move.cards.count(c) for c in move.cards):
            for c in move.cards:
                counts[c] -= 1
            chosen.append(move)
            gained = points + opening_points(_meld_of(move))
            best = _best_opening(melds, counts, need, i + 1, chosen, gained, best)
            chosen.pop()
            for c in move.cards:
                counts[c] += 1
    return best


def choose(level: str, view: View) -> Move:
    """The move of the bot of ``level`` in ``view`` (its own seat to move)."""
    style = STYLES[level]
    state = shadow(view)
    legal = list(state.legal_moves(max_meld=MAX_MELD))
    seat = view.seat
    hand = view.hand
    if view.phase == "draw":
        takes = [m for m in legal if m.kind == "take"]
        if style.swap_up and state.swaps is not None:
            face_up = view.discard[-1]
            ups = [m for m in legal if m.kind == "swap-up"]
            if ups:
                worst = min(
                    ups, key=lambda m: (_worth(hand, m.cards[0]), -TAUSENDE_POINTS[m.cards[0]])
                )
                gain = _worth((*hand, face_up), face_up) - _worth(hand, worst.cards[0])
                if gain >= 40 and face_up != QUEEN_OF_SPADES_CODE:
                    return worst
        if takes and (style.take_min or DRAW not in legal):
            best = max(takes, key=lambda m: (sum(TAUSENDE_POINTS[c] for c in m.cards), str(m)))
            if DRAW not in legal or sum(TAUSENDE_POINTS[c] for c in best.cards) >= style.take_min:
                return best
        return DRAW if DRAW in legal else (takes[0] if takes else RESIGN)
    melds = [m for m in legal if m.kind == "meld"]
    if style.plain_only:
        melds = [m for m in melds if len(m.cards) == 3 and JOKER_CODE not in m.cards]

    def value(move: Move) -> tuple[int, str]:
        bonus = style.queen_bonus if QUEEN_OF_SPADES_CODE in move.cards else 0
        return (sum(TAUSENDE_POINTS[c] for c in move.cards) + bonus, str(move))

    if not state.opened[seat]:
        plan = _opening_plan(melds, hand, OPENING - state.turn_points)
        if plan:
            return max(plan, key=value)
        return _discard(hand, legal)
    if melds:
        return max(melds, key=value)
    if style.lay_off:
        offs = [
            m
            for m in legal
            if m.kind in ("lay", "swap") and (m.cards[0] != JOKER_CODE or len(hand) <= 3)
        ]
        if offs:
            return max(
                offs,
                key=lambda m: (
                    m.cards[0] == QUEEN_OF_SPADES_CODE,
                    TAUSENDE_POINTS[m.cards[0]],
                    str(m),
                ),
            )
    return _discard(hand, legal)


__all__ = ["STYLES", "Style", "choose", "shadow"]
