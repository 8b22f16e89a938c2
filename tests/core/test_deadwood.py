"""The shared 52-card deck and deadwood search (engine/core/standard.py, engine/core/deadwood.py;
GIN.md G1, G6) against brute force written from G6's text: every subset of a hand is tested for
being a meld and every collection of disjoint melds is weighed, for any game's card values."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.deadwood import (
    ALL_MELDS,
    STANDARD,
    DeadwoodSearch,
    deadwood_search,
    is_meld,
    layoff_options,
    meld_collections,
    meld_kind,
)
from engine.core.errors import NotationError
from engine.core.standard import (
    DEADWOOD,
    DEADWOOD_VALUES,
    NAMES,
    CardValues,
    from_mask,
    names,
    parse_card,
    to_mask,
)

CARDS = list(range(52))
#: Any game's values per rank A … K (Gin's are one of them, G1).
VALUES = st.lists(st.integers(0, 25), min_size=13, max_size=13).map(tuple)
HANDS = st.lists(st.sampled_from(CARDS), min_size=0, max_size=11, unique=True)
#: 11 of the 28 cards 3–9: hands full of overlapping sets and runs.
DENSE = st.lists(
    st.sampled_from([s * 13 + r for s in range(4) for r in range(2, 9)]),
    min_size=3,
    max_size=11,
    unique=True,
)
#: Searches built once per value table a test draws (each has its own memo).
_SEARCHES: dict[tuple[int, ...], DeadwoodSearch] = {}


def brute_is_meld(cards: tuple[int, ...]) -> bool:
    """G6 from its text: 3 or 4 of one rank, or 3+ consecutive of one suit, the ace low."""
    if len(cards) < 3:
        return False
    if len(cards) <= 4 and len({c % 13 for c in cards}) == 1:
        return True
    if len({c // 13 for c in cards}) != 1:
        return False
    ranks = sorted(c % 13 for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def brute_melds(hand: list[int]) -> list[frozenset[int]]:
    return [
        frozenset(m)
        for n in range(3, len(hand) + 1)
        for m in combinations(sorted(hand), n)
        if brute_is_meld(m)
    ]


def brute_collections(hand: list[int]) -> Iterator[tuple[frozenset[int], ...]]:
    """Every collection of disjoint melds of ``hand`` (each once, the empty one included)."""
    melds = brute_melds(hand)

    def walk(i: int, used: frozenset[int]) -> Iterator[tuple[frozenset[int], ...]]:
        if i == len(melds):
            yield ()
            return
        yield from walk(i + 1, used)
        if not melds[i] & used:
            for rest in walk(i + 1, used | melds[i]):
                yield (melds[i], *rest)

    yield from walk(0, frozenset())


def brute_min_deadwood(hand: list[int], by_rank: tuple[int, ...]) -> int:
    """The least deadwood over every partition of ``hand`` into disjoint melds and the rest."""
    melds = brute_melds(hand)

    def value(cards: frozenset[int]) -> int:
        return sum(by_rank[c % 13] for c in cards)

    @cache
    def best(i: int, used: frozenset[int]) -> int:
        if i == len(melds):
            return 0
        skip = best(i + 1, used)
        if melds[i] & used:
            return skip
        return max(skip, value(melds[i]) + best(i + 1, used | melds[i]))

    return value(frozenset(hand)) - best(0, frozenset())


def search(by_rank: tuple[int, ...]) -> DeadwoodSearch:
    if by_rank not in _SEARCHES:
        _SEARCHES[by_rank] = deadwood_search(CardValues(by_rank), memo=1 << 10)
    return _SEARCHES[by_rank]


def check(hand: list[int], by_rank: tuple[int, ...]) -> None:
    s = search(by_rank)
    mask = to_mask(hand)
    expected = brute_min_deadwood(hand, by_rank)
    assert s.min_deadwood(mask) == expected, names(hand)
    deadwood, melds = s.arrange(mask)
    assert deadwood == expected
    used = 0
    for m in melds:  # valid, disjoint, from the hand
        assert is_meld(m) and brute_is_meld(tuple(from_mask(m)))
        assert not m & used and not m & ~mask
        used |= m
    assert s.deadwood_of(mask, melds) == expected
    assert s.points(mask & ~used) == expected


@settings(max_examples=150, deadline=None)
@given(HANDS, VALUES)
def test_g6_min_deadwood_is_the_brute_force_minimum_for_any_values(
    hand: list[int], by_rank: tuple[int, ...]
) -> None:
    check(hand, by_rank)


@settings(max_examples=150, deadline=None)
@given(DENSE, st.sampled_from([DEADWOOD_VALUES, (1,) * 13, (15, *range(2, 11), 10, 10, 10)]))
def test_g6_min_deadwood_on_dense_hands(hand: list[int], by_rank: tuple[int, ...]) -> None:
    check(hand, by_rank)


@settings(max_examples=60, deadline=None)
@given(st.one_of(DENSE, st.lists(st.sampled_from(CARDS), max_size=8, unique=True)))
def test_g6_meld_collections_are_every_disjoint_collection_once(hand: list[int]) -> None:
    found = [tuple(sorted(tuple(from_mask(m)) for m in c)) for c in meld_collections(to_mask(hand))]
    assert len(found) == len(set(found))
    expected = {tuple(sorted(tuple(sorted(m)) for m in coll)) for coll in brute_collections(hand)}
    assert set(found) == expected


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(ALL_MELDS), st.lists(st.sampled_from(CARDS), max_size=10, unique=True))
def test_g6_every_layoff_option_keeps_the_meld_a_meld(meld: int, hand: list[int]) -> None:
    """Each option lays off cards of the hand (not of the meld) one after another, each keeping
    the meld valid; the options are distinct and the empty one is among them."""
    mask = to_mask(hand) & ~meld
    options = layoff_options(meld, 0, mask)
    assert () in options and len(options) == len(set(options))
    for option in options:
        grown = meld
        for card, index in option:
            assert index == 0 and mask >> card & 1
            grown |= 1 << card
            assert is_meld(grown)


def test_g6_every_meld_of_the_deck_and_nothing_else() -> None:
    assert len(ALL_MELDS) == 65 + 264 == len(set(ALL_MELDS))
    assert all(brute_is_meld(tuple(from_mask(m))) for m in ALL_MELDS)
    # Every 3- and 4-card meld found by brute force over one suit and one rank is listed.
    spades = [m for m in ALL_MELDS if not m >> 13]
    assert len(spades) == sum(13 - n + 1 for n in range(3, 14))
    assert meld_kind(to_mask(parse_card(c) for c in ("QS", "KS", "AS"))) is None  # ace low


def test_searches_keep_their_values_apart() -> None:
    """Two games' values give two answers for the same hand; neither memo serves the other."""
    hand = to_mask(parse_card(c) for c in ("KS", "KH", "KD", "2C", "9H"))
    faces_free = deadwood_search(CardValues((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0)))
    assert STANDARD.min_deadwood(hand) == 11
    assert faces_free.min_deadwood(hand) == 11
    loose = to_mask(parse_card(c) for c in ("KS", "QH", "2C"))
    assert STANDARD.min_deadwood(loose) == 22 and faces_free.min_deadwood(loose) == 2
    assert STANDARD.values == DEADWOOD


# -- the standard deck --------------------------------------------------------------------------


def test_g1_names_parse_and_values() -> None:
    assert [parse_card(n) for n in NAMES] == CARDS
    assert [parse_card(n.lower()) for n in NAMES] == CARDS
    assert DEADWOOD.by_card[parse_card("AS")] == 1 and DEADWOOD.by_card[parse_card("KC")] == 10
    assert DEADWOOD.by_card[parse_card("TD")] == 10 and DEADWOOD.by_card[parse_card("7H")] == 7


@pytest.mark.parametrize("text", ["X", "x", "joker", "1S", "", "QSS"])
def test_g1_the_joker_and_bad_text_are_no_card(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(text)
    assert info.value.code == "syntax"


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(CARDS), max_size=52, unique=True), VALUES)
def test_masks_round_trip_and_count(hand: list[int], by_rank: tuple[int, ...]) -> None:
    values = search(by_rank).values
    mask = to_mask(hand)
    assert from_mask(mask) == sorted(hand)
    assert values.mask(mask) == values.of(hand) == sum(by_rank[c % 13] for c in hand)


@pytest.mark.parametrize("by_rank", [(), (1,) * 12, (1,) * 14, (-1, *(1,) * 12)])
def test_card_values_are_one_count_per_rank(by_rank: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        CardValues(by_rank)
