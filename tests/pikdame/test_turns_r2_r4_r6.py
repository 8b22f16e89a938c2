"""R2 seats and turn order, R4 a turn (draw/take, play, discard), R5.4 set joins and R6 swaps,
each on a hand-made position (F5)."""

from __future__ import annotations

from engine import Move, Rules, State
from engine.pikdame.deal import cutter
from tests.support.pikdame import hand, meld_cards, reject, state

SEED = bytes(range(32))


# -- R2 -------------------------------------------------------------------------------------------


def test_r2_player_after_dealer_starts() -> None:
    for players in (2, 3, 4):
        for dealer in range(players):
            s = State.new_round(SEED, Rules(players=players), dealer, 50)
            assert s.turn == (dealer + 1) % players
            assert s.phase == "draw"
            assert s.dealer == dealer


def test_r2_cutter_is_seat_before_dealer() -> None:
    assert cutter(4, 3) == 2  # the daily challenge: dealer 3, seat 2 cuts (R11)
    assert cutter(4, 0) == 3
    assert cutter(3, 1) == 0
    for dealer in (0, 1):
        assert cutter(2, dealer) == (dealer + 1) % 2  # two seats: the cutter starts


def test_r2_play_passes_to_next_seat_mod_n() -> None:
    s = state(["5D 6D", "2C 3C", "8S 9S"], turn=2, stock="4H 5H")
    s.push("discard 8S")
    assert (s.turn, s.phase) == (0, "draw")
    s.push("draw")
    s.push("discard 4H")
    assert (s.turn, s.phase) == (1, "draw")


# -- R4.1 draw ------------------------------------------------------------------------------------


def test_r4_1_draw_takes_stock_top() -> None:
    s = state(["5D 6D", "2C 3C"], phase="draw", stock="9C KD")
    done = s.push("draw")
    assert str(done) == "draw"
    assert hand(s) == ["5D", "6D", "9C"]
    assert s.to_position()["stock"] == ["KD"]
    assert s.phase == "play"


def test_r4_1_take_lays_meld_and_takes_rest_of_pile() -> None:
    s = state(["7H 8H QS 2C", "2D 3D"], phase="draw", stock="5C", discard="KD 4S 9H")
    done = s.push("take 7h 8H 9h")
    assert str(done) == "take 7H 8H 9H"
    assert meld_cards(s, 0) == [("run", ["7H", "8H", "9H"])]
    assert hand(s) == ["4S", "QS", "KD", "2C"]  # canonical order: S H D C, then A … K
    assert s.to_position()["discard"] == []
    assert s.phase == "play"
    assert s.to_position()["stock"] == ["5C"]


def test_r4_1_take_may_lay_a_longer_meld() -> None:
    s = state(["6H 7H 8H QS", "2D 3D"], phase="draw", discard="9H")
    s.push("take 6H 7H 8H 9H")
    assert meld_cards(s, 0) == [("run", ["6H", "7H", "8H", "9H"])]
    assert hand(s) == ["QS"]


def test_r4_1_take_with_jokers_and_prefix() -> None:
    s = state(["X X QS", "2D 3D"], phase="draw", discard="9H")
    s.push("take run X 9H X")
    assert meld_cards(s, 0) == [("run", ["X", "9H", "X"])]
    assert hand(s) == ["QS"]


def test_r4_1_take_using_last_hand_card_is_must_keep_card() -> None:
    """R4.1: at least one hand card must remain; the rest of the pile does not count."""
    s = state(["7H 8H", "2D 3D"], phase="draw", stock="5C", discard="KD 4S 9H")
    reject(s, "take 7H 8H 9H", "must_keep_card")
    assert not s.can_take()
    assert [str(m) for m in s.legal_moves()] == ["draw", "resign"]


def test_r4_1_take_needs_the_top_card() -> None:
    s = state(["6H 7H 8H QS", "2D 3D"], phase="draw", stock="5C", discard="9H KD")
    reject(s, "take 6H 7H 8H", "take_not_allowed")
    reject(s, "take 7H 8H 9H", "take_not_allowed")  # 9H lies under the top
    s2 = state(["6H 7H 8H QS", "2D 3D"], phase="draw", stock="5C")
    reject(s2, "take 6H 7H 8H", "take_not_allowed")  # empty pile


def test_r4_1_take_needs_a_new_valid_meld() -> None:
    s = state(["7H 9S QS 2C", "2D 3D"], phase="draw", stock="5C", discard="8H")
    reject(s, "take 7H 8H 9S", "invalid_meld")
    reject(s, "take 7H 8H 9H", "card_not_in_hand")
    assert not s.can_take()


def test_r4_1_take_top_card_alone_with_two_hand_cards() -> None:
    s = state(["7S 7D QS", "2D 3D"], phase="draw", stock="5C", discard="7H")
    assert s.can_take()
    takes = [str(m) for m in s.legal_moves() if m.kind == "take"]
    assert takes == ["take 7S 7H 7D"]
    s.push("take 7D 7H 7S")
    assert meld_cards(s, 0) == [("set", ["7S", "7H", "7D"])]


def test_r4_1_take_onto_existing_run_is_not_a_take() -> None:
    """R4.1: a take needs a NEW meld; laying the top card on an own run is not a take."""
    s = state(
        ["2C 5D", "2D 3D"],
        melds=[["run 5H 6H 7H"], []],
        phase="draw",
        stock="5C",
        discard="8H",
    )
    assert not s.can_take()
    reject(s, "take 5H 6H 7H 8H", "card_not_in_hand")


# -- R4.2 play ------------------------------------------------------------------------------------


def test_r4_2_meld_lay_swap_in_any_order() -> None:
    s = state(["5H X 7H 6H 9C 9D 9S 8H QS", "2D 3D"])
    s.push("meld 5H X 7H")
    s.push("meld 9S 9D 9C")
    s.push("lay 8H 1")
    s.push("swap 1 6H")
    assert meld_cards(s, 0) == [("run", ["5H", "6H", "7H", "8H"]), ("set", ["9S", "9D", "9C"])]
    assert hand(s) == ["QS"]
    assert s.to_position()["removed"] == ["X"]


def test_r4_2_meld_must_keep_a_card() -> None:
    s = state(["5H 6H 7H", "2D 3D"])
    reject(s, "meld 5H 6H 7H", "must_keep_card")
    s = state(["5H 6H 7H 2C", "2D 3D"])
    s.push("meld 5H 6H 7H")
    assert hand(s) == ["2C"]


def test_r4_2_lay_on_runs_both_ends_and_sets() -> None:
    s = state(["4H 8H 7C X X QS", "2D 3D"], melds=[["run 5H 6H 7H", "set 7S 7H 7D"], []])
    s.push("lay 8H 1")
    s.push("lay 4h 1")
    s.push("lay 7C 2")
    s.push("lay X 2 low")  # low is ignored on a set (F2)
    s.push("lay X 1 low")
    assert meld_cards(s, 0) == [
        ("run", ["X", "4H", "5H", "6H", "7H", "8H"]),
        ("set", ["7S", "7H", "7D", "7C", "X"]),
    ]
    assert [m for _, m in s.history] == [
        "lay 8H 1",
        "lay 4H 1",
        "lay 7C 2",
        "lay X 2",
        "lay X 1 low",
    ]


def test_r4_2_joker_at_low_and_high_end() -> None:
    s = state(["X X QS", "2D 3D"], melds=[["run QH KH AH"], []])
    s.push("lay X 1 high")
    s.push("lay X 1 low")
    assert meld_cards(s, 0) == [("run", ["X", "QH", "KH", "AH", "X"])]
    m = s.melds[0][0]
    assert str(m.stands_for(0)) == "JH"
    assert str(m.stands_for(4)) == "2H"  # the ring: after A comes 2


def test_r4_2_lay_needs_fit() -> None:
    s = state(["9H 5D 8S QS", "2D 3D"], melds=[["run 5H 6H 7H", "set 7S 7H 7D"], []])
    reject(s, "lay 9H 1", "invalid_meld")
    reject(s, "lay 5D 1", "invalid_meld")
    reject(s, "lay 8S 2", "invalid_meld")
    reject(s, "lay 9H 3", "no_such_meld")


def test_r4_2_lay_last_card_is_must_keep_card() -> None:
    s = state(["8H", "2D 3D"], melds=[["run 5H 6H 7H"], []])
    reject(s, "lay 8H 1", "must_keep_card")
    assert [str(m) for m in s.legal_moves()] == ["discard 8H", "resign"]


def test_r4_2_thirteen_card_run_takes_nothing() -> None:
    run = "run AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
    s = state(["X AC QS", "2D 3D"], melds=[[run], []])
    reject(s, "lay X 1", "invalid_meld")
    reject(s, "lay X 1 low", "invalid_meld")
    reject(s, "lay AC 1", "invalid_meld")


def test_f2_twelve_card_run_natural_goes_high_in_state() -> None:
    run = "run 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    s = state(["AH QS", "2D 3D"], melds=[[run], []])
    s.push("lay AH 1")
    high = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    assert " ".join(meld_cards(s, 0)[0][1]) == high


def test_r4_2_other_players_melds_never_touched() -> None:
    """R4.2: meld numbers are the player's own; another seat's meld cannot be addressed."""
    s = state(["8H QS", "2D 3D"], melds=[[], ["run 5H 6H 7H"]])
    reject(s, "lay 8H 1", "no_such_meld")
    reject(s, "swap 1 8H", "no_such_meld")


# -- R5.4 a second set of a rank joins the first ---------------------------------------------------


def test_r5_4_second_set_joins_first_and_keeps_number() -> None:
    s = state(["7S 7H 7C QS", "2D 3D"], melds=[["run 2C 3C 4C", "set 7S 7H 7D"], []])
    s.push("meld 7S 7H 7C")
    assert meld_cards(s, 0) == [
        ("run", ["2C", "3C", "4C"]),
        ("set", ["7S", "7S", "7H", "7H", "7D", "7C"]),
    ]
    assert hand(s) == ["QS"]


def test_r5_4_take_joins_existing_set() -> None:
    s = state(
        ["7D X QS 2C", "2D 3D"],
        melds=[["set 7S 7H 7C"], []],
        phase="draw",
        stock="5C",
        discard="KD 7D",
    )
    s.push("take 7D 7D X")
    assert meld_cards(s, 0) == [("set", ["7S", "7H", "7D", "7D", "7C", "X"])]
    assert hand(s) == ["QS", "KD", "2C"]


def test_r5_4_invalid_join_more_than_eight() -> None:
    """R5.4: the joined set must still be valid (R5.1): 6 + 3 cards is too many."""
    six = "set 7S 7S 7H 7H 7D 7D"
    s = state(["7C 7C X QS", "2D 3D"], melds=[[six], []])
    reject(s, "meld 7C 7C X", "invalid_meld")
    assert not any(m.kind == "meld" for m in s.legal_moves())
    s.push("lay 7C 1")
    s.push("lay 7C 1")
    reject(s, "lay X 1", "invalid_meld")  # 8 cards already


def test_r5_4_invalid_join_by_take() -> None:
    six = "set 7S 7S 7H 7H 7D 7D"
    s = state(["7C X X QS", "2D 3D"], melds=[[six], []], phase="draw", stock="5C", discard="7C")
    reject(s, "take 7C 7C X", "invalid_meld")
    reject(s, "take set 7C X X", "invalid_meld")
    takes = [m for m in s.legal_moves() if m.kind == "take"]
    assert takes and all(m.prefix == "run" for m in takes)  # only runs like X 7C X remain


def test_r5_4_runs_never_join() -> None:
    s = state(["6H 7H 8H QS", "2D 3D"], melds=[["run 3H 4H 5H"], []])
    s.push("meld 6H 7H 8H")
    assert meld_cards(s, 0) == [("run", ["3H", "4H", "5H"]), ("run", ["6H", "7H", "8H"])]


def test_r5_4_sets_of_other_ranks_are_separate() -> None:
    s = state(["8S 8H 8D QS", "2D 3D"], melds=[["set 7S 7H 7D"], []])
    s.push("meld 8S 8H 8D")
    assert len(s.melds[0]) == 2


# -- R6 swaps in a state --------------------------------------------------------------------------


def test_r6_swap_in_run_exact_card_joker_removed() -> None:
    s = state(["6H 6D 5H QS", "2D 3D"], melds=[["run 5H X 7H"], []])
    reject(s, "swap 1 6D", "invalid_meld")
    reject(s, "swap 1 5H", "invalid_meld")
    s.push("swap 1 6H")
    assert meld_cards(s, 0) == [("run", ["5H", "6H", "7H"])]
    assert s.to_position()["removed"] == ["X"]
    assert "X" not in hand(s)
    assert hand(s) == ["QS", "5H", "6D"]


def test_r6_swap_in_set_any_suit_keeping_two() -> None:
    s = state(["7D 7S 8D QS", "2D 3D"], melds=[["set 7S 7H X"], []])
    reject(s, "swap 1 8D", "invalid_meld")
    s.push("swap 1 7S")  # a second spade is fine (R5.1: at most twice)
    assert meld_cards(s, 0) == [("set", ["7S", "7S", "7H"])]
    reject(s, "swap 1 7D", "invalid_meld")  # no joker left


def test_r6_swap_with_last_card_is_must_keep_card() -> None:
    s = state(["6H", "2D 3D"], melds=[["run 5H X 7H"], []])
    reject(s, "swap 1 6H", "must_keep_card")


def test_r6_swap_keeps_size_and_second_joker() -> None:
    s = state(["6H 8H QS", "2D 3D"], melds=[["run 5H X 7H X"], []])
    s.push("swap 1 8H")
    assert meld_cards(s, 0) == [("run", ["5H", "X", "7H", "8H"])]
    s.push("swap 1 6H")
    assert meld_cards(s, 0) == [("run", ["5H", "6H", "7H", "8H"])]
    assert s.to_position()["removed"] == ["X", "X"]


# -- R4.3 discard ---------------------------------------------------------------------------------


def test_r4_3_discard_ends_turn_face_up() -> None:
    s = state(["QS X 2C", "2D 3D"], stock="5C")
    s.push("discard QS")  # Q♠ may be discarded
    assert s.to_position()["discard"] == ["QS"]
    assert (s.turn, s.phase) == (1, "draw")
    s.push("draw")
    s.push("discard 5C")
    assert s.to_position()["discard"] == ["QS", "5C"]


def test_r4_3_joker_may_be_discarded() -> None:
    s = state(["X 2C", "2D 3D"], stock="5C")
    s.push("discard X")
    assert s.to_position()["discard"] == ["X"]


def test_r4_3_going_out_card_goes_face_down_to_removed() -> None:
    s = state(["QS", "2D 3D"], melds=[["run 5H 6H 7H"], []], stock="5C", discard="KD")
    s.push("discard QS")
    pos = s.to_position()
    assert pos["removed"] == ["QS"]
    assert pos["discard"] == ["KD"]
    assert s.outcome is not None and s.outcome.end == "out" and s.outcome.winner == 0
    assert (pos["turn"], pos["phase"]) == (0, "play")  # F5: turn and phase stay at the end


def test_r4_3_discard_card_must_be_in_hand() -> None:
    s = state(["QS 2C", "2D 3D"], stock="5C")
    reject(s, "discard 3C", "card_not_in_hand")
    reject(s, "discard X", "card_not_in_hand")


def test_r4_draw_phase_then_play_phase() -> None:
    s = state(["QS 2C", "2D 3D"], phase="draw", stock="5C")
    reject(s, "discard QS", "wrong_phase")
    reject(s, "meld 2C 3C 4C", "wrong_phase")
    s.push("draw")
    reject(s, "draw", "wrong_phase")
    reject(s, "take 2C 3C 4C", "wrong_phase")


# -- R4.4 empty stock -----------------------------------------------------------------------------


def test_r4_4_empty_stock_forced_take() -> None:
    """R4.4: the stock is empty and a take is legal: only takes (and resign) are legal; draw is
    stock_empty."""
    s = state(["7H 8H QS", "2D 3D"], phase="draw", stock="", discard="KD 9H")
    assert s.outcome is None
    reject(s, "draw", "stock_empty")
    moves = [str(m) for m in s.legal_moves()]
    assert moves == ["take 7H 8H 9H", "resign"]
    s.push("take 7H 8H 9H")
    assert hand(s) == ["QS", "KD"]


def test_r4_4_empty_stock_no_take_round_ends_on_reading() -> None:
    """F5/R4.4: a position whose player must draw from an empty stock without a take is over."""
    s = state(
        ["7H 2C QS", "2D 3D"],
        melds=[["run 4S 5S 6S"], []],
        phase="draw",
        stock="",
        discard="KD 9H",
        totals=[10, 20],
    )
    assert s.outcome is not None
    assert s.outcome.end == "stock" and s.outcome.winner is None and not s.outcome.doubled
    assert s.outcome.round_scores == (15 - (5 + 5 + 100), -(5 + 5))
    assert s.totals == [10 + 15 - 110, 20 - 10]
    assert list(s.legal_moves()) == []
    reject(s, "draw", "round_over")
    assert s.to_position()["outcome"]["end"] == "stock"


def test_r4_4_round_ends_when_next_player_finds_stock_empty() -> None:
    s = state(["5D 6D", "2C 3C"], phase="draw", stock="9C", discard="KD")
    s.push("draw")
    assert s.outcome is None
    s.push("discard 9C")  # seat 1 finds the stock empty and cannot take 9C
    assert s.outcome is not None and s.outcome.end == "stock"
    assert (s.turn, s.phase) == (1, "draw")


def test_r4_4_next_player_with_take_must_take() -> None:
    s2 = state(["5D 6D", "2C 3C QS"], phase="draw", stock="4C")
    s2.push("draw")
    s2.push("discard 4C")
    assert s2.outcome is None
    assert s2.turn == 1
    reject(s2, "draw", "stock_empty")
    assert [str(m) for m in s2.legal_moves()] == ["take 2C 3C 4C", "resign"]


def test_r4_4_no_take_for_next_player_ends_round() -> None:
    s = state(["5D 6D", "2C 3C QS"], phase="draw", stock="9C")
    s.push("draw")
    s.push("discard 6D")
    assert s.outcome is not None and s.outcome.end == "stock"


def test_resign_legal_during_forced_take() -> None:
    """F2: resign is legal at any moment while the round runs, a forced take included."""
    s = state(["7H 8H QS", "2D 3D"], phase="draw", stock="", discard="9H")
    s.push(Move.resign())
    assert s.outcome is not None and s.outcome.end == "resign"


def test_r5_2_ring_runs_in_play() -> None:
    """R5.2: K-A-2 and Q-K-A are runs; J-Q-K-A-2 grows from both ends across the ring."""
    s = state(["2H KH AH QC KC AC JH QH 3C", "2D 3D"], stock="5C")
    s.push("meld 2H KH AH")
    s.push("meld QC KC AC")
    s.push("lay QH 1")
    s.push("lay JH 1")
    assert meld_cards(s, 0) == [
        ("run", ["JH", "QH", "KH", "AH", "2H"]),
        ("run", ["QC", "KC", "AC"]),
    ]
    reject(s, "lay 3C 2", "invalid_meld")  # 2C is missing between AC and 3C


def test_r4_2_r6_joker_laid_then_swapped_out_in_the_same_turn() -> None:
    """R4.2 (any number of plays, any order) with R6: a joker laid on a 12-card run stands for the
    missing card; swapping that card in sends the joker out of the game, even in the same turn."""
    run = "run 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    s = state(["AH X 5C", "2D 3D"], melds=[[run], []], stock="9C")
    s.push("lay X 1")
    assert str(s.melds[0][0].stands_for(12)) == "AH"
    s.push("swap 1 AH")
    assert meld_cards(s, 0)[0][1] == [*run.split()[1:], "AH"]
    assert s.to_position()["removed"] == ["X"]
    assert hand(s) == ["5C"]
