"""The bots' building blocks on hand-made positions (F5): take options (R4.1, R5.4), what a take
leaves in hand, unseen cards (R10), discards, going out (R4.3) and the zen joker hold-back."""

from __future__ import annotations

from typing import Any

from engine.core.cards import Card
from engine.pikdame.bots import choose_move
from engine.pikdame.bots.evaluate import PLAIN, choose_discard
from engine.pikdame.bots.knowledge import after_take, take_options, unseen
from engine.pikdame.bots.zen import ZEN
from engine.pikdame.cards import COPIES
from engine.pikdame.moves import Move
from engine.pikdame.state import State
from engine.pikdame.view import View, view

OTHERS = [["2S", "3S", "4D"], ["9C", "TC", "JD"], ["4H", "6D", "KC"]]
STOCK = ["4C", "8D", "QH", "2H", "3C", "6C", "8C", "JS", "QC", "KH"]


def position(
    hand: list[str],
    *,
    phase: str = "draw",
    melds: list[dict[str, Any]] | None = None,
    discard: list[str] | None = None,
    stock: list[str] | None = None,
) -> State:
    """Seat 0 to move in a 4-seat R11 round; the other hands are small and fixed."""
    return State.from_position(
        {
            "format": "pikdame-position/1",
            "rules": {"players": 4, "hand_out_double": True, "strict_1000": False},
            "round": 1,
            "dealer": 3,
            "turn": 0,
            "phase": phase,
            "opened_at_turn_start": bool(melds),
            "hands": [hand, *OTHERS],
            "melds": [melds or [], [], [], []],
            "stock": stock if stock is not None else STOCK,
            "discard": discard or [],
            "removed": [],
            "totals": [0, 0, 0, 0],
        }
    )


def names(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def test_take_needs_a_meld_with_the_top_card_and_a_card_left() -> None:
    # R4.1: 9H on top meets 7H 8H; with only those two in hand the take would empty the hand.
    v = view(position(["7H", "8H", "2C"], discard=["KD", "9H"]), 0)
    assert [names(m.cards) for m in take_options(v)] == [["7H", "8H", "9H"]]
    v = view(position(["7H", "8H"], discard=["KD", "9H"]), 0)
    assert take_options(v) == []


def test_take_set_must_join_the_own_set_validly() -> None:
    # R5.4: the seat's set of fives already has 7 cards; a take set 5C X X would make it 10.
    own = {"kind": "set", "cards": ["5S", "5H", "5D", "5C", "5S", "5H", "5D"]}
    v = view(position(["X", "X", "2D"], melds=[own], discard=["5C"]), 0)
    options = take_options(v)
    assert options and all(m.kind == "run" for m in options)


def test_after_take_the_rest_of_the_pile_goes_to_hand() -> None:
    v = view(position(["7H", "8H", "2C"], discard=["KD", "AS", "9H"]), 0)
    (meld,) = take_options(v)
    hand, melds = after_take(v, meld)
    assert names(hand) == ["AS", "KD", "2C"]  # canonical order (F5): by suit, then rank
    assert [names(m.cards) for m in melds] == [["7H", "8H", "9H"]]


def test_unseen_counts_every_card_the_seat_cannot_see() -> None:
    own = {"kind": "run", "cards": ["5H", "6H", "7H"]}
    v = view(position(["7H", "X"], phase="play", melds=[own], discard=["8S"]), 0)
    left = unseen(v)
    assert left[Card.parse("7H")] == 0  # one in hand, one in the meld
    assert left[Card.parse("8S")] == 1  # one on the pile
    assert left[Card.parse("5H")] == COPIES[Card.parse("5H")] - 1
    assert left[Card.parse("X")] == 5
    assert left[Card.parse("2S")] == 2  # in another hand: unseen to this seat (R10)


def test_advanced_discard_keeps_a_pair_and_a_joker() -> None:
    hand = [Card.parse(t) for t in ["7S", "7D", "KD", "X"]]
    seen = [2] * 52 + [4]
    assert str(choose_discard(hand, seen, 15, 0, False, PLAIN)) == "KD"


def turn(state: State) -> list[str]:
    """Every move of seat 0's turn, as its bot makes them."""
    done = []
    while state.outcome is None and state.turn == 0:
        done.append(str(state.push(choose_move("advanced", view(state, 0)), 0)))
    return done


def test_goes_out_when_everything_but_one_card_melds() -> None:
    # R4.3: meld the run, discard the last card face down: the round ends, seat 0 won.
    state = position(["7H", "8H", "9H", "2C"], phase="play")
    assert turn(state) == ["meld 7H 8H 9H", "discard 2C"]
    assert state.outcome is not None and state.outcome.winner == 0
    assert state.outcome.doubled  # R7.3: no meld at the start of the turn


def test_zen_holds_a_joker_that_advanced_lays_as_an_extra() -> None:
    own = {"kind": "run", "cards": ["5H", "6H", "7H"]}
    state = position(["X", "2C", "9D", "KS"], phase="play", melds=[own])
    v: View = view(state, 0)
    assert str(choose_move("advanced", v)) == "lay X 1"
    zen_move = choose_move("zen", v)
    assert zen_move.kind == "discard" and str(zen_move.cards[0]) != "X"
    assert ZEN.keep_jokers and not PLAIN.keep_jokers


def test_beginner_takes_a_small_pile_with_a_plain_meld() -> None:
    v = view(position(["7H", "8H", "2C"], discard=["KD", "9H"]), 0)
    assert choose_move("beginner", v) == Move.parse("take 7H 8H 9H")
