"""The belief over the other seat's hidden cards (engine.gin.belief, issue 40 item 2): every
sampled hand agrees with the public record and the seat's own cards (G9), a bot's particles
reproduce every decision it made that the filter did not skip, the filter is deterministic, and
it learns: the real hidden hand overlaps its particles more than uniform deals (hypothesis and
seeded hands)."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.analysis import sample_stream
from engine.gin.belief import Tracker, belief_worlds
from engine.gin.bots import choose_move
from engine.gin.bots.worlds import sample_world
from engine.gin.state import HandState
from engine.gin.view import view


def _hand(seed: int, dealer: int) -> HandState:
    return HandState.new(hashlib.sha256(b"gin belief %d" % seed).digest(), 1, dealer)


def _run(
    seed: int, dealer: int, player: str, opponent: str, policy: str, steps: int, check: bool
) -> tuple[Tracker, list[object]]:
    """Seat 0 by ``player``, seat 1 by ``opponent``, the belief's ``policy`` for seat 1: the
    tracker and its belief at each decision of seat 0 (checked there with ``check``)."""
    state = _hand(seed, dealer)
    tracker = Tracker(state, 0, policy)
    beliefs: list[object] = []
    for _ in range(steps):
        if state.outcome is not None:
            break
        s = state.turn
        move = choose_move(player if s == 0 else opponent, view(state, s))
        if s == 0:
            beliefs.append(tracker.belief())
            if check:
                _check(state, tracker)
        tracker.observe(state, s, move)
        state.push(move, s)
    return tracker, beliefs


def _check(state: HandState, tracker: Tracker) -> None:
    """G9: what the seat sees is the real hand's; a bot's particles make its moves."""
    belief = tracker.belief()
    if belief is None:
        return
    v = view(state, 0)
    pile = 0
    for c in v.discard:
        pile |= 1 << c
    seen = v.hand | pile | v.took[1]
    hidden = v.other_size - v.took[1].bit_count()
    for hand in belief.hands:
        assert hand & seen == 0
        assert hand.bit_count() == hidden
    if tracker.exact:
        for p in tracker.population:
            for j, past in enumerate(p.past):
                assert tracker.skipped[j] or tracker._weight(j, past) == 1
    worlds = belief_worlds(v, belief, sample_stream("test", {"seed": 1}))
    for _ in range(2):
        world = next(worlds)
        assert view(world, 0).to_json() == v.to_json()
        assert world.took[1] & ~world.hands[1] == 0
        assert len(world.stock) == len(state.stock)


@given(
    seed=st.integers(0, 10**6),
    dealer=st.integers(0, 1),
    player=st.sampled_from(["plain", "strong"]),
    opponent=st.sampled_from(["plain", "strong"]),
    steps=st.integers(1, 40),
)
@settings(max_examples=10, deadline=None)
def test_every_sampled_hand_agrees_with_the_public_record_and_the_bots_moves_g9(
    seed: int, dealer: int, player: str, opponent: str, steps: int
) -> None:
    _run(seed, dealer, player, opponent, opponent, steps, check=True)


@given(seed=st.integers(0, 10**6), steps=st.integers(1, 30))
@settings(max_examples=5, deadline=None)
def test_a_human_opponent_is_weighed_softly_and_still_agrees_with_the_record_g9(
    seed: int, steps: int
) -> None:
    """A human's moves weigh (3 where a bot would make them, 1 else): never zero, so no
    decision is skipped, and the cards still fit what the seat saw."""
    tracker, _ = _run(seed, 1, "strong", "strong", "human", steps, check=True)
    assert not any(tracker.skipped)


@given(seed=st.integers(0, 10**6), steps=st.integers(1, 40))
@settings(max_examples=4, deadline=None)
def test_the_belief_is_deterministic_g9(seed: int, steps: int) -> None:
    first = _run(seed, seed % 2, "plain", "strong", "strong", steps, check=False)[1]
    again = _run(seed, seed % 2, "plain", "strong", "strong", steps, check=False)[1]
    assert first == again


def test_the_belief_learns_from_the_strong_bots_play_g9() -> None:
    """Issue 40 item 2: over seeded hands, the strong bot's real hidden cards at the seat's
    later turns are found in its particles more often than in uniform deals of the unseen
    cards (the method before)."""
    belief_hits = uniform_hits = 0
    for seed in range(8):
        state = _hand(seed, seed % 2)
        tracker = Tracker(state, 0, "strong")
        turn = 0
        while state.outcome is None:
            s = state.turn
            v = view(state, s)
            if s == 0 and state.phase in ("upcard", "draw"):
                turn += 1
                belief = tracker.belief()
                if turn >= 4 and belief is not None:
                    real = state.hands[1] & ~state.took[1]
                    stream = sample_stream("test", {"seed": seed, "turn": turn})
                    for hand in belief.hands:
                        belief_hits += (hand & real).bit_count()
                        world = sample_world(v, stream)
                        uniform_hits += (world.hands[1] & real).bit_count()
            move = choose_move("plain" if s == 0 else "strong", v)
            tracker.observe(state, s, move)
            state.push(move, s)
    assert belief_hits > uniform_hits * 11 // 10
