"""R5 meld validation against a small independent reference written from RULES.md R5 and F2,
on hypothesis-generated card lists (sets, ring runs, jokers, prefixes, any order)."""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine import Card, Meld, NotationError, PikDameError
from engine.pikdame.cards import POINTS
from tests.support.reference import RANKS, SUITS, ref_lay, ref_meld, ref_swap

ALL = [r + s for s in SUITS for r in RANKS]


@st.composite
def meld_candidates(draw: st.DrawFn) -> list[str]:
    shape = draw(st.integers(0, 3))
    if shape == 0:  # anything
        return draw(st.lists(st.sampled_from([*ALL, "X"]), min_size=1, max_size=14))
    if shape == 1:  # a ring segment of one suit, some replaced by jokers, maybe shuffled
        suit = draw(st.sampled_from(SUITS))
        start = draw(st.integers(0, 12))
        n = draw(st.integers(2, 14))
        names = [RANKS[(start + i) % 13] + suit for i in range(n)]
        jokers = draw(st.lists(st.integers(0, n - 1), max_size=3))
        for i in jokers:
            names[i] = "X"
        if draw(st.booleans()):
            names = draw(st.permutations(names))
        return list(names)
    if shape == 2:  # one rank, several suits, jokers
        rank = draw(st.sampled_from(RANKS))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=0, max_size=9))
        names = [rank + s for s in suits] + ["X"] * draw(st.integers(0, 3))
        return list(draw(st.permutations(names))) if names else ["X"]
    # a near-run: a segment with one card changed
    suit = draw(st.sampled_from(SUITS))
    start = draw(st.integers(0, 12))
    n = draw(st.integers(3, 13))
    names = [RANKS[(start + i) % 13] + suit for i in range(n)]
    names[draw(st.integers(0, n - 1))] = draw(st.sampled_from([*ALL, "X"]))
    return names


@settings(max_examples=1000, deadline=None)
@given(names=meld_candidates(), prefix=st.sampled_from([None, None, "set", "run"]))
def test_r5_meld_build_agrees_with_reference(names: list[str], prefix: str | None) -> None:
    expected = ref_meld(names, prefix)
    cards = [Card.parse(c) for c in names]
    try:
        m = Meld.build(cards, prefix)
    except NotationError:
        assert expected == "syntax", (names, prefix, expected)
        return
    except PikDameError as e:
        assert e.code == "invalid_meld"
        assert expected == "invalid_meld", (names, prefix, expected)
        return
    assert expected == (m.kind, [str(c) for c in m.cards]), (names, prefix)
    assert m.points == sum(POINTS[Card.parse(c)] for c in names)


@st.composite
def melds_and_cards(draw: st.DrawFn) -> tuple[str, list[str], str]:
    """A valid meld (as written) and a card near it: an end's neighbour, a joker's card, a card
    of the set's rank, a joker or anything."""
    if draw(st.booleans()):
        suit = draw(st.sampled_from(SUITS))
        start = draw(st.integers(0, 12))
        n = draw(st.integers(3, 13))
        names = [RANKS[(start + i) % 13] + suit for i in range(n)]
        stands = list(names)
        for i in draw(st.lists(st.integers(0, n - 1), max_size=3)):
            if sum(1 for c in names if c != "X") > 1:
                names[i] = "X"
        near = [RANKS[(start - 1) % 13] + suit, RANKS[(start + n) % 13] + suit, *stands]
        kind = "run"
    else:
        rank = draw(st.sampled_from(RANKS))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=8))
        suits = [s for i, s in enumerate(suits) if suits[:i].count(s) < 2]
        jokers = draw(st.integers(max(0, 3 - len(suits)), max(0, 8 - len(suits))))
        names = [rank + s for s in suits] + ["X"] * jokers
        near = [rank + s for s in SUITS]
        kind = "set"
    card = draw(st.sampled_from(near) | st.just("X") | st.sampled_from(ALL))
    return kind, names, card


@settings(max_examples=400, deadline=None)
@given(mc=melds_and_cards(), end=st.sampled_from([None, "low", "high"]))
def test_r4_2_r6_lay_and_swap_agree_with_reference(
    mc: tuple[str, list[str], str], end: str | None
) -> None:
    kind, names, card = mc
    built = ref_meld(names, kind)
    assert isinstance(built, tuple), names
    stored = built[1]
    m = Meld.build([Card.parse(c) for c in names], kind)
    c = Card.parse(card)
    expected = ref_lay(kind, stored, card, end)
    try:
        got: list[str] | None = [str(x) for x in m.with_card(c, end).cards]
    except PikDameError as e:
        assert e.code == "invalid_meld"
        got = None
    assert got == expected, ("lay", stored, card, end)
    event(f"lay {'ok' if got else 'rejected'} on a {kind}")
    if card == "X":
        return
    expected = ref_swap(kind, stored, card)
    try:
        got = [str(x) for x in m.with_swap(c).cards]
    except PikDameError as e:
        assert e.code == "invalid_meld"
        got = None
    assert got == expected, ("swap", stored, card)
    event(f"swap {'ok' if got else 'rejected'} on a {kind}")
