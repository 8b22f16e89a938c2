"""F5 position documents: round trips, canonical output, and rejection of bad documents with
``FormatError`` (code ``bad_format``) only."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from engine import FormatError, Rules, State
from tests.support.pikdame import all_cards, doc, full_deck, reject

SPEC_EXAMPLE: dict[str, Any] = {
    "format": "pikdame-position/1",
    "rules": {"players": 4, "hand_out_double": True, "strict_1000": False},
    "round": 1,
    "dealer": 3,
    "turn": 0,
    "phase": "draw",
    "opened_at_turn_start": False,
    "hands": [["7H", "8H", "QS"], ["X", "2C", "2D"], [], []],
    "melds": [[{"kind": "run", "cards": ["QH", "KH", "AH"]}], [], [], []],
    "stock": ["5D", "9C"],
    "discard": ["3C", "KD"],
    "removed": [],
    "totals": [0, 0, 0, 0],
}


def roundtrip(position: dict[str, Any]) -> dict[str, Any]:
    out = State.from_position(json.loads(json.dumps(position))).to_position()
    again = State.from_position(copy.deepcopy(out)).to_position()
    assert again == out, "read → write → read → write must be stable"
    return out


def test_f5_spec_example_reads_and_writes_canonically() -> None:
    out = roundtrip(SPEC_EXAMPLE)
    assert out["hands"] == [["QS", "7H", "8H"], ["2D", "2C", "X"], [], []]
    assert out["melds"] == SPEC_EXAMPLE["melds"]
    assert out["stock"] == ["5D", "9C"]
    assert out["discard"] == ["3C", "KD"]
    assert "outcome" not in out
    s = State.from_position(SPEC_EXAMPLE)
    s.push("draw")
    assert "5D" in [str(c) for c in s.hand(0)]  # stock top first


def test_f5_deal_positions_round_trip_exactly() -> None:
    for players in (2, 3, 4):
        s = State.new_round(bytes([players] * 32), Rules(players=players), 0, None)
        out = s.to_position()
        assert roundtrip(out) == out
        assert all_cards(out) == full_deck()


def test_f5_input_any_order_and_spelling_output_canonical() -> None:
    position = doc(
        ["x 10h q♠ 2c as", "kd th"],
        melds=[["set X 7c 7S 7h", "run 9d 8D TD", "run X AH 2H"], []],
        stock="5c 9♣",
        discard="3C kd",
        removed="x",
    )
    out = roundtrip(position)
    assert out["hands"] == [["AS", "QS", "TH", "2C", "X"], ["TH", "KD"]]
    assert out["melds"][0] == [
        {"kind": "set", "cards": ["7S", "7H", "7C", "X"]},
        {"kind": "run", "cards": ["8D", "9D", "TD"]},
        {"kind": "run", "cards": ["X", "AH", "2H"]},
    ]
    assert out["stock"] == ["5C", "9C"]  # order kept: top first
    assert out["discard"] == ["3C", "KD"]  # order kept: top last
    assert out["removed"] == ["X"]


def test_f5_melds_keep_their_number_order() -> None:
    position = doc(["2C 3C", "4C"], melds=[["run 9D TD JD", "set 4S 4H 4D", "run AS 2S 3S"], []])
    out = roundtrip(position)
    assert [m["cards"][0] for m in out["melds"][0]] == ["9D", "4S", "AS"]


def test_f5_thirteen_card_run_keeps_its_written_ring_order() -> None:
    run = "run 5C 6C 7C 8C 9C TC JC QC KC AC 2C 3C 4C"
    out = roundtrip(doc(["2D 3D", "4C"], melds=[[run], []]))
    assert out["melds"][0][0]["cards"] == run.split()[1:]


def test_f5_finished_position_round_trips_and_is_over() -> None:
    s = State.from_position(doc(["4C", "2D 3D"], melds=[["run 5H 6H 7H"], []], stock="5C"))
    s.push("discard 4C")
    out = s.to_position()
    assert out["outcome"] == {
        "end": "out",
        "winner": 0,
        "round_scores": [15, -10],
        "doubled": False,
    }
    assert out["totals"] == [15, -10]
    assert roundtrip(out) == out
    back = State.from_position(out)
    reject(back, "draw", "round_over")
    assert back.totals == [15, -10]  # not scored twice


def test_f5_empty_stock_without_take_yields_end_stock() -> None:
    position = doc(["7H 2C", "2D 3D"], phase="draw", stock="", discard="9S", totals=[5, 5])
    out = State.from_position(position).to_position()
    assert out["outcome"] == {
        "end": "stock",
        "winner": None,
        "round_scores": [-10, -10],
        "doubled": False,
    }
    assert out["totals"] == [-5, -5]
    assert roundtrip(out) == out


def test_f5_empty_stock_with_take_is_not_over() -> None:
    position = doc(["7H 8H 2C", "2D 3D"], phase="draw", stock="", discard="9H")
    out = State.from_position(position).to_position()
    assert "outcome" not in out


def test_f5_play_phase_empty_stock_is_not_over() -> None:
    """R4.4 applies to the seat that must draw; in the play phase the turn runs on."""
    out = State.from_position(doc(["7H 2C", "2D 3D"], stock="")).to_position()
    assert "outcome" not in out


def test_f5_partial_positions_allowed() -> None:
    """F5: a position need not hold all 110 cards."""
    out = roundtrip(doc(["QS", "X"], stock="", discard=""))
    assert sum(all_cards(out).values()) == 2


# -- bad documents --------------------------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], Any]


def _set(path: list[Any], value: Any) -> Mutation:
    def mutate(d: dict[str, Any]) -> dict[str, Any]:
        target: Any = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return d

    return mutate


def _del(key: str) -> Mutation:
    def mutate(d: dict[str, Any]) -> dict[str, Any]:
        del d[key]
        return d

    return mutate


BAD: dict[str, Mutation] = {
    "not an object": lambda d: [d],
    "null": lambda d: None,
    "missing hands": _del("hands"),
    "missing removed": _del("removed"),
    "unknown key": _set(["extra"], 1),
    "wrong format": _set(["format"], "pikdame-position/2"),
    "format not a string": _set(["format"], ["pikdame-position/1"]),
    "rules not an object": _set(["rules"], 4),
    "players 5": _set(["rules", "players"], 5),
    "players 1": _set(["rules", "players"], 1),
    "players string": _set(["rules", "players"], "4"),
    "players bool": _set(["rules", "players"], True),
    "unknown rule": _set(["rules", "jokers"], 6),
    "hand_out_double not bool": _set(["rules", "hand_out_double"], "yes"),
    "strict_1000 int": _set(["rules", "strict_1000"], 1),
    "round 0": _set(["round"], 0),
    "round string": _set(["round"], "1"),
    "round float": _set(["round"], 1.0),
    "dealer out of range": _set(["dealer"], 4),
    "dealer negative": _set(["dealer"], -1),
    "turn out of range": _set(["turn"], 4),
    "turn bool": _set(["turn"], False),
    "phase unknown": _set(["phase"], "discard"),
    "phase list": _set(["phase"], ["draw"]),
    "opened not bool": _set(["opened_at_turn_start"], 0),
    "hands too few": _set(["hands"], [["7H"], [], []]),
    "hands not a list": _set(["hands"], "7H 8H"),
    "a hand not a list": _set(["hands", 1], "X"),
    "bad card": _set(["hands", 0, 0], "1H"),
    "card not a string": _set(["hands", 0, 0], 7),
    "card null": _set(["stock", 0], None),
    "third queen of spades": _set(["stock"], ["QS", "QS"]),
    "seventh joker": _set(["discard"], ["X"] * 6 + ["3C", "KD"]),
    "invalid run": _set(["melds", 0, 0, "cards"], ["QH", "KH", "2H"]),
    "invalid set": _set(["melds", 1], [{"kind": "set", "cards": ["4S", "4H"]}]),
    "meld kind unknown": _set(["melds", 0, 0, "kind"], "seq"),
    "meld prefix contradicts": _set(["melds", 0, 0, "kind"], "set"),
    "meld extra key": _set(["melds", 0, 0, "owner"], 0),
    "meld not an object": _set(["melds", 0, 0], ["QH", "KH", "AH"]),
    "meld cards not a list": _set(["melds", 0, 0, "cards"], "QH KH AH"),
    "melds of a seat not a list": _set(["melds", 1], {"kind": "run"}),
    "all-joker meld": _set(["melds", 1], [{"kind": "set", "cards": ["X", "X", "X"]}]),
    "two sets of one rank": _set(
        ["melds", 1],
        [{"kind": "set", "cards": ["4S", "4H", "4D"]}, {"kind": "set", "cards": ["4C", "4C", "X"]}],
    ),
    "joker run out of ring order": _set(
        ["melds", 1], [{"kind": "run", "cards": ["9S", "X", "7S"]}]
    ),
    "stock not a list": _set(["stock"], "5D"),
    "discard not a list": _set(["discard"], None),
    "removed not a list": _set(["removed"], {}),
    "totals too short": _set(["totals"], [0, 0, 0]),
    "totals not ints": _set(["totals"], [0, 0, 0, 0.5]),
    "totals bool": _set(["totals"], [0, 0, 0, True]),
    "outcome not an object": _set(["outcome"], "out"),
    "outcome bad end": _set(
        ["outcome"], {"end": "won", "winner": 0, "round_scores": [0] * 4, "doubled": False}
    ),
    "outcome winner on stock": _set(
        ["outcome"], {"end": "stock", "winner": 0, "round_scores": [0] * 4, "doubled": False}
    ),
    "outcome no winner on out": _set(
        ["outcome"], {"end": "out", "winner": None, "round_scores": [0] * 4, "doubled": False}
    ),
    "outcome scores short": _set(
        ["outcome"], {"end": "stock", "winner": None, "round_scores": [0], "doubled": False}
    ),
    "outcome missing doubled": _set(
        ["outcome"], {"end": "stock", "winner": None, "round_scores": [0] * 4}
    ),
    "seat to move without cards": _set(["hands", 0], []),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_f5_bad_documents_are_bad_format(name: str) -> None:
    bad = BAD[name](copy.deepcopy(SPEC_EXAMPLE))
    with pytest.raises(FormatError) as info:
        State.from_position(bad)
    assert type(info.value) is FormatError
    assert info.value.code == "bad_format"
    assert info.value.message.startswith("position:")


def test_f5_every_bad_document_mutation_really_changes_the_example() -> None:
    """Guard for the table above: the untouched example is accepted."""
    State.from_position(copy.deepcopy(SPEC_EXAMPLE))
    for mutate in BAD.values():
        changed = mutate(copy.deepcopy(SPEC_EXAMPLE))
        assert json.dumps(changed, sort_keys=True) != json.dumps(SPEC_EXAMPLE, sort_keys=True)


def test_f5_reading_does_not_modify_the_document() -> None:
    d = copy.deepcopy(SPEC_EXAMPLE)
    State.from_position(d)
    assert d == SPEC_EXAMPLE


def test_f5_reading_opened_flag_is_taken_from_the_document() -> None:
    """Reading (F5): FORMATS.md's own example has seat 0 to draw with a meld on the table and
    `opened_at_turn_start: false`; the reader keeps the document's flag (it never re-derives it),
    so the example stays readable and round-trips; R7.3 then follows the document."""
    s = State.from_position(copy.deepcopy(SPEC_EXAMPLE))
    assert s.melds[0] and s.phase == "draw"
    assert s.opened_at_turn_start is False
    assert s.to_position()["opened_at_turn_start"] is False
