"""Fuzzing (hypothesis): notation parsers, the position reader and replay on garbage and on
mutated valid inputs raise nothing but the engine's own errors (``PikDameError`` subclasses)."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import (
    Card,
    FormatError,
    Game,
    Meld,
    Move,
    NotationError,
    PikDameError,
    ReplayError,
    Rules,
    Seat,
    State,
    replay,
)
from engine.core.cards import card_list
from engine.pikdame.errors import CODES
from tests.support.pikdame import choose

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TOKENS = [
    "draw", "take", "meld", "lay", "swap", "discard", "resign", "set", "run", "low", "high",
    "QS", "q♠", "10h", "TH", "X", "x", "7H", "8H", "9H", "AS", "0", "1", "2", "13", "-1", "01",
    "", " ", "\t", "\n", "ſ", "١", "²", "Ｑ", "9" * 30,
]  # fmt: skip

near_moves = st.lists(st.sampled_from(TOKENS), max_size=7).map(" ".join)
any_text = st.text(max_size=40)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["QS", "X", "7H", "run", "set", "draw", "play", "out", "stock"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=15,
)


# -- notation -------------------------------------------------------------------------------------


@FUZZ
@given(text=any_text | near_moves)
def test_fuzz_move_parse_only_syntax_errors(text: str) -> None:
    try:
        move = Move.parse(text)
    except NotationError as e:
        assert e.code == "syntax"
        return
    assert Move.parse(str(move)) == move  # F2: the canonical text reads back to the same move
    assert str(Move.parse(str(move))) == str(move)


@FUZZ
@given(text=any_text | st.sampled_from(TOKENS))
def test_fuzz_card_parse_only_syntax_errors(text: str) -> None:
    try:
        c = Card.parse(text)
    except NotationError as e:
        assert e.code == "syntax"
        return
    assert Card.parse(str(c)) == c


@FUZZ
@given(tokens=st.lists(st.sampled_from(TOKENS) | any_text | json_values, max_size=12))
def test_fuzz_card_list_is_card_parse_of_each(tokens: list[Any]) -> None:
    """card_list (a stored position's 110 cards at once) reads exactly what Card.parse reads,
    each token in turn, and refuses what it refuses with the same error."""
    try:
        expected = [Card.parse(t) for t in tokens]
    except NotationError as e:
        with pytest.raises(NotationError) as info:
            card_list(tokens)
        assert (info.value.code, info.value.message) == (e.code, e.message)
        return
    assert card_list(tokens) == expected


@FUZZ
@given(value=json_values)
def test_fuzz_parsers_on_non_strings(value: Any) -> None:
    for parse in (Card.parse, Move.parse, Meld.from_json):
        try:
            parse(value)
        except PikDameError as e:
            assert e.code in ("syntax", "invalid_meld")
        else:
            assert isinstance(value, (str, dict))  # only text or a meld object can parse


def test_f2_huge_meld_number_is_an_engine_error() -> None:
    """Found by fuzzing: a meld number beyond Python's int-string limit raised ValueError."""
    with pytest.raises(PikDameError) as info:
        Move.parse("lay 7H " + "9" * 5000)
    assert info.value.code == "syntax"
    s = State.from_position(
        {
            "format": "pikdame-position/1",
            "rules": {"players": 2, "hand_out_double": False, "strict_1000": False},
            "round": 1,
            "dealer": 1,
            "turn": 0,
            "phase": "play",
            "opened_at_turn_start": False,
            "hands": [["7H", "2C"], ["3C"]],
            "melds": [[], []],
            "stock": [],
            "discard": [],
            "removed": [],
            "totals": [0, 0],
        }
    )
    with pytest.raises(PikDameError) as info:
        s.push("lay 7H 12345678901234567890")
    assert info.value.code == "syntax"


# -- positions (F5) -------------------------------------------------------------------------------


def valid_positions() -> list[dict[str, Any]]:
    out = []
    for n in range(3):
        rng = random.Random(n)
        s = State.new_round(hashlib.sha256(bytes([n])).digest(), Rules(players=2 + n), n, None)
        for _ in range(40 + 40 * n):
            if s.outcome is not None:
                break
            s.push(choose(s, rng))
        out.append(s.to_position())
    return out


POSITIONS = valid_positions()


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            found.extend(paths(v, (*prefix, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            found.extend(paths(v, (*prefix, i)))
    return found


def mutate(doc: Any, path: tuple[Any, ...], value: Any, how: int) -> Any:
    if not path:
        return value
    doc = copy.deepcopy(doc)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == 0:
        parent[last] = value
    elif how == 1:
        del parent[last]
    elif isinstance(parent, list):
        parent.insert(last, value)
    else:
        parent[f"{last}_"] = value
    return doc


@FUZZ
@given(value=json_values)
def test_fuzz_position_reader_random_json(value: Any) -> None:
    try:
        State.from_position(value)
    except FormatError as e:
        assert e.code == "bad_format"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(POSITIONS) - 1),
    pick=st.integers(0, 10**6),
    value=json_values,
    how=st.integers(0, 2),
)
def test_fuzz_position_reader_mutated_positions(
    which: int, pick: int, value: Any, how: int
) -> None:
    base = POSITIONS[which]
    all_paths = paths(base)
    bad = mutate(base, all_paths[pick % len(all_paths)], value, how)
    try:
        s = State.from_position(bad)
    except FormatError as e:
        assert e.code == "bad_format"
        event("mutated position rejected")
        return
    event("mutated position accepted")
    out = s.to_position()
    assert State.from_position(copy.deepcopy(out)).to_position() == out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(POSITIONS) - 1),
    pick=st.integers(0, 10**6),
    name=st.sampled_from(["QS", "X", "7H", "2C", "KD", "AS", "TH", "5S"]),
)
def test_fuzz_position_card_swaps(which: int, pick: int, name: str) -> None:
    """A card replaced by another: accepted only if no card appears more often than it exists."""
    base = POSITIONS[which]
    card_paths = [p for p in paths(base) if p and isinstance(p[-1], int) and p[0] != "totals"]
    card_paths = [p for p in card_paths if isinstance(_get(base, p), str)]
    path = card_paths[pick % len(card_paths)]
    bad = mutate(base, path, name, 0)
    try:
        State.from_position(bad)
    except FormatError as e:
        assert e.code == "bad_format"


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


# -- records (F6) ---------------------------------------------------------------------------------


def a_record() -> dict[str, Any]:
    rng = random.Random(5)
    seed = hashlib.sha256(b"fuzz record").digest()
    seats = (Seat("human", name="a"), Seat("bot", level="zen"), Seat("human", name="b"))
    game = Game.start(seed, Rules(players=3), seats, 1, None)
    while not game.finished:
        seat = game.state.turn
        game.play(choose(game.state, rng), seat)
    record: dict[str, Any] = json.loads(json.dumps(game.to_record(seed)))
    return record


RECORD = a_record()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pick=st.integers(0, 10**6), value=json_values | near_moves, how=st.integers(0, 2))
def test_fuzz_replay_mutated_records(pick: int, value: Any, how: int) -> None:
    all_paths = paths(RECORD)
    bad = mutate(RECORD, all_paths[pick % len(all_paths)], value, how)
    try:
        replay(bad)
        event("mutated record replays")
    except ReplayError as e:
        event(f"mutated record: {e.code}")
        assert e.code in CODES  # F7's stable codes, pinned by test_errors_f7
        assert e.move_index is None or 0 <= e.move_index < len(bad["moves"])


def test_fuzz_record_itself_replays() -> None:
    assert replay(copy.deepcopy(RECORD)).finished
