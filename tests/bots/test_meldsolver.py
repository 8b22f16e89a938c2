"""``engine.meldsolver.solve`` is exact: its moves are legal in order, keep a card (R4.2) and gain
exactly the brute-force best over the engine's own legal plays (R5, R6, R7.1); on big hands it
never gains less than ``engine.optimiser.best_arrangement``."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import HealthCheck, given, settings

from engine import meldsolver
from engine.cards import Card
from engine.deal import deal
from engine.melds import Meld
from engine.meldsolver import solve
from engine.optimiser import best_arrangement
from engine.state import State
from tests.bots.brute import brute_best, play_state, score
from tests.bots.test_optimiser_exact import situations


def melds_points(state: State) -> int:
    return sum(m.points for m in state.melds[0])


def _push_all(hand: list[Card], melds: list[Meld]) -> tuple[int, int, State]:
    solution = solve(hand, melds)
    state = play_state(hand, melds)
    before_points, before_score = melds_points(state), score(state)
    for move in solution.moves:
        state.push(move)  # raises IllegalMoveError on any illegal step
    assert state.hand_sizes[0] >= 1  # R4.2: one card stays to discard
    assert solution.points == melds_points(state) - before_points
    assert solution.gain == score(state) - before_score
    assert list(solution.kept) == state.hand(0)
    return solution.gain, solution.points, state


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_solver_matches_brute_force(case: tuple[list[Card], list[Meld]]) -> None:
    hand, melds = case
    gain, _, _ = _push_all(hand, melds)
    assert gain == brute_best(hand, melds)


def test_big_hands_never_worse_than_the_optimiser() -> None:
    """Hands of 20–40 cards from real deals (F3): legal, and at least the optimiser's gain."""
    for t in range(6):
        d = deal(hashlib.sha256(f"tests/bots/meldsolver/{t}".encode()).digest(), 2, 0)
        ids = [*d.hands[0], *d.stock]
        hand = [Card.from_id(i) for i in ids[: 20 + 4 * t]]
        gain, _, _ = _push_all(hand, [])
        assert gain >= best_arrangement(hand, []).gain


def test_out_of_budget_gives_a_legal_best_effort(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a tiny node budget the solver answers with its greedy dive: still legal, keeps a
    card (R4.2), says it is not exact, and never gains more than the exact answer."""
    hands = []
    for t in range(5):
        d = deal(hashlib.sha256(f"tests/bots/meldsolver/budget/{t}".encode()).digest(), 2, 0)
        hands.append([Card.from_id(i) for i in [*d.hands[0], *d.stock][:30]])
    exact = [solve(hand, []) for hand in hands]
    assert all(s.exact for s in exact)
    monkeypatch.setattr(meldsolver, "NODE_BUDGET", 3)
    for hand, best in zip(hands, exact, strict=True):
        gain, _, _ = _push_all(hand, [])
        rough = solve(hand, [])
        assert not rough.exact
        assert rough.gain == gain <= best.gain
