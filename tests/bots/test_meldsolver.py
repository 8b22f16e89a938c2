"""The optimiser (``engine.pikdame.optimiser.best_arrangement``) is exact: its moves are legal in
order, keep a card (R4.2) and gain exactly the brute-force best over the engine's own legal plays
(R5, R6, R7.1); on big hands it never gains less than pushing every move it names."""

from __future__ import annotations

import hashlib
import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.core.cards import CARDS, JOKER_CODE, Card
from engine.pikdame.cards import COPIES
from engine.pikdame.deal import deal
from engine.pikdame.melds import Meld
from engine.pikdame.optimiser import best_arrangement
from engine.pikdame.optimiser.fallback import FALLBACK_BUDGET
from engine.pikdame.optimiser.solver import BOTS, Budget
from engine.pikdame.optimiser.tree import MAX_PIECE
from engine.pikdame.state import State
from tests.support.brute import brute_best, play_state, score
from tests.support.determinism import ENGINE, violations
from tests.support.situations import situations


def melds_points(state: State) -> int:
    return sum(m.points for m in state.melds[0])


def _push_all(hand: list[Card], melds: list[Meld], budget: Budget = BOTS) -> tuple[int, int, State]:
    solution = best_arrangement(hand, melds, budget)
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


def test_out_of_budget_gives_a_legal_best_effort() -> None:
    """With a tiny node budget the solver answers with its greedy dive: still legal, keeps a
    card (R4.2), says it is not exact, and never gains more than the exact answer."""
    hands = []
    for t in range(5):
        d = deal(hashlib.sha256(f"tests/bots/meldsolver/budget/{t}".encode()).digest(), 2, 0)
        hands.append([Card.from_id(i) for i in [*d.hands[0], *d.stock][:30]])
    exact = [best_arrangement(hand, []) for hand in hands]
    assert all(s.exact for s in exact)
    tiny = Budget(3, FALLBACK_BUDGET)  # the search's budget is a parameter (solver.BOTS, HINT)
    for hand, best in zip(hands, exact, strict=True):
        gain, _, _ = _push_all(hand, [], tiny)  # the rough answer's moves are legal too
        rough = best_arrangement(hand, [], tiny)
        assert not rough.exact
        assert rough.gain == gain <= best.gain


EDGES = [
    # R5.2: a 12-card run takes its 13th card (either end), never a 14th; jokers fill the rest.
    ("AH 5C X", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
    ("X X 7C", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
    # R5.1/R5.4: a set holds 8 cards, no suit three times; new cards of its rank join it.
    ("9S 9S 9H 4C", "9D 9D 9C 9C X"),
    ("9H 9H 9C 4C", "9S 9D X"),
    # R5.2 ring: the player's run Q-K-A grows through 2 and 3, and down through J with a joker.
    ("2D 3D 9D X 4S", "QD KD AD"),
    # R6: the Q♠ swapped into a run or a set; an ace swapped into a set of aces.
    ("QS AC 4D", "JS X KS"),
    ("AC 4D 8H", "AS AH X"),
    # R6: two aces into the two jokers of one full set (found by the full-table test).
    ("6S AC AC", "AS AS AH AH AD AD X X"),
]


def test_edges_match_brute_force() -> None:
    """Hand-picked edges of R5/R6 with big owned melds, each against the brute force."""
    for hand_text, meld_text in EDGES:
        hand = [Card.parse(t) for t in hand_text.split(" ")]
        melds = [Meld.build([Card.parse(t) for t in meld_text.split(" ")])]
        gain, _, _ = _push_all(hand, melds)
        assert gain == brute_best(hand, melds), (hand_text, meld_text)


@st.composite
def full_tables(draw: st.DrawFn) -> tuple[list[Card], list[Meld]]:
    """Owned melds close to full (runs of 11–12, sets of 6–8, R5.1/R5.2) and a few hand cards
    that fit them, so room runs out and jokers must be disposed of by a swap (R6)."""
    suit = draw(st.integers(0, 3))
    length = draw(st.integers(11, 12))
    # Ends next to an ace or the Q♠ make disposal pay: 2p + 20 beats a spare joker's 40 (R1).
    after = draw(st.sampled_from([0, 0, 11, 5]))
    start = (after - length) % 13
    run = [CARDS[suit * 13 + (start + i) % 13] for i in range(length)]
    for i in draw(st.lists(st.integers(1, length - 2), max_size=2, unique=True)):
        run[i] = CARDS[JOKER_CODE]
    rank = draw(st.sampled_from([0, 11, 7]))
    if rank == (start + length) % 13 or rank == (start - 1) % 13:
        rank = (rank + 6) % 13
    pool = [CARDS[s * 13 + rank] for s in range(4) for _ in range(2)]
    size = draw(st.integers(6, 8))
    jokers_in_set = draw(st.integers(0, 2))
    naturals = pool[: size - jokers_in_set]
    set_cards = [*naturals, *[CARDS[JOKER_CODE]] * jokers_in_set]
    melds = [Meld.build(run, "run"), Meld.build(set_cards, "set")]
    used = [0] * 53
    for m in melds:
        for card in m.cards:
            used[card] += 1
    ends = [suit * 13 + (start + length) % 13, suit * 13 + (start - 1) % 13]
    near = [*ends, *(s * 13 + rank for s in range(4)), JOKER_CODE, JOKER_CODE, 3 * 13 + 4]
    hand: list[Card] = []
    for c in draw(st.lists(st.sampled_from(near), min_size=2, max_size=5)):
        if used[c] < COPIES[c]:
            used[c] += 1
            hand.append(CARDS[c])
    assume(len(hand) >= 2)
    return hand, melds


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(full_tables())
def test_full_tables_match_brute_force(case: tuple[list[Card], list[Meld]]) -> None:
    hand, melds = case
    gain, _, _ = _push_all(hand, melds)
    assert gain == brute_best(hand, melds)


def test_long_runs_split_into_pieces() -> None:
    """Why the search enumerates new runs of at most MAX_PIECE cards: every run of 6–13 cards
    (R5.2) with natural ends, at most 6 jokers and no gap of 5 jokers splits into runs of 3 to
    MAX_PIECE cards that each hold a natural (R5.3). Checked for every such pattern."""
    checked = 0
    for length in range(MAX_PIECE + 1, 14):
        for middle in itertools.product((False, True), repeat=length - 2):
            jokers = (False, *middle, False)  # True: a joker at that position
            if sum(jokers) > 6 or "11111" in "".join("1" if j else "0" for j in jokers):
                continue
            splits = [True] + [False] * length  # splits[i]: the first i cards split well
            for i in range(length):
                if not splits[i]:
                    continue
                for k in range(3, MAX_PIECE + 1):
                    if i + k <= length and not all(jokers[i : i + k]):
                        splits[i + k] = True
            assert splits[length], jokers
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize(
    "name",
    [
        f"pikdame/optimiser/{m}.py"
        for m in ("solver", "search", "tree", "fallback", "moves", "arrangement")
    ],
)
def test_optimiser_source_is_deterministic(name: str) -> None:
    """The determinism bar for the optimiser the bots and replay run: no randomness, clock,
    floats or hash() in its decisions (the engine core's own source check)."""
    assert violations((ENGINE / name).read_text(), name) == []
