"""Property tests (hypothesis): random legal play from random seeds never breaks an invariant.

Invariants, checked after every move: the 110 cards are conserved across hands, melds, stock,
pile and removed (R1, R6, R4.3); every meld on the table is valid (R5); every position round-trips
through F5; every legal move is accepted by ``push`` and a move ``push`` rejects changes nothing;
moves that ``legal_moves`` does not yield are rejected. At the end: the history replays from the
seed to the identical state, and the round scores are R7's, recomputed independently.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import Move, PikDameError, Rules, State, View, view
from tests.support.nearmiss import candidates, mutations
from tests.support.pikdame import (
    all_cards,
    choose,
    expected_scores,
    full_deck,
    meld_is_valid,
    snapshot,
)

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

deals = st.tuples(
    st.binary(min_size=32, max_size=32),
    st.integers(2, 4),
    st.integers(0, 3),
    st.none() | st.integers(1, 109),
)


#: The move chooser's own seed: a plain ``random.Random`` (hypothesis' shrinking random would
#: drift towards always choosing the first move or resigning at once).
choices = st.integers(0, 2**32 - 1)


def new_state(deal: tuple[bytes, int, int, int | None]) -> State:
    seed, players, dealer, cut = deal
    return State.new_round(seed, Rules(players=players), dealer % players, cut)


def check_invariants(s: State) -> dict[str, Any]:
    position = s.to_position()
    assert all_cards(position) == full_deck(), "R1: the 110 cards are conserved"
    assert s.card_count() == 110
    assert [len(h) for h in position["hands"]] == s.hand_sizes
    for seat_melds in s.melds:
        for m in seat_melds:
            assert meld_is_valid(m), f"R5: invalid meld on the table: {m}"
        ranks = [m.rank for m in seat_melds if m.kind == "set"]
        assert len(ranks) == len(set(ranks)), "R5.4: at most one set per rank and seat"
    again = State.from_position(copy.deepcopy(position)).to_position()
    assert again == position, "F5: the position round-trips"
    if s.outcome is None:
        assert s.hand_sizes[s.turn] >= 1, "R4.2: the player to move always holds a card"
    return position


def check_moves(s: State, rng: random.Random) -> None:
    """Every legal move is accepted; near misses are accepted exactly when legal."""
    legal = list(s.legal_moves())
    texts = [str(m) for m in legal]
    assert len(texts) == len(set(texts)), "legal_moves yields each move once"
    assert set(str(m) for m in s.legal_moves(max_meld=4)) <= set(texts)
    for m in legal:
        trial = s.copy()
        done = trial.push(m)
        assert str(done) == str(m), "legal moves are yielded in canonical form"
    legal_set = set(texts)
    sample = [legal[rng.randrange(len(legal))] for _ in range(3)]
    for m in sample:
        for text in mutations(s, m, rng):
            before = snapshot(s)
            trial = s.copy()
            try:
                done = trial.push(text)
            except PikDameError:
                assert snapshot(s) == before
                snap_trial = snapshot(trial)
                assert snap_trial == before, f"rejected {text!r} changed the state"
                try:
                    canonical = str(s.canonical(Move.parse(text)))
                except PikDameError:
                    continue
                assert canonical not in legal_set, f"{text!r} is legal but was rejected"
                continue
            thirteen = done.kind in ("meld", "take") and len(done.cards) == 13
            if not thirteen:
                assert str(done) in legal_set, f"{text!r} accepted but not a legal move"
            # replay compares bot moves through State.canonical: it must agree with push
            assert str(s.canonical(Move.parse(text))) == str(done)


def check_complete(s: State) -> None:
    """Every independently enumerated candidate is accepted exactly when it is a legal move."""
    legal_set = {str(m) for m in s.legal_moves()}
    for text in candidates(s):
        trial = s.copy()
        try:
            done = trial.push(text)
        except PikDameError:
            try:
                canonical = str(s.canonical(Move.parse(text)))
            except PikDameError:
                continue
            assert canonical not in legal_set, f"{text!r} is yielded as legal but rejected"
            continue
        assert str(done) in legal_set, f"{text!r} is accepted but legal_moves misses it"
        assert str(s.canonical(Move.parse(text))) == str(done)


def play(
    deal: tuple[bytes, int, int, int | None], rng: random.Random, check_all: bool
) -> tuple[State, list[dict[str, Any]]]:
    s = new_state(deal)
    positions = [check_invariants(s)]
    steps = 0
    while s.outcome is None:
        if check_all:
            check_moves(s, rng)
            if rng.random() < 0.07 and s.hand_sizes[s.turn] <= 14:
                check_complete(s)
        s.push(choose(s, rng, resign_chance=0.0005))
        positions.append(check_invariants(s))
        steps += 1
        assert steps < 2000, "a round always ends"
    return s, positions


@SETTINGS
@given(deal=deals, rng_seed=choices)
def test_random_play_keeps_invariants_and_replays(deal: Any, rng_seed: int) -> None:
    rng = random.Random(rng_seed)
    s, _ = play(deal, rng, check_all=False)
    final = s.to_position()
    event(f"round ends: {final['outcome']['end']}")
    event(f"moves: {len(s.history) // 50 * 50}+")
    assert final["outcome"]["round_scores"] == expected_scores(final), "R7 scores"
    assert s.totals == final["outcome"]["round_scores"], "R7.4: added to zero totals"
    if final["outcome"]["end"] == "out":
        assert s.hand_sizes[final["outcome"]["winner"]] == 0
    # replaying the history from the seed gives the identical state
    again = new_state(deal)
    for seat, text in s.history:
        again.push(text, seat)
    assert again.to_position() == final
    assert again.history == s.history


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals, rng_seed=choices)
def test_legal_moves_are_exactly_the_accepted_moves(deal: Any, rng_seed: int) -> None:
    rng = random.Random(rng_seed)
    play(deal, rng, check_all=True)


@SETTINGS
@given(
    deal=deals,
    rng_seed=choices,
    garbage=st.lists(
        st.text(alphabet=list("drawtkemlysicpnoXSHDC0123456789AJQKT ♠♥\n-"), max_size=20),
        min_size=5,
        max_size=5,
    ),
)
def test_garbage_moves_raise_engine_errors_and_change_nothing(
    deal: Any, rng_seed: int, garbage: list[str]
) -> None:
    rng = random.Random(rng_seed)
    s = new_state(deal)
    for _ in range(rng.randrange(60)):
        if s.outcome is not None:
            break
        s.push(choose(s, rng))
    for text in garbage:
        before = snapshot(s)
        try:
            done = s.push(text)
        except PikDameError:
            assert snapshot(s) == before
        else:
            assert snapshot(s) != before
            assert s.history[-1][1] == str(done)
            return


@settings(max_examples=15, deadline=None)
@given(deal=deals, rng_seed=choices)
def test_take_availability_matches_take_moves(deal: Any, rng_seed: int) -> None:
    rng = random.Random(rng_seed)
    """``can_take`` (3-card check) agrees with the full list of take moves (R4.1, R4.4)."""
    s = new_state(deal)
    while s.outcome is None:
        if s.phase == "draw":
            takes = [m for m in s.legal_moves() if m.kind == "take"]
            assert s.can_take() == bool(takes)
        s.push(choose(s, rng))


@settings(max_examples=10, deadline=None)
@given(deal=deals, rng_seed=choices)
def test_view_sets_every_field_as_the_dataclass_would(deal: Any, rng_seed: int) -> None:
    """R10: ``view`` fills a View's fields at once (engine/pikdame/view.py ``_built``): every
    field is set, and the value is the one the dataclass's own constructor makes of them."""
    rng = random.Random(rng_seed)
    s = new_state(deal)
    names = [f.name for f in dataclasses.fields(View)]
    while True:
        for seat in range(s.players):
            seen = view(s, seat)
            assert sorted(vars(seen)) == sorted(names)
            again = View(**{name: getattr(seen, name) for name in names})
            assert again == seen and hash(again) == hash(seen)
            assert again.to_json() == seen.to_json()
        if s.outcome is not None:
            return
        s.push(choose(s, rng))
