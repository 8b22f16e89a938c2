"""Gin's deal of the week's tournament (issue 42, docs/EVENTS.md, engine/gin/event.py): one hand
against the strong bot dealt as the daily's first (G2, G3), ending when the hand ends (G6, G7),
scored as the player's points minus the bot's; its ``gin-log/1`` record says it is one hand
(``rules``, docs/GIN_FORMATS.md) and replays (G9) as a daily record does."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import gin
from engine.core.errors import FormatError, IllegalMoveError, ReplayError
from engine.core.records import Seat
from engine.gin.event import HAND_MOST, MOST_DEADWOOD
from engine.gin.match import GinMatch
from engine.gin.record import read_record
from tests.support import engine_cli

SEEDS = st.binary(min_size=32, max_size=32)


def play_hand(match: GinMatch, data: st.DataObject, stored: bool = True) -> GinMatch:
    """Seat 0 plays any legal move but ``resign`` (hypothesis picks), the match going through
    its storage form between every two requests as the service keeps it."""
    while not match.finished:
        moves = [m for m in match.state.legal_moves() if m.kind != "resign"]
        match.play(data.draw(st.sampled_from(moves)), 0)
        if stored:
            match = GinMatch.from_json(json.loads(json.dumps(match.to_json())))
    return match


def hand_of(record: dict[str, Any]) -> dict[str, Any]:
    (hand,) = record["hands"]
    assert isinstance(hand, dict)
    return hand


@settings(max_examples=25, deadline=None)
@given(SEEDS, st.data())
def test_a_one_hand_record_replays_to_its_score_the_hands_points_difference(
    seed: bytes, data: st.DataObject
) -> None:
    match = play_hand(gin.event_match(seed, "Ada"), data)
    record = match.to_record(reveal_seed=True)
    assert record["rules"] == {"hands": 1}
    hand = hand_of(record)  # one hand, however it ended: no second is dealt (G6, G7)
    assert (hand["hand"], hand["dealer"]) == (1, 1)  # G2: seat 1 deals, as the daily's hand 1
    again = gin.replay(copy.deepcopy(record))
    assert again.finished and again.to_record(reveal_seed=True) == record
    score = gin.event_score(again)
    assert score == gin.event_score(match) == gin.ranked_score(match)
    assert score == hand["scores"][0] - hand["scores"][1]  # issue 42
    assert record["totals"] == hand["scores"] == record["result"]["totals"]
    if hand["end"] == "wall":  # G7: nobody scores
        assert score == 0 and record["result"]["winner"] is None
    else:
        assert record["result"]["winner"] == hand["winner"] == (0 if score > 0 else 1)
    # the event's hand is the daily's first hand of the same seed, move for move
    day = gin.daily_match(seed, "Ada")
    for seat, move in match.moves:
        if seat == 0:
            day.play(move, 0)
    assert day.moves[: len(match.moves)] == match.moves
    assert day.results[0].to_json() == hand


def test_a_hand_drawn_at_the_wall_scores_nothing_and_ends_the_match() -> None:
    """G7 in a one-hand match: both seats draw and throw the drawn card back until the stock
    holds two cards; the match is over, with no winner, and stores and replays so."""
    seats = (Seat("human", name="Ada"), Seat("human", name="Bo"))
    match = GinMatch.start(bytes(32), seats, one_hand=True)
    while not match.finished:
        state = match.state
        seat = state.turn
        if state.phase == "upcard":
            match.play("pass", seat)
        else:
            top = state.stock[0]
            match.play("draw", seat)
            match.play(f"discard {gin.NAMES[top]}", seat)  # G5: a drawn card may go back
    record = match.to_record(reveal_seed=True)
    assert hand_of(record)["end"] == "wall"
    assert record["result"] == {"end": "score", "winner": None, "totals": [0, 0]}
    assert gin.event_score(match) == 0 and match.to_move() is None
    stored = GinMatch.from_json(json.loads(json.dumps(match.to_json())))
    assert stored.finished and stored.winner is None and stored.to_record() == match.to_record()
    assert gin.replay(record).to_record(reveal_seed=True) == record
    with pytest.raises(IllegalMoveError) as info:
        match.play("draw", 0)
    assert info.value.code == "round_over"  # the match ended with the hand


def test_a_resignation_loses_the_most_a_hand_can_give() -> None:
    """Resigning (G8) never scores better than playing on: the bot's points count as the most a
    hand gives (a gin against the most deadwood ten cards can keep, G6)."""
    match = gin.event_match(gin.daily_seed(b"k", "2026-11-30"), "Ada")
    match.play("resign", 0)
    assert gin.event_score(match) == -HAND_MOST == -(25 + 98)
    assert gin.replay(match.to_record(reveal_seed=True)).finished
    most = [gin.parse_card(c) for c in ("KS", "KH", "QD", "QC", "JS", "JH", "TD", "TC", "9S", "9H")]
    assert gin.min_deadwood(gin.to_mask(most)) == MOST_DEADWOOD


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True))
def test_no_ten_cards_keep_more_deadwood_than_the_bound(cards: list[int]) -> None:
    assert gin.min_deadwood(gin.to_mask(cards)) <= MOST_DEADWOOD


def test_the_scores_refuse_a_match_of_the_other_shape_or_unfinished() -> None:
    seed = gin.daily_seed(b"k", "2026-11-30")
    with pytest.raises(FormatError):
        gin.event_score(gin.event_match(seed, "Ada"))  # not over
    day = gin.daily_match(seed, "Ada")
    day.play("resign", 0)
    with pytest.raises(FormatError):
        gin.event_score(day)  # a match to 100
    assert gin.ranked_score(day) == gin.daily_score(day)


def test_the_rules_field_is_added_never_changing_a_match_to_100() -> None:
    """A day's record has no ``rules`` (the document it always was); only ``{"hands": 1}`` is
    read; without it a played one-hand record is a match to 100 that has not ended
    (score_mismatch): the record cannot pass for the other shape."""
    seed = gin.daily_seed(b"k", "2026-11-30")
    day = gin.daily_match(seed, "Ada")
    day.play("resign", 0)
    assert "rules" not in day.to_record(reveal_seed=True)
    assert read_record(day.to_record()).one_hand is False
    match = gin.event_match(seed, "Ada")
    match.play("resign", 0)
    record = match.to_record(reveal_seed=True)
    assert read_record(record).one_hand is True
    wrong: list[Any] = [{"hands": 2}, {"hands": True}, {"hands": 1.0}, {"target": 100}, [], None]
    for rules in wrong:
        with pytest.raises(ReplayError) as info:
            gin.replay({**record, "rules": rules})
        assert info.value.code == "bad_format", rules
    played = gin.event_match(seed, "Ada")
    while not played.finished:
        played.play(gin.choose_move("plain", played.view(0)), 0)
    record = played.to_record(reveal_seed=True)
    without = {k: v for k, v in record.items() if k != "rules"}
    with pytest.raises(ReplayError) as info:
        gin.replay(without)
    assert info.value.code == "score_mismatch"


def test_the_command_line_verifies_an_event_record_and_rejects_a_forged_one() -> None:
    """``python -m engine gin replay`` (G9, F7's exit codes) verifies an event deal's record as a
    daily record; a move after the hand's end is ``round_over``, a changed score
    ``score_mismatch``."""
    match = gin.event_match(gin.daily_seed(b"k", "2026-12-01"), "Ada")
    while not match.finished:
        match.play(gin.choose_move("plain", match.view(0)), 0)
    record = match.to_record(reveal_seed=True)
    code, out, err = engine_cli.run("gin", "replay", stdin=json.dumps(record))
    assert code == 0, err
    assert out == {"ok": True, "result": record["result"]}
    longer = copy.deepcopy(record)
    longer["moves"].append({"seat": 0, "move": "draw"})
    forged = copy.deepcopy(record)
    forged["totals"][0] += 1
    for bad, expected in ((longer, "round_over"), (forged, "score_mismatch")):
        code, out, err = engine_cli.run("gin", "replay", stdin=json.dumps(bad))
        assert code == 3 and out["ok"] is False, err
        assert out["error"]["code"] == expected
