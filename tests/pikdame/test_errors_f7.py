"""F7 error codes and their precedence: each code reachable through ``State.push``, the first in
F7's order winning when several apply, and a rejected move never changing anything."""

from __future__ import annotations

import pytest

from engine import JOKER, Card, IllegalMoveError, Move, NotationError, State
from engine.pikdame.errors import CODES
from tests.support.pikdame import reject, state

PRECEDENCE = [
    "syntax",
    "round_over",
    "wrong_phase",
    "stock_empty",
    "take_not_allowed",
    "card_not_in_hand",
    "no_such_meld",
    "invalid_meld",
    "must_keep_card",
]


def test_f7_code_list_is_the_spec_list() -> None:
    assert list(CODES[: len(PRECEDENCE)]) == PRECEDENCE
    assert set(CODES) == {
        *PRECEDENCE,
        "not_your_turn",
        "bot_mismatch",
        "score_mismatch",
        "bad_format",
    }


def over() -> State:
    s = state(["4C", "2D 3D"], melds=[["run 5H 6H 7H"], []], stock="5C")
    s.push("discard 4C")
    assert s.outcome is not None
    return s


def play_phase() -> State:
    return state(
        ["5H 6H 8D 9C QS", "2D 3D"], melds=[["run 5S 6S 7S"], []], stock="5C", discard="KD"
    )


# -- each state-level code reachable --------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "move", "code"),
    [
        (play_phase, "fly", "syntax"),
        (over, "discard 2D", "round_over"),
        (play_phase, "draw", "wrong_phase"),
        (play_phase, "discard KC", "card_not_in_hand"),
        (play_phase, "meld 5H 6H 8D", "invalid_meld"),
        (play_phase, "lay 8D 2", "no_such_meld"),
    ],
)
def test_f7_each_code_reachable(make: object, move: str, code: str) -> None:
    s = make()  # type: ignore[operator]
    err = reject(s, move, code)
    assert move in err.message  # the message names the input


def test_f7_not_your_turn() -> None:
    s = play_phase()
    reject(s, "discard QS", "not_your_turn", seat=1)
    s.push("discard QS", seat=0)
    assert s.turn == 1


def test_f7_take_not_allowed_and_stock_empty_and_must_keep() -> None:
    s = state(["7H 8H", "2D 3D"], phase="draw", stock="5C", discard="KD 9H")
    reject(s, "take 7H 8H KD", "take_not_allowed")
    reject(s, "take 7H 8H 9H", "must_keep_card")
    s = state(["7H 8H QS", "2D 3D"], phase="draw", stock="", discard="KD 9H")
    reject(s, "draw", "stock_empty")


def test_f7_error_to_json() -> None:
    s = play_phase()
    with pytest.raises(IllegalMoveError) as info:
        s.push("discard KC")
    assert set(info.value.to_json()) == {"code", "message"}
    assert info.value.to_json()["code"] == "card_not_in_hand"
    assert "KC" in info.value.to_json()["message"]


# -- precedence (F7's last bullet and the order of its list) --------------------------------------


def test_precedence_syntax_before_round_over() -> None:
    s = over()
    reject(s, "fly", "syntax")
    reject(s, "meld 7H X X", "syntax")


def test_precedence_one_natural_without_prefix_is_syntax_before_all() -> None:
    """F7: a meld of one natural without prefix is syntax, whatever else is wrong."""
    s = state(["2C 3C", "2D 3D"], phase="draw", stock="5C")
    reject(s, "meld 7H X X", "syntax")  # wrong phase, cards not in hand
    reject(s, "take KH X X", "syntax")  # empty pile


def test_precedence_round_over_before_wrong_phase_and_turn() -> None:
    s = over()
    reject(s, "draw", "round_over")  # also the wrong phase
    reject(s, "discard 2D", "round_over", seat=1)
    reject(s, "resign", "round_over")


def test_precedence_not_your_turn_before_wrong_phase() -> None:
    """Reading (F7 does not rank not_your_turn): a seat that is not to move is told so first."""
    s = play_phase()
    reject(s, "draw", "not_your_turn", seat=1)


def test_precedence_wrong_phase_before_stock_empty() -> None:
    s = state(["7H 8H QS", "2D 3D"], phase="play", stock="", discard="KD")
    reject(s, "draw", "wrong_phase")


def test_precedence_wrong_phase_before_card_checks() -> None:
    s = state(["7H 8H QS", "2D 3D"], phase="draw", stock="5C", discard="KD")
    reject(s, "discard KC", "wrong_phase")
    reject(s, "meld 2S 3S 4S", "wrong_phase")
    reject(s, "lay KC 7", "wrong_phase")
    reject(s, "swap 7 KC", "wrong_phase")
    s.push("draw")
    reject(s, "take 2S 3S 4S", "wrong_phase")


def test_precedence_take_lacking_top_card_is_take_not_allowed() -> None:
    """F7: a take whose meld lacks the pile's top card is take_not_allowed, before any other
    problem the meld may have."""
    s = state(["7H 8H", "2D 3D"], phase="draw", stock="5C", discard="9H KD")
    reject(s, "take 7H 8H 9H", "take_not_allowed")  # valid meld, but 9H is not the top
    reject(s, "take 2S 3S 4S", "take_not_allowed")  # cards not in hand
    reject(s, "take 7H 8H 9S", "take_not_allowed")  # invalid meld
    reject(s, "take 6H 7H 8H", "take_not_allowed")  # would also leave no card


def test_precedence_take_card_not_in_hand_before_invalid_meld() -> None:
    s = state(["7H 8H QS", "2D 3D"], phase="draw", stock="5C", discard="KD")
    reject(s, "take KD QD JD", "card_not_in_hand")
    reject(s, "take KD 2C 3S", "card_not_in_hand")  # invalid too
    reject(s, "take KD KD KS", "card_not_in_hand")  # only one KD lies on the pile


def test_precedence_take_invalid_meld_before_must_keep_card() -> None:
    s = state(["7H 8S", "2D 3D"], phase="draw", stock="5C", discard="9H")
    reject(s, "take 7H 8S 9H", "invalid_meld")


def test_precedence_card_not_in_hand_before_no_such_meld() -> None:
    s = play_phase()
    reject(s, "lay KC 5", "card_not_in_hand")
    reject(s, "swap 5 KC", "card_not_in_hand")


def test_precedence_no_such_meld_before_invalid_meld_and_must_keep() -> None:
    s = play_phase()
    reject(s, "lay 9C 2", "no_such_meld")  # 9C fits nothing
    reject(s, "swap 2 9C", "no_such_meld")
    one = state(["8S", "2D 3D"], melds=[["run 5S 6S 7S"], []], stock="5C")
    reject(one, "lay 8S 2", "no_such_meld")  # also the last card


def test_precedence_invalid_meld_before_must_keep_card() -> None:
    s = state(["5H 6H 8D", "2D 3D"], stock="5C")
    reject(s, "meld 5H 6H 8D", "invalid_meld")  # invalid and would use every card
    one = state(["9H", "2D 3D"], melds=[["run 5S 6S 7S"], []], stock="5C")
    reject(one, "lay 9H 1", "invalid_meld")
    swap = state(["9H", "2D 3D"], melds=[["run 5S X 7S"], []], stock="5C")
    reject(swap, "swap 1 9H", "invalid_meld")


def test_precedence_invalid_join_is_invalid_meld_even_with_last_cards() -> None:
    """F7: a set that would become invalid by joining (R5.4) is invalid_meld."""
    six = "set 7S 7S 7H 7H 7D 7D"
    s = state(["7C 7C X", "2D 3D"], melds=[[six], []], stock="5C")
    reject(s, "meld 7C 7C X", "invalid_meld")


def test_precedence_valid_but_leaves_no_card_is_must_keep_card() -> None:
    """F7: a take, meld, lay or swap that is valid but would leave no card is must_keep_card."""
    take = state(["7H 8H", "2D 3D"], phase="draw", stock="5C", discard="KD 9H")
    reject(take, "take 7H 8H 9H", "must_keep_card")
    meld = state(["7H 8H 9H", "2D 3D"], stock="5C")
    reject(meld, "meld 7H 8H 9H", "must_keep_card")
    lay = state(["8S", "2D 3D"], melds=[["run 5S 6S 7S"], []], stock="5C")
    reject(lay, "lay 8S 1", "must_keep_card")
    swap = state(["6S", "2D 3D"], melds=[["run 5S X 7S"], []], stock="5C")
    reject(swap, "swap 1 6S", "must_keep_card")
    join = state(["7C 7C X", "2D 3D"], melds=[["set 7S 7H 7D"], []], stock="5C")
    reject(join, "meld 7C 7C X", "must_keep_card")  # the join itself is valid


def test_f7_notation_error_is_syntax_everywhere() -> None:
    with pytest.raises(NotationError):
        play_phase().push("lay 5H 1 low")


def test_f7_meld_without_natural_is_invalid_meld() -> None:
    """R5.3: every meld needs a natural; `meld X X X` is notation-valid (no single natural)."""
    s = state(["X X X 2C", "2D 3D"], stock="5C")
    reject(s, "meld X X X", "invalid_meld")
    reject(s, "meld set X X X", "invalid_meld")
    reject(s, "meld run X X X", "invalid_meld")


def test_f2_joker_run_out_of_ring_order_is_invalid_meld_in_a_state() -> None:
    """F2: a run that holds a joker must be written in ascending ring order."""
    s = state(["9H X 7H 2C", "2D 3D"], stock="5C")
    reject(s, "meld 9H X 7H", "invalid_meld")
    reject(s, "meld X 9H 7H", "invalid_meld")
    s.push("meld 7H X 9H")
    assert str(s.melds[0][0].stands_for(1)) == "8H"


def test_f2_contradicting_prefix_is_invalid_meld_in_a_state() -> None:
    s = state(["7H 8H 9H 7S 7D 2C", "2D 3D"], stock="5C")
    reject(s, "meld set 7H 8H 9H", "invalid_meld")
    reject(s, "meld run 7H 7S 7D", "invalid_meld")
    s.push("meld run 9h 7H 8H")
    assert [str(c) for c in s.melds[0][0].cards] == ["7H", "8H", "9H"]
    assert s.history[-1] == (0, "meld 7H 8H 9H")  # canonical: no prefix needed


def test_f2_move_objects_are_held_to_the_notation() -> None:
    """Moves built with the constructors (bots, tests) obey F2 like parsed text: what push
    accepts is always written to the history in notation that replays. A `swap` of a joker
    (R6 swaps in a natural) and meld number 0 were accepted and recorded as 'swap 1 X' and
    'lay 7H 0'; malformed objects raised IndexError."""
    s = state(["X 7H 2C 5D", "2D 3D"], melds=[["set AS AH X", "run 4H 5H 6H"], []], stock="5C")
    reject(s, Move.swap(1, JOKER), "syntax")
    reject(s, Move.lay(Card.parse("7H"), 0), "syntax")
    reject(s, Move("lay", (Card.parse("7H"),), 2, "low"), "syntax")
    reject(s, Move("fly"), "syntax")
    reject(s, Move("discard", ()), "syntax")
    reject(s, Move("lay", (), 1), "syntax")
    reject(s, Move("meld", (Card.parse("7H"), JOKER, JOKER)), "syntax")
    done = s.push(Move.lay(Card.parse("7H"), 2))
    assert str(done) == "lay 7H 2"
    assert s.history[-1] == (0, "lay 7H 2")
