"""R7 round end and scoring (with R9 ``hand_out_double``), R8 game end (with R9 ``strict_1000``),
resign, and dealer rotation between rounds (R2)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PikDameError, Rules, State
from tests.support.pikdame import doc, points, reject, state

SEED = bytes(32)


def pts(text: str) -> int:
    return sum(points(c) for c in text.split())


def three_seats(**kw: Any) -> State:
    """Seat 0 goes out with 4C; seat 1 holds Q♠; seat 2 has no meld."""
    return state(
        ["4C", "QS 2D", "X KD"],
        melds=[["run 5H 6H 7H"], ["set AS AH AD"], []],
        stock="5C 6C",
        discard="8D",
        **kw,
    )


# -- R7.1 going out -------------------------------------------------------------------------------


def test_r7_1_winner_scores_melds_others_melds_minus_hand_queen_costs_100() -> None:
    s = three_seats(totals=[100, 50, 0])
    s.push("discard 4C")
    assert s.outcome is not None
    assert s.outcome.end == "out" and s.outcome.winner == 0 and not s.outcome.doubled
    expected = [pts("5H 6H 7H"), pts("AS AH AD") - pts("QS 2D"), -pts("X KD")]
    assert expected == [15, 60 - 105, -30]
    assert list(s.outcome.round_scores) == expected
    assert s.totals == [115, 5, -30]  # R7.4: added to totals, which may be negative


def test_r7_1_winner_scores_only_melds_not_the_going_out_card() -> None:
    """R4.3/R7.1: the face-down last card scores for no one, even Q♠."""
    s = state(["QS", "2D 3D"], melds=[["run 5H 6H 7H"], []], stock="5C")
    s.push("discard QS")
    assert s.outcome is not None and s.outcome.round_scores == (15, -10)


def test_r7_1_queen_of_spades_in_a_meld_scores_100() -> None:
    s = state(["4C", "2D 3D"], melds=[["set QS QH QD"], []], stock="5C")
    s.push("discard 4C")
    assert s.outcome is not None and s.outcome.round_scores == (120, -10)


# -- R7.2 stock exhausted -------------------------------------------------------------------------


def test_r7_2_stock_exhausted_no_winner_everyone_melds_minus_hand() -> None:
    s = state(
        ["5D QS", "2C 3C"],
        melds=[["run 5H 6H 7H"], ["set 9S 9H 9D"]],
        phase="draw",
        stock="KC",
        hand_out_double=True,
    )
    s.push("draw")
    s.push("discard KC")
    assert s.outcome is not None
    assert (s.outcome.end, s.outcome.winner, s.outcome.doubled) == ("stock", None, False)
    assert list(s.outcome.round_scores) == [15 - 105, 15 - 10]


# -- R7.3 hand_out_double -------------------------------------------------------------------------


def test_r7_3_going_out_without_melds_at_turn_start_doubles_everyone() -> None:
    s = three_seats(hand_out_double=True, opened=False)
    s.push("discard 4C")
    assert s.outcome is not None and s.outcome.doubled
    assert list(s.outcome.round_scores) == [30, -90, -60]


def test_r7_3_no_doubling_when_player_had_melds_at_turn_start() -> None:
    s = three_seats(hand_out_double=True, opened=True)
    s.push("discard 4C")
    assert s.outcome is not None and not s.outcome.doubled
    assert list(s.outcome.round_scores) == [15, -45, -30]


def test_r7_3_no_doubling_without_the_house_rule() -> None:
    s = three_seats(hand_out_double=False, opened=False)
    s.push("discard 4C")
    assert s.outcome is not None and not s.outcome.doubled


def test_r7_3_doubling_after_take_in_the_going_out_turn() -> None:
    """R7.3: the melds laid by the take in the going-out turn do not count as 'at turn start'."""
    s = state(["7H 8H 4C", "2D 3D"], phase="draw", stock="5C", discard="9H", hand_out_double=True)
    assert s.opened_at_turn_start is False
    s.push("take 7H 8H 9H")
    s.push("discard 4C")
    assert s.outcome is not None and s.outcome.doubled
    assert list(s.outcome.round_scores) == [2 * 15, -2 * 10]


def test_r7_3_doubling_after_melding_whole_hand_in_one_turn() -> None:
    s = state(["7H 8H 9H 2S 2H 2D 4C", "2C 3C"], stock="5C", hand_out_double=True)
    s.push("meld 7H 8H 9H")
    s.push("meld 2S 2H 2D")
    s.push("discard 4C")
    assert s.outcome is not None and s.outcome.doubled
    assert list(s.outcome.round_scores) == [2 * 30, -2 * 10]


def test_r7_3_melds_from_an_earlier_turn_prevent_doubling() -> None:
    """opened_at_turn_start is recomputed when the turn passes (F5): going out a turn after
    melding is not doubled."""
    s = state(["7H 8H 9H 4C", "2C 3C 4S"], stock="JC QC TH", phase="draw", hand_out_double=True)
    s.push("draw")  # JC
    s.push("meld 7H 8H 9H")
    s.push("discard JC")
    assert s.turn == 1 and s.opened_at_turn_start is False
    s.push("draw")  # QC
    s.push("discard QC")
    assert s.turn == 0 and s.opened_at_turn_start is True
    s.push("draw")  # TH
    s.push("lay TH 1")
    s.push("discard 4C")
    assert s.outcome is not None and s.outcome.end == "out" and not s.outcome.doubled
    assert list(s.outcome.round_scores) == [pts("7H 8H 9H TH"), -pts("2C 3C 4S")]


# -- R8 game end ----------------------------------------------------------------------------------


def finish_round(totals: list[int], strict: bool = False) -> State:
    """Seat 0 goes out scoring 15; seat 1 scores 15 - 5 = 10; seat 2 scores -5."""
    s = state(
        ["4C", "2D", "3D"],
        melds=[["run 5H 6H 7H"], ["run 5S 6S 7S"], []],
        stock="5C",
        totals=totals,
        strict_1000=strict,
    )
    s.push("discard 4C")
    assert s.outcome is not None and list(s.outcome.round_scores) == [15, 10, -5]
    return s


def test_r8_game_ends_at_1000() -> None:
    s = finish_round([985, 0, 0])
    assert s.totals == [1000, 10, -5]
    assert s.game_over() and s.game_winner() == 0
    with pytest.raises(PikDameError):
        s.next_round(SEED)


def test_r8_below_1000_game_goes_on() -> None:
    s = finish_round([984, 0, 0])
    assert s.totals == [999, 10, -5]
    assert not s.game_over() and s.game_winner() is None


def test_r8_strict_1000_needs_more_than_1000() -> None:
    s = finish_round([985, 0, 0], strict=True)
    assert s.totals == [1000, 10, -5]
    assert not s.game_over()
    s = finish_round([986, 0, 0], strict=True)
    assert s.game_over() and s.game_winner() == 0


def test_r8_highest_total_wins_not_first_to_1000() -> None:
    s = finish_round([990, 1000, 0])
    assert s.totals == [1005, 1010, -5]
    assert s.game_over() and s.game_winner() == 1


def test_r8_tie_at_the_top_plays_another_round() -> None:
    s = finish_round([995, 1000, 0])
    assert s.totals == [1010, 1010, -5]
    assert not s.game_over() and s.game_winner() is None
    nxt = s.next_round(SEED, 40)
    assert nxt.totals == [1010, 1010, -5]
    assert nxt.round == 2


def test_r8_tie_below_the_top_does_not_matter() -> None:
    s = finish_round([1000, 995, 1010])
    assert s.totals == [1015, 1005, 1005]
    assert s.game_over() and s.game_winner() == 0


def test_r8_game_not_over_while_round_runs() -> None:
    s = state(["4C 5C", "2D"], totals=[2000, 0])
    assert s.outcome is None and not s.game_over()


# -- R2 dealer rotation ---------------------------------------------------------------------------


def test_r2_next_round_moves_dealer_and_carries_totals() -> None:
    s = finish_round([0, 0, 0])
    assert s.dealer == 2
    nxt = s.next_round(SEED, 30)
    assert nxt.dealer == 0
    assert nxt.turn == 1
    assert nxt.round == 2
    assert nxt.totals == [15, 10, -5]
    assert nxt.outcome is None
    assert nxt.hand_sizes == [15, 15, 15]
    assert (
        nxt.to_position()
        == State.new_round(
            SEED, Rules(players=3), 0, 30, round=2, totals=[15, 10, -5]
        ).to_position()
    )
    third = nxt.copy()
    third.push("resign")
    with pytest.raises(PikDameError):
        third.next_round(SEED)  # a resigned game is over (R8)


def test_r2_next_round_needs_finished_round() -> None:
    s = State.new_round(SEED, Rules(players=2), dealer=0, cut=30)
    with pytest.raises(PikDameError):
        s.next_round(SEED)


def finished(s: State) -> State:
    """The same position with the round ended by an exhausted stock (via F5, outcome given)."""
    position = s.to_position()
    n = s.players
    position["outcome"] = {
        "end": "stock",
        "winner": None,
        "round_scores": [0] * n,
        "doubled": False,
    }
    return State.from_position(position)


def test_r2_dealer_rotates_through_all_seats() -> None:
    s = finish_round([0, 0, 0])
    dealers = []
    for _ in range(4):
        s = finished(s.next_round(SEED, 55))
        dealers.append(s.dealer)
    assert dealers == [0, 1, 2, 0]
    assert s.round == 5


# -- R8 resign ------------------------------------------------------------------------------------


def test_r8_resign_scores_as_stock_exhausted_and_ends_game() -> None:
    s = state(
        ["5D QS 2C", "2D 3D"],
        melds=[["run 5H 6H 7H"], []],
        phase="draw",
        stock="KC",
        hand_out_double=True,
        totals=[10, 10],
    )
    s.push("resign")
    assert s.outcome is not None
    assert (s.outcome.end, s.outcome.winner, s.outcome.doubled) == ("resign", None, False)
    assert list(s.outcome.round_scores) == [15 - 110, -10]
    assert s.totals == [10 - 95, 0]
    assert s.game_over()
    assert s.history[-1] == (0, "resign")
    reject(s, "resign", "round_over")
    reject(s, "draw", "round_over")


def test_r8_resign_in_play_phase_and_by_other_seat() -> None:
    s = state(["5D QS 2C", "2D 3D"], stock="KC")
    s.push("resign", seat=1)
    assert s.outcome is not None and s.outcome.end == "resign"
    assert s.history[-1] == (1, "resign")


def test_r8_resign_by_a_seat_that_does_not_exist_is_rejected() -> None:
    """F2 lets any seat of the game resign at any moment; a seat outside 0 … n−1 is not one of
    them: not_your_turn, and nothing changes (the round must not end)."""
    s = state(["5D QS 2C", "2D 3D"], stock="KC")
    for seat in (2, 7, -1):
        reject(s, "resign", "not_your_turn", seat=seat)
    assert s.outcome is None


def test_r9_rule_defaults() -> None:
    """R9: players 4, hand_out_double false, strict_1000 false."""
    assert Rules() == Rules(players=4, hand_out_double=False, strict_1000=False)
    assert Rules.from_json({}) == Rules()
    assert Rules.from_json({"players": 2, "strict_1000": True}).to_json() == {
        "players": 2,
        "hand_out_double": False,
        "strict_1000": True,
    }


def test_r8_resigned_game_winner_only_with_a_lone_lead() -> None:
    """Reading of R8 (resign names no winner): after a resign the game is over; the winner is
    the seat with the lone highest total, or nobody when the highest total is shared; never a
    seat picked by its number."""
    tied = state(["5D", "2D"], stock="KC", totals=[100, 105])
    tied.push("resign")  # round scores -5, -5
    assert tied.totals == [95, 100] and tied.game_over() and tied.game_winner() == 1
    even = state(["5D", "2D"], stock="KC", totals=[100, 100])
    even.push("resign")
    assert even.totals == [95, 95] and even.game_over()
    assert even.game_winner() is None


@settings(max_examples=300, deadline=None)
@given(
    totals=st.lists(st.integers(900, 1100) | st.integers(-500, 2000), min_size=2, max_size=4),
    strict=st.booleans(),
    end=st.sampled_from(["out", "stock", "resign"]),
)
def test_r8_game_end_rule(totals: list[int], strict: bool, end: str) -> None:
    """R8 on finished rounds with any totals: the game ends when some total reaches 1000 (> 1000
    with strict_1000) and one seat leads alone; a resign ends it at once."""
    n = len(totals)
    position = doc(["2C", "3C", "4C", "5C"][:n], strict_1000=strict, totals=totals)
    position["outcome"] = {
        "end": end,
        "winner": 0 if end == "out" else None,
        "round_scores": [0] * n,
        "doubled": False,
    }
    s = State.from_position(position)
    best = max(totals)
    lone = totals.count(best) == 1
    reached = best > 1000 if strict else best >= 1000
    over = end == "resign" or (reached and lone)
    assert s.game_over() == over
    assert s.game_winner() == (totals.index(best) if over and lone else None)
    if not over:
        nxt = s.next_round(bytes(32), 50)
        assert nxt.totals == totals and nxt.dealer == (s.dealer + 1) % n
