"""The position reader (``gin-position/1``) under fuzzing: any document is either read, and then
written back identically, or rejected with ``bad_format`` — never another exception."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import FormatError
from engine.gin.bots import choose_move
from engine.gin.cards import NAMES
from engine.gin.state import HandState
from engine.gin.view import view
from tests.support.gin_matches import seed
from tests.support.gin_positions import position


def sample_positions() -> list[dict[str, Any]]:
    """Positions of every phase from one bot hand, a knock and a finished hand included."""
    docs = []
    for k in range(3):
        s = HandState.new(seed(f"fuzz/{k}"), 1, k % 2)
        while True:
            docs.append(s.to_position())
            if s.outcome is not None:
                break
            s.push(choose_move("strong", view(s, s.turn)))
    return docs


SAMPLES = sample_positions()
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(NAMES) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def read_or_bad_format(doc: Any) -> None:
    try:
        s = HandState.from_position(doc)
    except FormatError as e:
        assert e.code == "bad_format"
        return
    again = HandState.from_position(s.to_position())
    assert again.to_position() == s.to_position()


@settings(max_examples=400, deadline=None)
@given(st.integers(0, len(SAMPLES) - 1), st.sampled_from(sorted(SAMPLES[0])), JSON)
def test_fuzz_one_field_replaced(i: int, key: str, value: Any) -> None:
    doc = copy.deepcopy(SAMPLES[i])
    doc[key] = value
    read_or_bad_format(doc)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(SAMPLES) - 1), st.data())
def test_fuzz_cards_moved_between_places(i: int, data: st.DataObject) -> None:
    doc = copy.deepcopy(SAMPLES[i])
    places = [doc["hands"][0], doc["hands"][1], doc["stock"], doc["discard"]]
    src = data.draw(st.sampled_from([p for p in places if p]))
    dst = data.draw(st.sampled_from(places))
    card = src[data.draw(st.integers(0, len(src) - 1))]
    if data.draw(st.booleans()):
        src.remove(card)
    dst.append(card)
    read_or_bad_format(doc)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_fuzz_any_json(doc: Any) -> None:
    read_or_bad_format(doc)


def test_every_sample_round_trips() -> None:
    assert {d["phase"] for d in SAMPLES} >= {"upcard", "draw", "discard"}
    for doc in SAMPLES:
        assert HandState.from_position(doc).to_position() == doc


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["hands"][0].pop(),  # 9 cards in the draw phase
        lambda d: d["hands"][1].append(d["hands"][0][0]),  # a card twice
        lambda d: d.update(taken="AS"),  # taken outside the discard phase
        lambda d: d.update(must_draw=True, phase="discard"),
        lambda d: d.update(stock=d["stock"][:2]),  # G7: the hand would be over
        lambda d: d.update(takes=51),
        lambda d: d.update(knock={"seat": 0, "card": "KD", "melds": [], "deadwood": 0}),
        lambda d: d.update(format="pikdame-position/1"),
        lambda d: d.pop("took"),
        lambda d: d.update(hand=0),
    ],
)
def test_positions_against_the_rules_are_bad_format(change: Any) -> None:
    doc = position(
        "2S 3S 9S 6H 8H 4D 5D 8D 9C QC", "4S 4H 7H TH 6D 9D JD 5C TC JC", discard="KH", phase="draw"
    )
    HandState.from_position(doc)
    change(doc)
    with pytest.raises(FormatError):
        HandState.from_position(doc)
