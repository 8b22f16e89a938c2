"""The engine against the independent reference of ``tests/support/reference.py``: for every move
played in random rounds, and for many near-miss moves, ``State.push`` gives the same next position
(F5) as the reference, or the same F7 error code (precedence included)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import PikDameError, Rules, State
from tests.support.nearmiss import candidates, mutations
from tests.support.pikdame import choose, state
from tests.support.reference import RefError, ref_apply, ref_can_take


def compare(s: State, text: str) -> str:
    """Push ``text`` on a copy and on the reference; both must agree. Returns the outcome."""
    position = s.to_position()
    try:
        expected: Any = ref_apply(position, text)
    except RefError as e:
        expected = e.code
    trial = s.copy()
    try:
        trial.push(text)
    except PikDameError as e:
        assert expected == e.code, f"{text!r}: engine {e.code}, reference {expected}"
        return e.code
    assert isinstance(expected, dict), f"{text!r}: engine accepts, reference says {expected}"
    assert trial.to_position() == expected, f"{text!r}: positions differ"
    return "ok"


def play_against_reference(s: State, rng: random.Random, extra: float) -> Counter[str]:
    seen: Counter[str] = Counter()
    while s.outcome is None:
        texts = []
        legal = list(s.legal_moves(max_meld=5))
        for m in legal[:: max(1, len(legal) // 6)]:
            texts.extend(mutations(s, m, rng))
        if rng.random() < extra and s.hand_sizes[s.turn] <= 12:
            texts.extend(rng.sample(cands := candidates(s), min(len(cands), 150)))
        for text in texts:
            seen[compare(s, text)] += 1
        if s.phase == "draw":
            assert s.can_take() == ref_can_take(s.to_position())
        move = str(choose(s, rng, resign_chance=0.0005))
        assert compare(s, move) == "ok"
        s.push(move)
    seen[f"end: {s.to_position()['outcome']['end']}"] += 1
    seen[compare(s, "draw")] += 1  # round_over
    return seen


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.binary(min_size=32, max_size=32),
    players=st.integers(2, 4),
    dealer=st.integers(0, 3),
    hod=st.booleans(),
    rng_seed=st.integers(0, 2**32 - 1),
)
def test_engine_agrees_with_reference_in_random_rounds(
    seed: bytes, players: int, dealer: int, hod: bool, rng_seed: int
) -> None:
    rules = Rules(players=players, hand_out_double=hod)
    s = State.new_round(seed, rules, dealer % players, None)
    for code in play_against_reference(s, random.Random(rng_seed), extra=0.05):
        event(code)


def test_engine_agrees_with_reference_near_the_end_of_the_stock() -> None:
    """Small positions with a short stock reach R4.4 (forced takes, end: stock) often."""
    seen: Counter[str] = Counter()
    for n in range(40):
        rng = random.Random(n)
        s = state(
            ["7H 8H X QS 2C", "9H TH JD JS", "4C 5C 5D"],
            melds=[["set 9S 9D 9C"], [], ["run AD 2D 3D"]],
            stock="9H 6C JH",
            discard="KD 6H",
            phase="draw",
            hand_out_double=n % 2 == 0,
        )
        seen += play_against_reference(s, rng, extra=0.5)
    for code in ("ok", "stock_empty", "round_over", "end: stock", "end: out"):
        assert seen[code], f"never reached: {code} ({seen})"


SMALL = [
    state(["5H 6H 7H", "2D 3D"], stock="5C"),
    state(["8S X", "2D 3D"], melds=[["run 5S 6S 7S", "set 8H 8D 8C"], []], stock="5C"),
    state(["6S", "2D 3D"], melds=[["run 5S X 7S"], []], stock="5C"),
    state(["7H 8H", "2D 3D"], phase="draw", stock="5C", discard="KD 9H"),
    state(["7H X", "2D 3D"], phase="draw", stock="", discard="KD 9H"),  # over: no take
    state(["7H 8H X", "2D 3D"], phase="draw", stock="", discard="KD 9H"),  # forced take
    state(["7C 7C X", "2D 3D"], melds=[["set 7S 7S 7H 7H 7D 7D"], []], stock="5C"),
    state(["7C X X QS", "2D"], melds=[["set 7S 7S 7H 7H 7D 7D"], []], phase="draw", discard="7C"),
    state(["KH AH 2H X", "2D 3D"], melds=[["run 3H 4H 5H 6H 7H 8H 9H TH JH QH"], []]),
]


def test_engine_agrees_with_reference_on_small_positions() -> None:
    """Every enumerated candidate on positions built to reach must_keep_card, joins, the
    13-card run, forced takes (F7 precedence at the edges)."""
    seen: Counter[str] = Counter()
    for s in SMALL:
        for text in candidates(s):
            seen[compare(s, text)] += 1
    for code in ("ok", "must_keep_card", "invalid_meld", "stock_empty", "round_over"):
        assert seen[code], f"never reached: {code} ({seen})"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.binary(min_size=32, max_size=32),
    players=st.integers(2, 4),
    rng_seed=st.integers(0, 2**32 - 1),
    moves=st.integers(0, 80),
    stock=st.integers(0, 3),
)
def test_engine_agrees_with_reference_with_a_short_stock(
    seed: bytes, players: int, rng_seed: int, moves: int, stock: int
) -> None:
    """A random mid-round position with its stock cut to 0–3 cards (F5 allows partial
    positions): R4.4's forced takes and stock endings, engine against reference."""
    rng = random.Random(rng_seed)
    s = State.new_round(seed, Rules(players=players), 0, None)
    for _ in range(moves):
        if s.outcome is not None:
            return
        s.push(choose(s, rng))
    if s.outcome is not None:  # the last move ended the round: not a mid-round position
        return
    position = s.to_position()
    position["stock"] = position["stock"][:stock]
    s = State.from_position(position)
    if s.outcome is not None:
        event("over on reading (R4.4)")
        assert not ref_can_take(position) and position["phase"] == "draw"
        return
    for code in play_against_reference(s, rng, extra=0.3):
        event(code)
