"""The one view function (R10): a seat's view never depends on cards it cannot see."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Rules, State, view

API_V_KEYS = {
    "seat",
    "turn",
    "phase",
    "hand",
    "melds",
    "hand_sizes",
    "stock_size",
    "discard",
    "removed",
    "can_draw",
    "can_take",
    "outcome",
}


def played(seed: bytes, steps: int) -> State:
    """A round after ``steps`` moves chosen by a seeded walk over the legal moves."""
    state = State.new_round(seed, Rules(players=4), dealer=3)
    for i in range(steps):
        if state.outcome is not None:
            break
        moves = [m for m in state.legal_moves(max_meld=4) if m.kind != "resign"]
        pick = int.from_bytes(hashlib.sha256(seed + bytes([i % 256])).digest()[:4], "big")
        state.push(moves[pick % len(moves)])
    return state


def scramble(state: State, seat: int, salt: bytes) -> State:
    """The same public situation with the hidden cards dealt differently: every other hand and
    the stock are refilled from their pooled cards in a salted order (sizes unchanged)."""
    other = state.copy()
    others = [s for s in range(state.players) if s != seat]
    pool = [c for s in others for c in state.hand(s)] + list(state.stock)
    pool.sort(key=lambda c: hashlib.sha256(salt + bytes([int(c)]) + bytes(len(pool))).digest())
    # Two copies of a card would sort together; interleave by index for a real permutation.
    pool = pool[::2] + pool[1::2]
    i = 0
    for s in others:
        n = state.hand_sizes[s]
        other.hands[s] = [0] * 53
        for c in pool[i : i + n]:
            other.hands[s][c] += 1
        i += n
    other.stock = pool[i:]
    return other


@settings(max_examples=40, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.integers(0, 120),
    st.integers(0, 3),
    st.binary(min_size=1, max_size=8),
)
def test_hidden_cards_never_change_a_view(seed: bytes, steps: int, seat: int, salt: bytes) -> None:
    state = played(seed, steps)
    shuffled = scramble(state, seat, salt)
    assert shuffled.card_count() == state.card_count()
    assert view(shuffled, seat) == view(state, seat)


def test_scrambling_really_moves_hidden_cards() -> None:
    """Guard for the blindness property: the scramble changes the hidden deal itself."""
    state = played(hashlib.sha256(b"scramble").digest(), 30)
    shuffled = scramble(state, 0, b"salt")
    assert shuffled.to_position() != state.to_position()
    assert shuffled.hands[0] == state.hands[0]


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 150))
def test_the_api_view_holds_only_the_seats_own_hand(seed: bytes, steps: int) -> None:
    state = played(seed, steps)
    for seat in range(4):
        doc = view(state, seat).to_json()
        assert set(doc) == API_V_KEYS
        assert doc["hand"] == [str(c) for c in state.hand(seat)]
        assert doc["hand_sizes"] == state.hand_sizes
        assert doc["stock_size"] == len(state.stock)
        assert "stock" not in doc and "hands" not in doc


def test_the_face_down_going_out_card_is_seen_only_by_its_owner() -> None:
    """R4.3: the last card goes face down; only the seat that went out knows it."""
    for k in range(400):
        state = played(hashlib.sha256(b"out%d" % k).digest(), 400)
        outcome = state.outcome
        if outcome is not None and outcome.end == "out":
            break
    else:
        raise AssertionError("no seeded walk went out")
    winner = outcome.winner
    assert winner is not None
    assert view(state, winner).removed == tuple(state.removed)
    for seat in range(4):
        if seat != winner:
            assert view(state, seat).removed == tuple(state.removed[:-1])
