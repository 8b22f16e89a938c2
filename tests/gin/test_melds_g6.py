"""G6: melds, the exact minimum deadwood (against brute force: exhaustive small universes and
hypothesis), and the defender's best lay-offs (successive extensions included)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.gin.cards import NAMES, from_mask, parse_card, to_mask
from engine.gin.melds import (
    arrange,
    best_defence,
    deadwood_of,
    is_meld,
    meld_collections,
    meld_kind,
    min_deadwood,
)
from tests.support import gin_brute as brute


def mask(cards: str) -> int:
    return to_mask(parse_card(c) for c in cards.split())


def test_g6_meld_kinds() -> None:
    assert meld_kind(mask("7S 7H 7D")) == "set"
    assert meld_kind(mask("7S 7H 7D 7C")) == "set"
    assert meld_kind(mask("AS 2S 3S")) == "run"
    assert meld_kind(mask("5H 6H 7H 8H 9H TH JH QH KH")) == "run"
    assert meld_kind(mask("7S 7H")) is None
    assert meld_kind(mask("QS KS AS")) is None  # G6: the ace is low, Q-K-A is not a run
    assert meld_kind(mask("KS AS 2S")) is None  # K-A-2 is not a run either
    assert meld_kind(mask("5S 6S 8S")) is None
    assert meld_kind(mask("5S 6H 7S")) is None


def test_g6_deadwood_examples() -> None:
    # 8S would serve both the run 5S-8S and the set of eights: a card belongs to one meld.
    assert min_deadwood(mask("5S 6S 7S 8S 8H 8D")) == 0
    assert min_deadwood(mask("5S 6S 7S 8S 8H 8D 9C")) == 9
    assert min_deadwood(mask("5S 6S 7S 8S 8H")) == 8
    # Overlap: the set 7S 7H 7D or the run 5S 6S 7S, not both.
    assert min_deadwood(mask("5S 6S 7S 7H 7D")) == 11  # keep the set: 5 + 6 dead
    assert min_deadwood(mask("KS KH KD KC QS JS")) == 0  # a 3-set plus the run JS QS KS
    assert min_deadwood(mask("KS KH KD KC")) == 0
    assert min_deadwood(0) == 0


def test_g6_arrangement_is_valid_and_exact() -> None:
    hand = mask("5S 6S 7S 8S 8H 8D 8C 2C 3C 4C 9D")
    deadwood, melds = arrange(hand)
    assert deadwood == 9 and all(is_meld(m) for m in melds)
    assert deadwood_of(hand, melds) == deadwood


def _check(cards: list[str]) -> None:
    hand = to_mask(parse_card(c) for c in cards)
    expected = brute.min_deadwood(frozenset(cards))
    assert min_deadwood(hand) == expected, cards
    deadwood, melds = arrange(hand)
    assert deadwood == expected
    used = 0
    for m in melds:
        assert is_meld(m) and not m & used and not m & ~hand
        used |= m
    assert deadwood_of(hand, melds) == expected


def test_g6_exhaustive_small_universe() -> None:
    """Every 6-card hand of A–5 in three suits (5005 hands) against brute force."""
    universe = [r + s for s in "SHD" for r in "A2345"]
    for cards in combinations(universe, 6):
        _check(list(cards))


def test_g6_exhaustive_dense_sets_and_runs() -> None:
    """Every 7-card hand of 6–9 in S H D and 6–7 in C (3432 hands): sets of 3 and 4 and runs."""
    universe = [r + s for s in "SHDC" for r in "6789"][:14]
    for cards in combinations(universe, 7):
        _check(list(cards))


DENSE = [r + s for s in "SHDC" for r in "3456789"]  # 28 cards: many overlapping melds


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DENSE), min_size=3, max_size=11, unique=True))
def test_g6_min_deadwood_equals_brute_force_dense(cards: list[str]) -> None:
    _check(cards)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(NAMES), min_size=10, max_size=11, unique=True))
def test_g6_min_deadwood_equals_brute_force_any(cards: list[str]) -> None:
    _check(cards)


def test_g6_meld_collections_are_every_disjoint_collection() -> None:
    hand = mask("5S 6S 7S 8S 8H 8D 8C")
    found = {tuple(sorted(c)) for c in meld_collections(hand)}
    names = [NAMES[c] for c in from_mask(hand)]
    melds = [
        to_mask(parse_card(c) for c in m)
        for n in range(3, 8)
        for m in combinations(names, n)
        if brute.is_meld(m)
    ]
    expected: set[tuple[int, ...]] = {()}
    frontier: list[tuple[int, ...]] = [()]
    while frontier:
        nxt = []
        for coll in frontier:
            used = 0
            for m in coll:
                used |= m
            for m in melds:
                if not m & used:
                    grown = tuple(sorted((*coll, m)))
                    if grown not in expected:
                        expected.add(grown)
                        nxt.append(grown)
        frontier = nxt
    assert found == expected


# -- lay-offs ---------------------------------------------------------------------------------


def test_g6_successive_extensions() -> None:
    """G6's example: 8S then 9S on 5S 6S 7S."""
    d = best_defence(mask("8S 9S KH KD QC JC 2D 3H 4C TH"), [mask("5S 6S 7S")], gin=False)
    assert d.layoffs == ((parse_card("8S"), 0), (parse_card("9S"), 0))
    assert d.deadwood == brute.value(tuple(["KH", "KD", "QC", "JC", "2D", "3H", "4C", "TH"]))


def test_g6_lay_off_at_both_ends_and_on_a_set() -> None:
    d = best_defence(mask("4S 8S 7C 2D 9H"), [mask("5S 6S 7S"), mask("7H 7D 7S")], gin=False)
    laid = {(NAMES[c], i) for c, i in d.layoffs}
    assert laid == {("4S", 0), ("8S", 0), ("7C", 1)}
    assert d.deadwood == 2 + 9


def test_g6_no_lay_off_on_a_four_card_set_or_past_the_king() -> None:
    d = best_defence(mask("AS 2D"), [mask("7H 7D 7S 7C"), mask("JS QS KS")], gin=False)
    assert d.layoffs == () and d.deadwood == 3


def test_g6_no_lay_offs_on_gin() -> None:
    d = best_defence(mask("8S 9S"), [mask("5S 6S 7S")], gin=True)
    assert d.layoffs == () and d.deadwood == 17


def test_g6_a_card_for_two_melds_goes_where_it_helps_most() -> None:
    # 7C can extend the set of sevens or the run 4C 5C 6C; 8C only after 7C on the run.
    d = best_defence(mask("7C 8C"), [mask("7H 7D 7S"), mask("4C 5C 6C")], gin=False)
    assert d.deadwood == 0


@st.composite
def knock_situations(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    cards = draw(st.permutations(DENSE))
    return list(cards[:10]), list(cards[10:20])


@settings(max_examples=150, deadline=None)
@given(knock_situations())
def test_g6_best_defence_equals_brute_force(situation: tuple[list[str], list[str]]) -> None:
    knocker, defender = situation
    _, melds = arrange(to_mask(parse_card(c) for c in knocker))
    hand = to_mask(parse_card(c) for c in defender)
    d = best_defence(hand, melds, gin=False)
    knocker_melds = tuple(frozenset(NAMES[c] for c in from_mask(m)) for m in melds)
    assert d.deadwood == brute.best_defence_deadwood(frozenset(defender), knocker_melds)
    # the answer itself is consistent: lay-offs in order extend, own melds are melds
    extended = list(melds)
    laid = 0
    for c, i in d.layoffs:
        assert is_meld(extended[i] | 1 << c)
        extended[i] |= 1 << c
        laid |= 1 << c
    assert deadwood_of(hand & ~laid, d.melds) == d.deadwood


def test_g6_best_defence_exhaustive_small_cases() -> None:
    """Every 5-card defender hand of the cards around two knocker melds (a run and a set that
    share neighbours, 2002 hands) against brute force over every lay-off order."""
    knocker = (frozenset({"5S", "6S", "7S"}), frozenset({"8H", "8D", "8C"}))
    melds = [to_mask(parse_card(c) for c in sorted(m)) for m in knocker]
    universe = ["2S", "3S", "4S", "8S", "9S", "TS", "5H", "9H", "7H", "6H", "7D", "4H", "4D", "4C"]
    for cards in combinations(universe, 5):
        hand = to_mask(parse_card(c) for c in cards)
        d = best_defence(hand, melds, gin=False)
        assert d.deadwood == brute.best_defence_deadwood(frozenset(cards), knocker), cards
