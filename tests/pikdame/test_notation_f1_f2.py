"""R1 card points, F1 card notation and F2 move notation (parse, str, canonical forms)."""

from __future__ import annotations

import pytest

from engine import CARDS, JOKER, QUEEN_OF_SPADES, Card, Move, NotationError
from engine.pikdame.cards import COPIES, POINTS, TOTAL_CARDS
from tests.support.pikdame import points, reject, state

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


# -- R1 -------------------------------------------------------------------------------------------


def test_r1_points_of_every_card() -> None:
    """R1: 2–9 = 5; 10, J, Q, K = 10; A = 20; joker = 20; Q♠ = 100."""
    for rank in RANKS:
        for suit in SUITS:
            name = rank + suit
            assert POINTS[Card.parse(name)] == points(name), name
    assert POINTS[Card.parse("QS")] == 100
    assert POINTS[Card.parse("QH")] == 10
    assert POINTS[Card.parse("AD")] == 20
    assert POINTS[Card.parse("7C")] == 5
    assert POINTS[Card.parse("TC")] == 10
    assert POINTS[JOKER] == 20


def test_r1_110_cards_two_decks_six_jokers() -> None:
    """R1: 110 cards: two of each of the 52 naturals and 6 jokers."""
    assert TOTAL_CARDS == 110
    assert sum(COPIES) == 110
    assert len(CARDS) == 53
    assert [COPIES[c] for c in CARDS if not c.is_joker] == [2] * 52
    assert COPIES[JOKER] == 6


def test_r1_physical_ids_f3() -> None:
    """F3: id → deck, suit (S H D C), rank (A … K); Q♠ is 11 and 63; 104 … 109 are jokers."""
    assert str(Card.from_id(11)) == "QS"
    assert str(Card.from_id(63)) == "QS"
    assert str(Card.from_id(0)) == "AS"
    assert str(Card.from_id(13)) == "AH"
    assert str(Card.from_id(26 + 9)) == "TD"
    assert str(Card.from_id(51)) == "KC"
    assert str(Card.from_id(103)) == "KC"
    assert all(Card.from_id(i).is_joker for i in range(104, 110))
    for i in range(104):
        c = Card.from_id(i)
        assert str(c) == RANKS[i % 13] + SUITS[(i % 52) // 13]


# -- F1 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QS", "QS"),
        ("qs", "QS"),
        ("Qs", "QS"),
        ("10H", "TH"),
        ("10h", "TH"),
        ("TH", "TH"),
        ("th", "TH"),
        ("Q♠", "QS"),
        ("q♠", "QS"),
        ("10♥", "TH"),
        ("2♦", "2D"),
        ("A♣", "AC"),
        ("X", "X"),
        ("x", "X"),
    ],
)
def test_f1_parse_accepts_spellings_and_writes_canonical(text: str, canonical: str) -> None:
    """F1: `10` and suit symbols accepted, case-insensitive; output canonical upper case."""
    assert str(Card.parse(text)) == canonical


def test_f1_every_card_round_trips() -> None:
    for c in CARDS:
        assert Card.parse(str(c)) == c
        if not c.is_joker:
            rank, suit = str(c)[0], str(c)[1]
            assert Card.parse(rank + SYMBOLS[suit]) == c
            assert Card.parse((rank + suit).lower()) == c


@pytest.mark.parametrize(
    "text",
    ["", "1H", "11H", "QQ", "Q", "S", "JOKER", "XX", "QS ", " QS", "0H", "10", "T", "ZS", "QZ"],
)
def test_f1_rejects_non_cards_with_syntax(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert info.value.code == "syntax"


def test_f1_rejects_non_strings_with_syntax() -> None:
    for value in (None, 11, ["QS"], b"QS"):
        with pytest.raises(NotationError) as info:
            Card.parse(value)  # type: ignore[arg-type]
        assert info.value.code == "syntax"


def test_f1_canonical_order_suit_then_rank_jokers_last() -> None:
    """F5 canonical order: by suit S H D C, then rank A … K, jokers last."""
    names = [str(c) for c in sorted(CARDS)]
    assert names == [r + s for s in SUITS for r in RANKS] + ["X"]
    assert Card.parse("QS") == QUEEN_OF_SPADES


# -- F2 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("draw", "draw"),
        ("DRAW", "draw"),
        ("resign", "resign"),
        ("take 7h 8h 9h", "take 7H 8H 9H"),
        ("meld 10H JH QH", "meld TH JH QH"),
        ("meld set 7H X X", "meld set 7H X X"),
        ("meld RUN 7H X X", "meld run 7H X X"),
        ("take set 7S 7H 7D", "take set 7S 7H 7D"),
        ("lay 7H 1", "lay 7H 1"),
        ("lay x 2 low", "lay X 2 low"),
        ("lay X 2 HIGH", "lay X 2 high"),
        ("lay X 2", "lay X 2"),
        ("swap 3 10♥", "swap 3 TH"),
        ("discard q♠", "discard QS"),
        ("discard X", "discard X"),
    ],
)
def test_f2_parse_and_canonical_str(text: str, canonical: str) -> None:
    """F2: every move kind parses; `str` writes canonical F1 cards; parse(str(m)) == m."""
    move = Move.parse(text)
    assert str(move) == canonical
    assert Move.parse(str(move)) == move
    assert Move.parse(canonical) == move


def test_f2_move_fields() -> None:
    m = Move.parse("lay X 2 low")
    assert (m.kind, [str(c) for c in m.cards], m.meld, m.end) == ("lay", ["X"], 2, "low")
    m = Move.parse("swap 3 7H")
    assert (m.kind, [str(c) for c in m.cards], m.meld) == ("swap", ["7H"], 3)
    m = Move.parse("meld run 7H X X")
    assert (m.kind, m.prefix, [str(c) for c in m.cards]) == ("meld", "run", ["7H", "X", "X"])


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly",
        "draw 7H",
        "resign now",
        "take",
        "meld",
        "meld set",
        "meld 7H",  # one natural without prefix (F7 last bullet)
        "meld 7H X X",  # one natural without prefix
        "take 7H X",
        "meld 7H 8H 1H",
        "lay 7H",
        "lay 7H 0",
        "lay 7H -1",
        "lay 7H one",
        "lay 7H 1 low",  # low/high after a natural is syntax (F2)
        "lay 7H 1 high",
        "lay X 1 middle",
        "lay X 1 low extra",
        "swap 1",
        "swap 1 X",  # a joker is swapped for a natural
        "swap X 1",
        "swap 7H 1",
        "discard",
        "discard 7H 8H",
        "discard 1H",
        "lay 7H ١",  # a non-ASCII digit is not a meld number
    ],
)
def test_f2_bad_notation_is_syntax(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Move.parse(text)
    assert info.value.code == "syntax"
    assert info.value.input == text


def test_f2_non_string_move_is_syntax() -> None:
    with pytest.raises(NotationError) as info:
        Move.parse(42)  # type: ignore[arg-type]
    assert info.value.code == "syntax"


def test_f2_one_natural_needs_prefix_even_in_a_state() -> None:
    """F7: `meld 7H X X` without prefix is syntax, and changes nothing."""
    s = state(["7H X X 2C", "5D 6D"])
    reject(s, "meld 7H X X", "syntax")
    s.push("meld run 7H X X")
    assert [str(c) for c in s.melds[0][0].cards] == ["7H", "X", "X"]
    assert s.melds[0][0].kind == "run"


def test_f2_no_prefix_needed_with_two_naturals() -> None:
    assert Move.parse("meld 7H X 9H").prefix is None
    assert Move.parse("meld 7H 7S X").prefix is None


def test_f2_meld_numbers_up_to_nine_digits() -> None:
    """Reading (F2 sets no bound): a meld number of more than 9 significant digits is syntax,
    shorter ones parse (and name no meld: no_such_meld in a state)."""
    assert Move.parse("lay 7H 123456789").meld == 123456789
    assert Move.parse("lay 7H 0000000001").meld == 1
    for text in ("lay 7H 1234567890", "swap 1234567890 7H", "lay 7H 0"):
        with pytest.raises(NotationError):
            Move.parse(text)


def test_f2_reading_extra_whitespace_is_accepted_output_single_spaces() -> None:
    """Reading of F2 ("tokens separated by single spaces"): input with extra or other
    whitespace is accepted (lenient input); the canonical output always uses single spaces."""
    assert str(Move.parse("  meld  7h\t8h 9h \n")) == "meld 7H 8H 9H"
    assert str(Move.parse("lay  X  2   low")) == "lay X 2 low"
