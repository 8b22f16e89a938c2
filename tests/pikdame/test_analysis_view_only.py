"""The default analysis is fair to imperfect information (R10, docs/ANALYSIS.md): it uses only
what the seat knew. Property tests: moving hidden cards the seat never saw (other hands' cards
that stay in hand, the stock below what is drawn) changes no byte of the document, and every
sampled world looks to the seat exactly like the real state."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.core.analysis import sample_stream
from engine.core.cards import NAMES, NUM_KINDS
from engine.pikdame.analysis import analyse_position, learn, sample_world
from engine.pikdame.bots import choose_move
from engine.pikdame.rules import Rules
from engine.pikdame.state import State
from engine.pikdame.view import view

RULESETS = st.sampled_from(["pikdame", "tausende"])


def _played(seed: int, players: int, ruleset: str, skip: int) -> State | None:
    """A round dealt from ``seed`` and played ``skip`` moves on by zen bots (None if over)."""
    rules = Rules(players=players, ruleset=ruleset)
    state = State.new_round(hashlib.sha256(b"view-only %d" % seed).digest(), rules, players - 1)
    for _ in range(skip):
        if state.outcome is not None:
            return None
        state.push(choose_move("zen", view(state, state.turn)), state.turn)
    return None if state.outcome is not None else state


def _go_on(state: State, count: int) -> tuple[list[dict[str, Any]], list[list[int]], State]:
    """``count`` more moves, seat 0 by the beginner (a player who errs), the others by zen; the
    moves, per seat the least count of each card kind it held at any moment (none of a kind its
    moves named), the end state."""
    lowest = [hand[:] for hand in state.hands]
    moves = []
    for _ in range(count):
        if state.outcome is not None:
            break
        seat = state.turn
        done = state.push(choose_move("beginner" if seat == 0 else "zen", view(state, seat)), seat)
        moves.append({"seat": seat, "move": str(done)})
        for s, hand in enumerate(state.hands):
            lowest[s] = [min(a, b) for a, b in zip(lowest[s], hand, strict=True)]
        for token in str(done).split():  # a card a move names is shown, even one that stays
            if token in NAMES:  # in hand (Tausende's swap-up of a kind for the same kind, R12)
                lowest[seat][NAMES.index(token)] = 0
    return moves, lowest, state


def _moved(
    position: dict[str, Any], lowest: list[list[int]], drawn: int, rng: random.Random
) -> Any:
    """``position`` with its never-seen cards shuffled among their places: the copies each other
    seat holds throughout (never played, so never shown: R10), and the stock below the ``drawn``
    top cards. The Q♠ stays put (R12.6 counts it in Tausende's keep-a-card rule)."""
    hands = [list(h) for h in position["hands"]]
    pool: list[str] = []
    slots: list[int] = []
    for seat in range(1, len(hands)):
        for kind in range(NUM_KINDS):
            name = NAMES[kind]
            for _ in range(lowest[seat][kind] if name != "QS" else 0):
                hands[seat].remove(name)
                pool.append(name)
                slots.append(seat)
    stock = list(position["stock"])
    kept, rest = stock[:drawn], stock[drawn:]
    fixed_queens = [i for i, c in enumerate(rest) if c == "QS"]
    movable = [c for c in rest if c != "QS"]
    pool.extend(movable)
    rng.shuffle(pool)
    for seat in slots:
        hands[seat].append(pool.pop())
    new_rest = ["QS" if i in fixed_queens else pool.pop() for i in range(len(rest))]
    return {**position, "hands": hands, "stock": kept + new_rest}


@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    ruleset=RULESETS,
    skip=st.integers(0, 20),
    rng=st.randoms(use_true_random=False),
)
@settings(max_examples=15, deadline=None)
def test_hidden_cards_the_seat_never_saw_change_nothing(
    seed: int, players: int, ruleset: str, skip: int, rng: random.Random
) -> None:
    state = _played(seed, players, ruleset, skip)
    assume(state is not None)
    assert state is not None
    position = state.to_position()
    start = State.from_position(position)
    stock_before = len(start.stock)
    moves, lowest, end = _go_on(start.copy(), 12)
    assume(any(m["seat"] == 0 for m in moves))
    other = _moved(position, lowest, stock_before - len(end.stock), rng)
    assume(State.from_position(other).to_position() != position)
    first = analyse_position({"position": position, "moves": moves, "seat": 0}, samples=2)
    second = analyse_position({"position": other, "moves": moves, "seat": 0}, samples=2)
    assert first == second


@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3, 4]),
    ruleset=RULESETS,
    skip=st.integers(0, 60),
)
@settings(max_examples=25, deadline=None)
def test_a_sampled_world_looks_like_the_real_state_to_the_seat(
    seed: int, players: int, ruleset: str, skip: int
) -> None:
    """sample_world keeps everything the seat sees (its view, R10), the cards it knows other
    seats hold (taken from the pile, R4.1), and every card of the deck (R1, R12.1)."""
    rules = Rules(players=players, ruleset=ruleset)
    state = State.new_round(hashlib.sha256(b"worlds %d" % seed).digest(), rules, players - 1)
    known = [[0] * NUM_KINDS for _ in range(players)]
    for _ in range(skip):
        if state.outcome is not None:
            break
        before = state.copy()
        seat = state.turn
        done = state.push(choose_move("zen", view(state, seat)), seat)
        learn(known, before, state, seat, done)
    assume(state.outcome is None)
    for s in range(players):
        assert all(k <= h for k, h in zip(known[s], state.hands[s], strict=True))
    seat = state.turn
    v = view(state, seat)
    stream = sample_stream("test", {"seed": seed})
    for _ in range(2):
        world = sample_world(v, known, stream)
        w = view(world, seat)
        assert w.to_json() == v.to_json() and w.history == v.history
        assert world.card_count() == state.card_count()
        for s in range(players):
            assert all(k <= h for k, h in zip(known[s], world.hands[s], strict=True))
        world.push(choose_move("zen", w), seat)  # the world plays on
