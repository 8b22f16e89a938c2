"""G7: after a turn that ended with a discard, 2 cards or fewer in the stock end the hand drawn."""

from __future__ import annotations

import json

from engine.gin.cards import from_mask, names
from engine.gin.view import view
from tests.support.gin_positions import reject, state

H0 = "2S 3S 9S 6H 8H 4D 5D 8D 9C QC"
H1 = "4S 4H 7H TH 6D 9D JD 5C TC JC"


def test_g7_discard_leaving_two_cards_ends_the_hand_drawn() -> None:
    s = state(H0, H1, discard="KH", stock="AS AH AD", phase="draw")
    s.push("draw")
    s.push("discard QC")
    assert s.outcome is not None
    assert (s.outcome.end, s.outcome.winner, s.outcome.scores) == ("wall", None, (0, 0))
    assert len(s.stock) == 2
    reject(s, "draw", "round_over", seat=1)


def test_g7_a_take_leaves_the_stock_as_it_is() -> None:
    s = state(H0, H1, discard="KH", stock="AS AH AD", phase="draw")
    s.push("take")
    s.push("discard QC")
    assert s.outcome is None and len(s.stock) == 3


def test_g7_a_knock_at_the_wall_still_counts() -> None:
    s = state(
        "5S 6S 7S 8H 8D 8C 2C 3C 4C AH",
        H1,
        discard="KH",
        stock="KD AD 2D",
        phase="draw",
    )
    s.push("draw")
    s.push("knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C")
    s.push("defend", 1)
    assert s.outcome is not None and s.outcome.end in ("knock", "undercut")


def test_g7_a_drawn_hand_reveals_no_hidden_card() -> None:
    """docs/GIN_DECISIONS.md D15: after the wall neither hand nor the stock is shown."""
    s = state(H0, H1, discard="KH", stock="AS AH AD", phase="draw")
    s.push("draw")
    s.push("discard QC")
    for seat in (0, 1):
        doc = view(s, seat).to_json()
        assert doc["revealed"] is None and doc["hand"] == names(from_mask(s.hands[seat]))
        assert "AH" not in json.dumps(doc) and "AD" not in json.dumps(doc)
