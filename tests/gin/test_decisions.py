"""Readings of GIN.md where it is silent (docs/GIN_DECISIONS.md), each pinned here or in the test
named in that document."""

from __future__ import annotations

from engine.core.errors import IllegalMoveError
from engine.gin.bots import choose_move
from engine.gin.state import CODES, MAX_TAKES, HandState
from tests.gin.helpers import reject, state
from tests.gin.matches import human_match

H0 = "2S 3S 9S 6H 8H 4D 5D 8D 9C QC"
H1 = "4S 4H 7H TH 6D 9D JD 5C TC JC"


def test_d1_code_precedence_follows_f7_with_knock_not_allowed_last() -> None:
    assert CODES[:9] == (
        "syntax",
        "round_over",
        "not_your_turn",
        "wrong_phase",
        "take_not_allowed",
        "card_not_in_hand",
        "no_such_meld",
        "invalid_meld",
        "knock_not_allowed",
    )
    assert set(CODES[9:]) == {"bot_mismatch", "score_mismatch", "bad_format"}


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
