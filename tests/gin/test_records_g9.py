"""G9 records ``gin-log/1``: written, stored, replayed from the seed; forged records rejected with
the reason (``bot_mismatch``, ``score_mismatch``, an illegal move's code, ``bad_format``)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import ReplayError
from engine.gin.match import GinMatch
from engine.gin.record import ENGINE_VERSION, LOG_FORMAT
from engine.gin.replay import replay
from engine.gin.state import CODES
from tests.support.gin_matches import bot_match, human_match, seed


def record_of(match: GinMatch) -> dict[str, Any]:
    return match.to_record(reveal_seed=True)


def expect(record: Any, code: str, move_index: int | None = None) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        replay(record)
    assert info.value.code == code, info.value.message
    if move_index is not None:
        assert info.value.move_index == move_index
    return info.value


def test_g9_record_shape() -> None:
    match = human_match(1)
    record = match.to_record()
    assert record["format"] == LOG_FORMAT and record["engine"] == ENGINE_VERSION
    assert record["seeds"] == {"commitment": match.commitment, "seed": None}
    assert record["seats"] == [{"kind": "human", "name": "Ada"}, {"kind": "bot", "level": "strong"}]
    assert all(set(m) == {"seat", "move"} for m in record["moves"])
    assert record["totals"] == match.totals
    assert record["result"] == match.result_json()
    assert [h["hand"] for h in record["hands"]] == list(range(1, len(record["hands"]) + 1))
    json.dumps(record)  # plain JSON


@pytest.mark.parametrize("k", range(4))
def test_g9_replay_gives_the_same_match(k: int) -> None:
    for match in (bot_match(k), human_match(k)):
        again = replay(record_of(match))
        assert again.totals == match.totals and again.winner == match.winner
        assert again.to_record() == match.to_record()


def test_g9_replay_of_an_unfinished_match() -> None:
    match = human_match(7, stop_after=20)
    assert not match.finished
    again = replay(record_of(match))
    assert again.state.to_position() == match.state.to_position()


def test_g9_replay_with_a_secret_seed_given_separately() -> None:
    match = bot_match(2)
    record = match.to_record()
    expect(record, "bad_format")
    assert replay(record, seed(2)).totals == match.totals


def test_g9_forged_bot_move_is_bot_mismatch() -> None:
    record = record_of(human_match(3))
    index = next(i for i, m in enumerate(record["moves"]) if m["seat"] == 1 and m["move"] == "draw")
    forged = copy.deepcopy(record)
    forged["moves"][index]["move"] = "take"
    error = expect(forged, "bot_mismatch", index)
    assert f"move {index}" in error.message


def test_g9_forged_totals_or_hand_scores_are_score_mismatch() -> None:
    record = record_of(human_match(4))
    forged = copy.deepcopy(record)
    forged["totals"][0] += 10
    expect(forged, "score_mismatch")
    forged = copy.deepcopy(record)
    forged["hands"][0]["scores"] = [
        forged["hands"][0]["scores"][1],
        forged["hands"][0]["scores"][0],
    ]
    expect(forged, "score_mismatch")
    forged = copy.deepcopy(record)
    forged["result"] = {
        "end": "score",
        "winner": 1 - record["result"]["winner"],
        "totals": record["totals"],
    }
    expect(forged, "score_mismatch")


def test_g9_illegal_human_move_is_its_code_with_the_index() -> None:
    record = record_of(human_match(5))
    forged = copy.deepcopy(record)
    forged["moves"][0]["move"] = "draw"  # the first upcard: take or pass only (G4)
    expect(forged, "wrong_phase", 0)
    forged["moves"][0]["move"] = "drow"
    expect(forged, "syntax", 0)


def test_g9_moves_after_the_end_are_round_over() -> None:
    record = record_of(human_match(6))
    forged = copy.deepcopy(record)
    forged["moves"].append({"seat": 0, "move": "pass"})
    expect(forged, "round_over", len(record["moves"]))


def test_g9_a_bot_moving_out_of_turn_is_rejected() -> None:
    record = record_of(human_match(8))
    forged = copy.deepcopy(record)
    forged["moves"].insert(0, {"seat": 1, "move": "pass"})
    expect(forged, "not_your_turn", 0)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: r.update(format="pikdame-log/1"),
        lambda r: r.pop("hands"),
        lambda r: r.update(seats=[{"kind": "bot", "level": "zen"}, r["seats"][1]]),
        lambda r: r["seeds"].update(commitment="00" * 32),
        lambda r: r["seeds"].update(seed="xyz"),
        lambda r: r.update(moves=[{"seat": 2, "move": "pass"}]),
        lambda r: r.update(moves="pass"),
        lambda r: r.update(extra=1),
    ],
)
def test_g9_malformed_records_are_bad_format(mutate: Any) -> None:
    record = record_of(human_match(9, stop_after=5))
    mutate(record)
    expect(record, "bad_format")


def test_storage_round_trip_mid_match() -> None:
    match = human_match(10, stop_after=12)
    stored = json.loads(json.dumps(match.to_json()))
    again = GinMatch.from_json(stored)
    assert again.to_json() == match.to_json()
    # both continue identically
    from engine.gin.bots import choose_move

    while not match.finished:
        move = choose_move("plain", match.view(0))
        assert match.play(move, 0) == again.play(move, 0)
    assert again.to_record() == match.to_record()


FUZZ_RECORD = record_of(human_match("fuzz", stop_after=8))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 3) | st.sampled_from(["pass", "draw", "take"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=2)
    ),
    max_leaves=6,
)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(FUZZ_RECORD)), JSON, st.integers(0, 40))
def test_g9_fuzz_record_reader(key: str, value: Any, index: int) -> None:
    """A mangled record either replays or fails with a G9 code — never another exception."""
    forged = copy.deepcopy(FUZZ_RECORD)
    if key == "moves" and forged["moves"]:
        forged["moves"][index % len(forged["moves"])] = value
    else:
        forged[key] = value
    try:
        replay(forged)
    except ReplayError as e:
        assert e.code in CODES
