"""R5 melds (sets, ring runs, jokers) and R6 joker swaps, at the level of ``Meld`` values."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import CARDS, Card, Meld, NotationError, PikDameError
from engine.pikdame.meldgen import could_meld, iter_melds
from tests.support.pikdame import points


def build(text: str, kind: str | None = None) -> Meld:
    return Meld.build([Card.parse(t) for t in text.split()], kind)


def names(m: Meld) -> str:
    return " ".join(str(c) for c in m.cards)


def invalid(text: str, kind: str | None = None) -> None:
    with pytest.raises(PikDameError) as info:
        build(text, kind)
    assert info.value.code == "invalid_meld", info.value


# -- R5.1 sets ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["7S 7H 7D", "7S 7S 7H", "7C 7D 7H 7S", "7S 7S 7H 7H 7D 7D 7C 7C", "7S X X", "7S 7H X"],
)
def test_r5_1_valid_sets(text: str) -> None:
    m = build(text, "set") if text.count("X") == 2 else build(text)
    assert m.kind == "set"
    assert sorted(names(m).split()) == sorted(text.split())


def test_r5_1_set_sizes_3_to_8() -> None:
    invalid("7S 7H")
    invalid("7S 7H", "set")
    invalid("7S 7S 7H 7H 7D 7D 7C 7C X")  # 9 cards
    assert len(build("7S 7S 7H 7H 7D 7D 7C X").cards) == 8


def test_r5_1_no_suit_three_times() -> None:
    """R5.1: no suit more than twice (only reachable with a constructed meld: two decks hold just
    two of each card, so a physical table can never hold three 7♠)."""
    invalid("7S 7S 7S")
    invalid("7S 7S 7S 7H")


def test_r5_1_one_rank_only() -> None:
    invalid("7S 7H 8D", "set")
    invalid("7S 7H 8D")  # as a run: suits differ


def test_r5_1_set_is_canonically_sorted() -> None:
    """F5: a set's cards by suit S H D C, jokers last."""
    assert names(build("X 7C 7S 7H")) == "7S 7H 7C X"


# -- R5.2 runs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("5H 6H 7H", "5H 6H 7H"),
        ("7H 5H 6H", "5H 6H 7H"),  # naturals only: any order, stored in ring order
        ("QH KH AH", "QH KH AH"),  # Q-K-A
        ("AH KH QH", "QH KH AH"),
        ("KH AH 2H", "KH AH 2H"),  # K-A-2 wraps the ring
        ("2H KH AH", "KH AH 2H"),
        ("JH QH KH AH 2H", "JH QH KH AH 2H"),
        ("AS 2S 3S", "AS 2S 3S"),
        ("TD JD QD KD", "TD JD QD KD"),
    ],
)
def test_r5_2_ring_runs(text: str, stored: str) -> None:
    m = build(text)
    assert m.kind == "run"
    assert names(m) == stored


@pytest.mark.parametrize(
    "text",
    [
        "5H 6H 8H",  # gap
        "5H 6H 6H",  # rank twice
        "5H 6H 7D",  # two suits
        "5H 6H",  # too short
        "QH KH AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",  # 14 cards: Q twice
        "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH X",  # 14 cards
    ],
)
def test_r5_2_invalid_runs(text: str) -> None:
    invalid(text, "run")


def test_r5_2_thirteen_card_run_stored_from_ace() -> None:
    """F2: a 13-card run of naturals is stored from A unless written in another ring order."""
    shuffled = "7C 2C KC AC 9C 3C 5C TC 4C QC 6C 8C JC"
    assert names(build(shuffled)) == "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
    from_five = "5C 6C 7C 8C 9C TC JC QC KC AC 2C 3C 4C"
    assert names(build(from_five)) == from_five
    from_king = "KC AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"
    assert names(build(from_king)) == from_king


def test_r5_2_thirteen_card_run_cannot_be_extended() -> None:
    m = build("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC")
    for c, end in (("X", "high"), ("X", "low"), ("AC", None), ("KC", None)):
        with pytest.raises(PikDameError) as info:
            m.with_card(Card.parse(c), end)
        assert info.value.code == "invalid_meld"


# -- R5.3 jokers ----------------------------------------------------------------------------------


def test_r5_3_joker_in_run_stands_for_its_position() -> None:
    m = build("7H X 9H")
    assert str(m.stands_for(1)) == "8H"
    m = build("X 8H 9H")
    assert str(m.stands_for(0)) == "7H"
    m = build("X AH 2H")
    assert str(m.stands_for(0)) == "KH"  # the ring: the card before A is K
    m = build("QH KH X")
    assert str(m.stands_for(2)) == "AH"


def test_r5_3_every_meld_needs_a_natural() -> None:
    invalid("X X X")
    invalid("X X X", "set")
    invalid("X X X", "run")


def test_r5_3_joker_run_must_be_in_ascending_ring_order() -> None:
    """F2: a run that holds a joker must be written in ascending ring order, else invalid_meld."""
    invalid("9H X 7H")
    invalid("8H 7H X")
    invalid("X 7H 9H")  # the joker would be 6H, then 9H is out of place
    assert names(build("7H 8H X")) == "7H 8H X"


def test_r5_3_run_of_one_natural_needs_prefix() -> None:
    with pytest.raises(NotationError):
        build("7H X X")
    assert names(build("7H X X", "run")) == "7H X X"
    assert names(build("X 7H X", "run")) == "X 7H X"
    assert build("7H X X", "set").kind == "set"


def test_f2_contradicting_prefix_is_invalid_meld() -> None:
    """F2: a prefix that contradicts the cards is invalid_meld."""
    invalid("7H 8H 9H", "set")
    invalid("7H 7S 7D", "run")
    assert build("7H 8H 9H", "run").kind == "run"
    assert build("7H 7S 7D", "set").kind == "set"


# -- lay (R4.2) at the meld level -----------------------------------------------------------------


def test_lay_on_run_ends_and_joker_ends() -> None:
    m = build("5H 6H 7H")
    assert names(m.with_card(Card.parse("8H"))) == "5H 6H 7H 8H"
    assert names(m.with_card(Card.parse("4H"))) == "4H 5H 6H 7H"
    assert names(m.with_card(Card.parse("X"), "low")) == "X 5H 6H 7H"
    assert names(m.with_card(Card.parse("X"), "high")) == "5H 6H 7H X"
    assert names(m.with_card(Card.parse("X"))) == "5H 6H 7H X"  # high when omitted (F2)
    low = m.with_card(Card.parse("X"), "low")
    assert str(low.stands_for(0)) == "4H"
    for bad in ("9H", "5D", "6H"):
        with pytest.raises(PikDameError):
            m.with_card(Card.parse(bad))


def test_f2_natural_fitting_both_ends_of_12_card_run_goes_high() -> None:
    """F2: a natural that fits both ends of a 12-card run goes to the high end."""
    m = build("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    done = m.with_card(Card.parse("AH"))
    assert names(done) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


def test_lay_on_set_anywhere_up_to_eight() -> None:
    m = build("7S 7H 7D")
    assert names(m.with_card(Card.parse("7C"))) == "7S 7H 7D 7C"
    assert names(m.with_card(Card.parse("X"), "low")) == "7S 7H 7D X"  # low ignored on a set
    with pytest.raises(PikDameError):
        m.with_card(Card.parse("8S"))
    full = build("7S 7S 7H 7H 7D 7D 7C 7C")
    with pytest.raises(PikDameError):
        full.with_card(Card.parse("X"))


# -- R6 swaps -------------------------------------------------------------------------------------


def test_r6_run_swap_only_the_exact_card() -> None:
    m = build("5H X 7H")
    assert names(m.with_swap(Card.parse("6H"))) == "5H 6H 7H"
    for bad in ("6D", "5H", "8H", "4H"):
        with pytest.raises(PikDameError) as info:
            m.with_swap(Card.parse(bad))
        assert info.value.code == "invalid_meld"


def test_r6_run_swap_wrapping_joker() -> None:
    m = build("X AH 2H")
    assert names(m.with_swap(Card.parse("KH"))) == "KH AH 2H"
    with pytest.raises(PikDameError):
        m.with_swap(Card.parse("3H"))


def test_r6_set_swap_any_suit_keeping_two() -> None:
    m = build("7S 7S 7H X")
    assert names(m.with_swap(Card.parse("7D"))) == "7S 7S 7H 7D"
    assert names(m.with_swap(Card.parse("7H"))) == "7S 7S 7H 7H"
    with pytest.raises(PikDameError):
        m.with_swap(Card.parse("7S"))  # a third spade (R5.1)
    with pytest.raises(PikDameError):
        m.with_swap(Card.parse("8D"))


def test_r6_swap_without_joker_is_invalid() -> None:
    with pytest.raises(PikDameError):
        build("5H 6H 7H").with_swap(Card.parse("6H"))


# -- R5.5 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["QS QS QH", "JS QS KS", "X 8H 9H", "AS AH AD", "7C 8C 9C"])
def test_r5_5_meld_points_sum_of_cards(text: str) -> None:
    assert build(text).points == sum(points(c) for c in text.split())


def test_r5_5_joker_scores_20_whatever_it_stands_for() -> None:
    """R1: a joker always scores 20, even standing for Q♠ or a 2."""
    assert build("JS X KS").points == 10 + 20 + 10
    assert build("2H X 4H").points == 5 + 20 + 5


def test_meld_json_round_trip() -> None:
    for text in ("KH AH 2H", "7S 7H X", "X 8H 9H", "5C 6C 7C 8C 9C TC JC QC KC AC 2C 3C 4C"):
        m = build(text)
        assert Meld.from_json(m.to_json()) == m


# -- the take's quick check (R4.1 with R5.1–R5.3) -------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(
    hand=st.lists(st.integers(0, 52), min_size=1, max_size=14),
    top=st.integers(0, 52),
    crowded=st.booleans(),
)
def test_r5_could_meld_is_necessary_for_every_meld_with_the_card(
    hand: list[int], top: int, crowded: bool
) -> None:
    """``could_meld`` says no only where no meld of any size holds the card (runs wrap K-A-2,
    R5.2; sets at most two a suit, R5.1; jokers stand in, R5.3): a take's search skips those."""
    counts = [0] * 53
    for c in hand:
        counts[c] = min(counts[c] + 1, 6 if c == 52 else 2)
    if crowded:  # neighbours on the ring and other suits of the rank: the borderline cases
        counts[(top // 13) * 13 + (top % 13 + 12) % 13 if top < 52 else 0] += 1
    counts[top] += 1
    if not could_meld(counts, CARDS[top]):
        assert list(iter_melds(counts, required=CARDS[top])) == []


@pytest.mark.parametrize(
    ("hand", "top", "could"),
    [
        ("5S 6S", "7S", True),  # a run below
        ("6S 8S", "7S", True),  # around
        ("AS 2S", "KS", True),  # the ring wraps K-A-2 (R5.2)
        ("QS KS", "AS", True),
        ("9S X", "7S", True),  # a joker fills the gap (R5.3)
        ("9S", "7S", False),
        ("7H 7D", "7S", True),  # a set (R5.1)
        ("7S 7S", "7S", False),  # two a suit at most: no third
        ("7S X", "7S", True),
        ("7H 9D 5C", "7S", False),
        ("X X", "2C", True),
        ("4S", "X", True),  # a joker on the pile: the search decides
    ],
)
def test_r5_could_meld_examples(hand: str, top: str, could: bool) -> None:
    counts = [0] * 53
    for t in [*hand.split(), top]:
        counts[Card.parse(t)] += 1
    assert could_meld(counts, Card.parse(top)) is could
    assert could or not list(iter_melds(counts, required=Card.parse(top)))
