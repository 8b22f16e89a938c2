"""G4 (the first upcard) and G5 (a turn: draw or take, then discard or knock), with the codes of
G9 for every wrong move and the state unchanged after it."""

from __future__ import annotations

from engine.gin.cards import NAMES
from engine.gin.state import HandState
from tests.support.gin_positions import reject, state

SEED = bytes(32)  # hand 1, dealer 1: the upcard is 3S (tests/gin/test_deal_g3.py)


def new() -> HandState:
    return HandState.new(SEED, 1, 1)


def test_g4_non_dealer_takes_the_upcard_then_discards_another() -> None:
    s = new()
    s.push("take")
    assert (s.turn, s.phase, NAMES[s.taken or 0]) == (0, "discard", "3S")
    reject(s, "discard 3S", "take_not_allowed")  # G5: the card just taken stays
    s.push("discard QS")
    assert (s.turn, s.phase, s.discard[-1]) == (1, "draw", 11)


def test_g4_non_dealer_passes_then_dealer_may_take() -> None:
    s = new()
    s.push("pass")
    assert (s.turn, s.phase) == (1, "upcard")
    s.push("take", 1)
    assert (s.turn, s.phase) == (1, "discard")


def test_g4_both_pass_non_dealer_must_draw() -> None:
    s = new()
    s.push("pass")
    s.push("pass")
    assert (s.turn, s.phase, s.must_draw) == (0, "draw", True)
    reject(s, "take", "take_not_allowed")
    assert [str(m) for m in s.legal_moves()] == ["draw", "resign"]
    s.push("draw")
    assert not s.must_draw and s.taken is None
    s.push("discard TH")  # G5: a card drawn from the stock may be discarded at once
    s.push("take")  # play goes on normally: the pile's top may be taken again
    assert s.taken == 22


def test_g4_only_take_or_pass_on_the_first_upcard() -> None:
    s = new()
    reject(s, "draw", "wrong_phase")
    reject(s, "discard TD", "wrong_phase")
    reject(s, "knock TD", "wrong_phase")
    reject(s, "defend", "wrong_phase")
    assert [str(m) for m in s.legal_moves()] == ["take", "pass", "resign"]


def test_g5_wrong_phase_and_wrong_seat() -> None:
    s = new()
    reject(s, "pass", "not_your_turn", seat=1)
    reject(s, "pass", "not_your_turn", seat=2)
    s.push("pass")
    s.push("pass")
    reject(s, "pass", "wrong_phase")
    reject(s, "discard TD", "wrong_phase")
    reject(s, "discard TD", "not_your_turn", seat=1)  # the seat is checked before the phase
    s.push("draw")
    reject(s, "draw", "wrong_phase")
    reject(s, "take", "wrong_phase")
    reject(s, "discard AS", "card_not_in_hand")
    reject(s, "discrad TD", "syntax")


def test_g5_a_card_taken_earlier_may_be_discarded_later() -> None:
    s = state(
        "2S 3S 9S 6H 8H 4D 5D 8D 9C QC",
        "4S 4H 7H TH 6D 9D JD 5C TC JC",
        discard="KH",
        phase="draw",
    )
    s.push("take")
    reject(s, "discard KH", "take_not_allowed")
    reject(s, "knock KH 2S 3S 4S", "take_not_allowed")
    s.push("discard QC")
    s.push("draw", 1)
    s.push("discard JC", 1)
    s.push("draw")
    s.push("discard KH")
    assert s.discard[-1] == 25


def test_g9_resign_by_either_seat_at_any_moment() -> None:
    s = new()
    s.push("resign", 1)  # not seat 1's turn: accepted (G8 resign gives up the match)
    assert s.outcome is not None and (s.outcome.end, s.outcome.winner) == ("resign", 0)
    reject(s, "take", "round_over")
    reject(s, "resign", "round_over", seat=0)
