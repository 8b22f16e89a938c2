"""Readings of GIN.md where it is silent (docs/GIN_DECISIONS.md), each pinned here or in the test
named in that document."""

from __future__ import annotations

import re
from pathlib import Path

from engine.core.errors import IllegalMoveError
from engine.gin.bots import choose_move
from engine.gin.state import CODES, MAX_TAKES, HandState
from tests.support.gin_matches import human_match
from tests.support.gin_positions import reject, state

DOC = Path(__file__).resolve().parents[2] / "docs" / "GIN_FORMATS.md"
H0 = "2S 3S 9S 6H 8H 4D 5D 8D 9C QC"
H1 = "4S 4H 7H TH 6D 9D JD 5C TC JC"


def test_d1_code_precedence_is_the_documented_one() -> None:
    """docs/GIN_FORMATS.md states the order (F7's, knock_not_allowed last); CODES follows it."""
    text = " ".join(DOC.read_text().split())
    order = text.split("the first in this order wins:")[1].split("(")[0]
    assert tuple(re.findall(r"`([a-z_]+)`", order)) == CODES[:9]
    listed = text.split("Error codes (G9):")[1].split("When several")[0]
    assert set(re.findall(r"`([a-z_]+)`", listed)) == set(CODES)


def test_d2_the_card_just_taken_is_take_not_allowed_for_discard_and_knock() -> None:
    s = state(H0, H1, discard="KH", phase="draw")
    s.push("take")
    reject(s, "discard KH", "take_not_allowed")
    reject(s, "knock KH 2S 3S 4S", "take_not_allowed")


def test_d3_at_most_50_takes_per_hand() -> None:
    s = state(H0, H1, discard="KH", phase="draw", takes=MAX_TAKES)
    reject(s, "take", "take_not_allowed")
    assert [str(m) for m in s.legal_moves()] == ["draw", "resign"]
    t = state(H0, H1, discard="KH", phase="draw", takes=MAX_TAKES - 1)
    t.push("take")
    assert t.takes == MAX_TAKES


def test_d4_the_timer_plays_the_strong_bots_move() -> None:
    match = human_match("timer", stop_after=2)
    expected = str(choose_move("strong", match.view(0)))
    events = match.autoplay_turn(0)
    assert events[0] == (0, expected)


def test_d5_bots_never_play_for_a_finished_match() -> None:
    match = human_match("done")
    assert match.finished
    try:
        match.autoplay_turn(match.state.turn)
    except IllegalMoveError as e:
        assert e.code == "not_your_turn"
    else:
        raise AssertionError("autoplay after the end")


def test_d6_resign_ends_the_match_for_the_other_seat_without_points() -> None:
    s = HandState.new(bytes(32), 1, 1)
    s.push("resign", 0)
    assert s.outcome is not None
    assert (s.outcome.end, s.outcome.winner, s.outcome.scores) == ("resign", 1, (0, 0))
