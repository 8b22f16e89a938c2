"""Tausende (RULES.md R12), clause by clause, including the awkward cases. Every illegal
move is answered with its code and changes nothing (F7)."""

from __future__ import annotations

from engine.pikdame.rules import Rules
from engine.pikdame.state import State
from tests.support import pikdame
from tests.support.pikdame import reject
from tests.support.tausende import run, set_, state

# -- R12.1 cards, points, deal -------------------------------------------------------------------


def test_r12_1_deal_108_cards_13_each_face_up() -> None:
    s = State.new_round(bytes(32), Rules(players=4, ruleset="tausende"), dealer=3, cut=40)
    assert s.hand_sizes == [13, 13, 13, 13]
    assert len(s.discard) == 1 and len(s.stock) == 108 - 52 - 1
    assert s.card_count() == 108
    doc = s.to_position()
    assert doc["rules"]["ruleset"] == "tausende" and doc["swaps"] == 0


def test_r12_1_joker_scores_25_in_hand() -> None:
    s = state([["X", "5C", "7D"], ["9C", "9D"]], opened=[True, True])
    s.push("resign")
    assert s.outcome is not None and s.outcome.round_scores == (-35, -10)


# -- R12.2 the swapping round ------------------------------------------------------------------


def test_r12_2_swap_up_and_draw_ends_the_round_of_swaps() -> None:
    s = state([["5C", "7D", "QS"], ["9C", "9D"]], phase="draw", discard=["KH"], swaps=0)
    s.push("swap-up 5C")
    assert s.to_position()["discard"] == ["5C"] and s.turn == 1
    assert sorted(s.to_position()["hands"][0]) == ["7D", "KH", "QS"]
    reject(s, "take 5C 9C 9D", "take_not_allowed")  # nobody has opened (R12.3)
    s.push("draw")
    assert s.to_position()["swaps"] is None
    reject(s, "swap-up 9C", "wrong_phase")


def test_r12_2_queen_of_spades_never_goes_face_up() -> None:
    s = state([["5C", "QS"], ["9C", "9D"]], phase="draw", discard=["KH"], swaps=0)
    reject(s, "swap-up QS", "queen_kept")


def test_r12_2_each_seat_swaps_at_most_once_around() -> None:
    """docs/TAUSENDE.md: the swapping round goes around once; then the next seat must draw."""
    s = state([["5C", "6C"], ["9C", "9D"]], phase="draw", discard=["KH"], swaps=0)
    s.push("swap-up 5C")
    s.push("swap-up 9C")
    reject(s, "swap-up KH", "wrong_phase")
    assert [str(m) for m in s.legal_moves()] == ["draw", "resign"]


# -- R12.3 the opening -----------------------------------------------------------------------


def test_r12_3_opening_of_exactly_30_with_a_joker() -> None:
    s = state([["JH", "QH", "X", "5C", "7D"], ["9C"]])
    s.push("meld JH QH X")  # the joker stands for KH: 10 + 10 + 10
    assert s.opened[0]
    s.push("discard 5C")
    assert s.opened[0] and s.to_position()["melds"][0] == [run("JH", "QH", "X")]


def test_r12_3_opening_spread_over_several_melds() -> None:
    s = state([["5C", "5D", "5S", "2H", "3H", "4H", "9C", "KD"], ["9D"]])
    s.push("meld 5C 5D 5S")
    assert not s.opened[0]
    s.push("meld 2H 3H 4H")
    assert s.opened[0]
    s.push("discard 9C")
    assert len(s.melds[0]) == 2


def test_r12_3_short_opening_goes_back_into_hand_at_the_discard() -> None:
    """docs/TAUSENDE.md: melds short of 30 return to the hand when the player discards."""
    s = state([["5C", "5D", "5S", "9C", "KD"], ["9D"]])
    s.push("meld 5C 5D 5S")
    s.push("discard 9C")
    doc = s.to_position()
    assert doc["melds"][0] == [] and sorted(doc["hands"][0]) == ["5C", "5D", "5S", "KD"]
    assert doc["laid"][0] == 0 and not doc["opened"][0]


def test_r12_3_take_before_opening_is_refused() -> None:
    s = state([["9C", "9D", "5H"], ["2C"]], phase="draw", discard=["9S"])
    reject(s, "take 9S 9C 9D", "take_not_allowed")
    assert "take" not in {m.kind for m in s.legal_moves()}


def test_r12_3_no_lay_off_before_opening() -> None:
    s = state([["8H", "5C"], ["2C"]], melds=[[], [run("5H", "6H", "7H")]], opened=[False, True])
    reject(s, "lay 8H 1.1", "not_opened")


# -- R12.4 the pot -----------------------------------------------------------------------------


def test_r12_4_opened_player_takes_the_pot_rest_into_hand() -> None:
    s = state(
        [["9C", "9D", "5H"], ["2C"]],
        phase="draw",
        discard=["4S", "9S"],
        opened=[True, True],
        melds=[[run("2H", "3H", "4H")], [set_("KC", "KD", "KS")]],
    )
    s.push("take 9S 9C 9D")
    assert sorted(s.to_position()["hands"][0]) == ["4S", "5H"]


def test_r12_4_take_using_every_hand_card_is_must_keep_card() -> None:
    s = state([["9C", "9D"], ["2C"]], phase="draw", discard=["9S"], opened=[True, True])
    reject(s, "take 9S 9C 9D", "must_keep_card")


# -- R12.5 melds -----------------------------------------------------------------------------


def test_r12_5_k_a_2_rejected_q_k_a_accepted() -> None:
    s = state([["KH", "AH", "2H", "QH", "KD", "AD", "5C"], ["2C"]], opened=[True, True])
    reject(s, "meld KH AH 2H", "invalid_meld")
    reject(s, "meld X AH 2H", "card_not_in_hand")
    s.push("meld QH KH AH")
    assert s.to_position()["melds"][0] == [run("QH", "KH", "AH")]


def test_r12_5_joker_run_wrapping_the_ace_reject() -> None:
    s = state([["X", "AH", "2H", "5C"], ["2C"]], opened=[True, True])
    reject(s, "meld X AH 2H", "invalid_meld")  # the joker would be K♥: K-A-2
    s.push("meld AH 2H X")  # the joker is 3♥


def test_r12_5_nothing_laid_past_a_high_ace() -> None:
    s = state([["X", "2H", "5C"], ["2C"]], opened=[True, True], melds=[[run("QH", "KH", "AH")], []])
    reject(s, "lay 2H 1", "invalid_meld")
    reject(s, "lay X 1", "invalid_meld")  # the high end is past the ace
    s.push("lay X 1 low")


def test_r12_5_jokers_fewer_than_naturals_in_a_new_meld() -> None:
    s = state([["X", "X", "5H", "6H", "9C"], ["2C"]], opened=[True, True])
    reject(s, "meld run 5H X X", "invalid_meld")
    s.push("meld 5H 6H X")


def test_r12_5_joker_majority_reached_by_a_lay_off() -> None:
    s = state(
        [["X", "9C", "2D"], ["2C"]], opened=[True, True], melds=[[run("5H", "X", "7H", "8H")], []]
    )
    s.push("lay X 1")  # 3 naturals, 2 jokers: still fewer
    reject(s, "lay X 1", "card_not_in_hand")
    s2 = state([["X", "9C", "2D"], ["2C"]], opened=[True, True], melds=[[run("5H", "X", "7H")], []])
    reject(s2, "lay X 1", "invalid_meld")  # 2 naturals, 2 jokers: not fewer


def test_r12_5_lay_off_on_another_players_meld_counts_for_the_layer() -> None:
    s = state(
        [["8H", "9C", "2D"], ["2C"]], opened=[True, True], melds=[[], [run("5H", "6H", "7H")]]
    )
    s.push("lay 8H 1.1")
    doc = s.to_position()
    assert doc["melds"][1] == [run("5H", "6H", "7H", "8H")] and doc["laid"] == [5, 0]
    assert s.history[-1] == (0, "lay 8H 1.1")


def test_r12_5_swap_on_another_players_meld() -> None:
    s = state(
        [["6H", "9C", "2D"], ["2C"]], opened=[True, True], melds=[[], [run("5H", "X", "7H", "8H")]]
    )
    s.push("swap 1.1 6H")
    doc = s.to_position()
    assert doc["melds"][1] == [run("5H", "6H", "7H", "8H")] and doc["removed"] == ["X"]


def test_r12_5_own_meld_addressed_by_seat_is_written_in_f2_form() -> None:
    s = state(
        [["8H", "9C", "2D"], ["2C"]], opened=[True, True], melds=[[run("5H", "6H", "7H")], []]
    )
    s.push("lay 8H 0.1")
    assert s.history[-1] == (0, "lay 8H 1")


def test_r12_5_no_such_seat_or_meld() -> None:
    s = state(
        [["8H", "9C", "2D"], ["2C"]], opened=[True, True], melds=[[], [run("5H", "6H", "7H")]]
    )
    reject(s, "lay 8H 1.2", "no_such_meld")
    reject(s, "lay 8H 3.1", "no_such_meld")
    reject(s, "lay 8H 12.1", "syntax")


def test_r12_5_melds_never_joined() -> None:
    s = state(
        [["5C", "5D", "5S", "5H", "5C", "5D", "9C"], ["2C"]], opened=[True, True], stock=["2S"]
    )
    s.push("meld 5C 5D 5S")
    s.push("meld 5H 5C 5D")
    assert len(s.melds[0]) == 2


# -- R12.6 / R12.7 the Q♠ and going out -------------------------------------------------------


def test_r12_6_queen_of_spades_never_discarded() -> None:
    s = state([["QS", "5C"], ["2C"]], opened=[True, True])
    reject(s, "discard QS", "queen_kept")


def test_r12_6_queen_of_spades_as_the_last_card() -> None:
    s = state([["QS", "5C", "5D", "5S"], ["2C"]], opened=[True, True])
    reject(s, "meld 5C 5D 5S", "must_keep_card")  # only the Q♠ would be left to discard
    assert "meld 5S 5D 5C" not in {str(m) for m in s.legal_moves()}
    discards = {str(m) for m in s.legal_moves() if m.kind == "discard"}
    assert discards == {"discard 5S", "discard 5D", "discard 5C"}


def test_r12_7_going_out_scores_laid_points_without_doubling() -> None:
    s = state([["9C"], ["X", "2C"]], opened=[True, True])
    s.laid = [40, 15]
    s.push("discard 9C")
    assert s.outcome is not None and s.outcome.end == "out" and not s.outcome.doubled
    assert s.outcome.round_scores == (40, 15 - 25 - 5)


# -- R12.8 options ---------------------------------------------------------------------------


def test_r12_8_no_going_out_in_the_opening_turn_by_default() -> None:
    s = state([["TH", "JH", "QH", "9C"], ["2C"]])
    reject(s, "meld TH JH QH", "must_keep_card")
    t = state([["TH", "JH", "QH", "9C"], ["2C"]], go_out_on_opening=True)
    t.push("meld TH JH QH")
    t.push("discard 9C")
    assert t.outcome is not None and t.outcome.winner == 0


def test_r12_8_ace_high_only() -> None:
    s = state(
        [["AH", "2H", "3H", "QH", "KH", "AD", "5C"], ["2C"]],
        opened=[True, True],
        ace_high_only=True,
    )
    reject(s, "meld AH 2H 3H", "invalid_meld")


def test_r12_8_no_joker_swap() -> None:
    s = state(
        [["6H", "9C", "2D"], ["2C"]],
        opened=[True, True],
        melds=[[run("5H", "X", "7H", "8H")], []],
        no_joker_swap=True,
    )
    reject(s, "swap 1 6H", "invalid_meld")


def test_pikdame_rejects_tausende_notation() -> None:
    """F2 stays Pik Dame's: `S.N` and `swap-up` are syntax there."""
    s = pikdame.state(["8H 9C", "2C"])
    reject(s, "lay 8H 1.1", "syntax")
    reject(s, "swap-up 8H", "syntax")
    assert "ruleset" not in s.to_position()["rules"]


def test_r12_6_a_hand_of_queens_of_spades_passes() -> None:
    """docs/TAUSENDE.md: with nothing but Q♠s in hand there is no card to discard: `pass`."""
    s = state([["QS", "QS"], ["2C", "5D"]], opened=[True, True])
    assert [str(m) for m in s.legal_moves()] == ["pass", "resign"]
    s.push("pass")
    assert s.turn == 1 and s.phase == "draw"
    t = state([["QS", "5C"], ["2C"]], opened=[True, True])
    reject(t, "pass", "pass_not_allowed")
