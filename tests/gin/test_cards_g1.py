"""G1: one 52-card deck without jokers, F1 notation, points A = 1, 2–10 their value, J Q K = 10."""

from __future__ import annotations

import pytest

from engine.core.errors import NotationError
from engine.gin.cards import NAMES, POINTS, card_name, parse_card, rank, suit
from tests.support.gin_positions import RANK_POINTS


def test_g3_ids_suit_then_rank() -> None:
    """G3: id = suit * 13 + rank, suits S H D C, ranks A … K."""
    assert parse_card("AS") == 0
    assert parse_card("KS") == 12
    assert parse_card("AH") == 13
    assert parse_card("QS") == 11
    assert parse_card("KC") == 51
    assert (suit(parse_card("5D")), rank(parse_card("5D"))) == (2, 4)
    assert len(NAMES) == 52 and len(set(NAMES)) == 52


def test_g1_points_of_every_card() -> None:
    for card, name in enumerate(NAMES):
        assert POINTS[card] == RANK_POINTS[name[0]], name
    assert sum(POINTS) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 30)


@pytest.mark.parametrize(
    ("text", "name"),
    [("th", "TH"), ("10H", "TH"), ("10♥", "TH"), ("q♠", "QS"), (" ad ", "AD"), ("7♣", "7C")],
)
def test_f1_spellings_accepted(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("text", ["X", "x", "1S", "11H", "AZ", "", "S", "QSS", "joker", "0S"])
def test_g1_no_joker_and_bad_cards_are_syntax(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(text)
    assert info.value.code == "syntax"
