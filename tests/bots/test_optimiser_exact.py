"""The meld optimiser is exact: on small hands its arrangement is legal and gains exactly what an
exhaustive search over the engine's own legal plays gains (R4.2 lay/meld/swap, R5, R6, R7.1).

Hands are drawn from a narrow window of ranks and suits (so melds, lay-offs and ring runs K-A-2
actually occur) plus jokers; the player may already own melds to lay on or swap into.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from engine.core.cards import Card
from engine.pikdame.melds import Meld
from engine.pikdame.optimiser import best_arrangement
from engine.pikdame.state import State
from tests.support.brute import brute_best, play_state, score
from tests.support.situations import situations


def meld_points(state: State) -> int:
    return sum(m.points for m in state.melds[0])


def _cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split(" ")]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_optimiser_matches_brute_force(case: tuple[list[Card], list[Meld]]) -> None:
    """R4.2: the moves are legal in order, keep a card, and gain the brute-force best."""
    hand, melds = case
    arrangement = best_arrangement(hand, melds)
    state = play_state(hand, melds)
    before_melds, before_score = meld_points(state), score(state)
    for move in arrangement.moves:
        state.push(move)  # raises IllegalMoveError on any illegal step
    assert state.hand_sizes[0] >= 1  # R4.2/R4.3: one card stays to discard
    assert arrangement.points == meld_points(state) - before_melds
    assert arrangement.gain == score(state) - before_score
    assert arrangement.gain == brute_best(hand, melds)


def test_ring_run_and_keep_one_card() -> None:
    """R5.2 K-A-2 runs count; R4.2 forbids laying the last card, so the cheapest card stays."""
    hand = _cards("KH AH 2H 3H")
    arrangement = best_arrangement(hand, [])
    state = play_state(hand, [])
    for move in arrangement.moves:
        state.push(move)
    assert state.hand(0) == [Card.parse("3H")]
    assert arrangement.points == 10 + 20 + 5


def test_queen_of_spades_swap() -> None:
    """R6: the Q♠ swapped for the joker standing for it gains 2·100 − 20 in round score."""
    melds = [Meld.build(_cards("JS X KS"))]
    hand = [Card.parse("QS"), Card.parse("4C")]
    arrangement = best_arrangement(hand, melds)
    assert [str(m) for m in arrangement.moves] == ["swap 1 QS"]
    assert arrangement.gain == 180


def test_deterministic_result() -> None:
    """Same hand, same arrangement, whatever order the hand is given in (F5 canonical order)."""
    hand = _cards("7S 7H 7D X 5H 6H 7H 8H 2C 2C")
    first = best_arrangement(hand, [])
    again = best_arrangement(list(reversed(hand)), [])
    assert [str(m) for m in first.moves] == [str(m) for m in again.moves]
    assert first.gain == brute_best(hand, [])
