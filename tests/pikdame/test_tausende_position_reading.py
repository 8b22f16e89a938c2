"""Reading a Tausende position (F5 with R12's fields) takes its own copy of every list: moves
pushed afterwards never change the document it was read from (a page or a test that reads one
document twice, as the lessons of service/pages/learn.py do, gets the same state twice)."""

from __future__ import annotations

import copy

from engine import State

POSITION = {
    "format": "pikdame-position/1",
    "rules": {
        "players": 2,
        "hand_out_double": False,
        "strict_1000": False,
        "ruleset": "tausende",
        "ace_high_only": False,
        "no_joker_swap": False,
        "go_out_on_opening": False,
    },
    "round": 1,
    "dealer": 1,
    "turn": 0,
    "phase": "draw",
    "opened_at_turn_start": False,
    "hands": [["9H", "TH", "JH", "5S", "5D", "QS", "9C", "4D", "7D"], ["2S", "KH", "KD", "8H"]],
    "melds": [[], [{"kind": "run", "cards": ["6C", "7C", "8C"]}]],
    "stock": ["5C", "3S", "4S"],
    "discard": ["JS"],
    "removed": [],
    "totals": [0, 0],
    "opened": [False, True],
    "laid": [0, 15],
    "swaps": None,
    "turn_points": 0,
}


def test_moves_after_reading_leave_the_document_as_it_was_r12_3_r12_5() -> None:
    doc = copy.deepcopy(POSITION)
    state = State.from_position(doc)
    for move in ("draw", "meld 9H TH JH", "meld 5S 5D 5C", "lay 9C 1.1"):
        state.push(move)
    assert state.to_position()["opened"] == [True, True]  # R12.3: opened with 40
    assert state.to_position()["laid"] == [45, 15]  # R12.5: the lay-off counts for seat 0
    assert doc == POSITION
    assert State.from_position(doc).to_position()["laid"] == [0, 15]
