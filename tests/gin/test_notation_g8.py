"""G8 notation: every move kind, case and whitespace, canonical output, and ``syntax`` for
anything malformed (with a fuzzer over move-like text)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import NotationError
from engine.gin.moves import Move, parse_move


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("pass", "pass"),
        ("TAKE", "take"),
        ("  Draw ", "draw"),
        ("discard 10h", "discard TH"),
        ("discard\tq♠", "discard QS"),
        ("knock 9c 7s 5s 6s|8c 8h 8d", "knock 9C 5S 6S 7S | 8H 8D 8C"),
        ("knock 9C", "knock 9C"),
        ("defend", "defend"),
        ("defend /", "defend"),
        ("defend / 8s@1 9S@1", "defend / 8S@1 9S@1"),
        ("defend 4c 2c 3c | 5h 5s 5d/8s@02", "defend 2C 3C 4C | 5S 5H 5D / 8S@2"),
        ("resign", "resign"),
    ],
)
def test_g8_parse_and_canonical_text(text: str, canonical: str) -> None:
    move = parse_move(text)
    assert str(move) == canonical
    assert parse_move(canonical) == move


def test_g8_groups_keep_their_declared_order() -> None:
    """G8: meld N is the N-th declared group, so the order of groups is part of the move."""
    move = parse_move("knock 9C 8H 8D 8C | 5S 6S 7S")
    assert str(move) == "knock 9C 8H 8D 8C | 5S 6S 7S"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "passs",
        "pass now",
        "take 5S",
        "draw 1",
        "discard",
        "discard 5S 6S",
        "discard X",
        "knock",
        "knock |",
        "knock 9C 5S 6S 7S || 8H 8D 8C",
        "knock 9C | 5S 6S 7S",
        "knock 9C 5S 6S 7S / 8S@1",
        "defend 5S 6S 7S | ",
        "defend / 8S@0",
        "defend / 8S@+1",
        "defend / 8S@1x",
        "defend / 8S@0000000000",
        "defend / 8S@١",
        "defend / @1",
        "defend / 8S",
        "defend / 8S@1 | 9S@1",
        "defend 8S@1",
        "defend a / b / c",
        "resign now",
        "nimm",
    ],
)
def test_g8_malformed_is_syntax(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_move(text)
    assert info.value.code == "syntax"


TOKENS = [
    "pass",
    "take",
    "draw",
    "discard",
    "knock",
    "defend",
    "resign",
    "|",
    "/",
    "@",
    "@1",
    "5S",
    "10h",
    "q♠",
    "X",
    "AZ",
    "8S@1",
    "9S@2",
    "8S@0",
    " ",
    "\t",
    "Kd",
    "0",
    "1",
]


TEXTS = st.lists(st.sampled_from(TOKENS), max_size=9).map(" ".join) | st.text(max_size=40)


@settings(max_examples=800, deadline=None)
@given(TEXTS)
def test_g8_fuzz(text: str) -> None:
    """Token soup or any text: either ``syntax`` or a move whose canonical text reads back."""
    try:
        move = parse_move(text)
    except NotationError as e:
        assert e.code == "syntax"
        return
    assert isinstance(move, Move)
    assert parse_move(str(move)) == move
