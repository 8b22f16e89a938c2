"""A brute-force oracle for the optimiser: every sequence of meld/lay/swap moves the engine accepts.

It knows no meld theory of its own: it asks ``State.legal_moves`` what may be played and pushes it
(R4.2), so it checks the optimiser against the engine's rules, not against itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.cards import Card
from engine.pikdame.cards import POINTS
from engine.pikdame.melds import Meld
from engine.pikdame.rules import Rules
from engine.pikdame.state import State

PLAYS = ("meld", "lay", "swap")


def play_state(hand: Sequence[Card], melds: Sequence[Meld]) -> State:
    """A two-seat state where seat 0 has drawn and may play ``hand`` onto ``melds`` (R4.2)."""
    state = State(Rules(players=2), dealer=1)
    for c in hand:
        state.hands[0][c] += 1
    state.hand_sizes[0] = len(hand)
    state.melds[0] = list(melds)
    state.phase = "play"
    return state


def meld_points(state: State) -> int:
    return sum(m.points for m in state.melds[0])


def hand_points(state: State) -> int:
    return sum(POINTS[c] * n for c, n in enumerate(state.hands[0]))


def score(state: State) -> int:
    """Seat 0's round score if the round ended now without a winner (R7.2): melds minus hand."""
    return meld_points(state) - hand_points(state)


def brute_best(hand: Sequence[Card], melds: Sequence[Meld]) -> int:
    """The largest round-score gain (R7.1: melds up, hand down) of any legal sequence of plays,
    found exhaustively (memoised on hand and melds)."""
    start = play_state(hand, melds)
    base = score(start)
    memo: dict[tuple[tuple[int, ...], tuple[Meld, ...]], int] = {}

    def search(state: State) -> int:
        key = (tuple(state.hands[0]), tuple(sorted(state.melds[0], key=repr)))
        if key in memo:
            return memo[key]
        best = score(state) - base
        for move in state.legal_moves():
            if move.kind not in PLAYS:
                continue
            nxt = state.copy()
            nxt.push(move)
            best = max(best, search(nxt))
        memo[key] = best
        return best

    return search(start)
