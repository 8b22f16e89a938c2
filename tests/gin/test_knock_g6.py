"""G6: knocking with declared melds, gin, the defender's melds and lay-offs, and the scores —
with each illegal knock or defence rejected by its G9 code and nothing changed."""

from __future__ import annotations

import pytest

from engine.gin.state import HandState
from tests.support.gin_positions import pts, reject, state

# Seat 0 to discard with 11 cards: melds 5S 6S 7S | 8H 8D 8C | 2C 3C 4C, deadwood AH KD.
KNOCKER = "5S 6S 7S 8H 8D 8C 2C 3C 4C AH KD"
# Seat 1: its own run 3H 4H 5H, 8S 9S to lay off on the run of spades, 42 points dead.
DEFENDER = "8S 9S KH KS QC JC 2D 3H 4H 5H"
KNOCK = "knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C"


def knocked() -> HandState:
    s = state(KNOCKER, DEFENDER)
    s.push(KNOCK)
    return s


def test_g6_knock_then_the_defender_lays_off_successively() -> None:
    s = knocked()
    assert (s.turn, s.phase) == (1, "defend")
    assert s.knock is not None and s.knock.deadwood == 1
    s.push("defend 3H 4H 5H / 8S@1 9S@1")
    assert s.outcome is not None
    dead = pts("KH KS QC JC 2D")
    assert (s.outcome.end, s.outcome.winner) == ("knock", 0)
    assert s.outcome.scores == (dead - 1, 0)
    assert s.outcome.deadwood == (1, dead)


def test_g6_lay_offs_apply_in_the_order_given() -> None:
    s = knocked()
    reject(s, "defend / 9S@1 8S@1", "invalid_meld")  # 9S does not touch 5S 6S 7S yet


def test_g6_defender_declaring_nothing_keeps_all_as_deadwood() -> None:
    s = knocked()
    s.push("defend")
    assert s.outcome is not None and s.outcome.deadwood == (1, pts(DEFENDER))
    assert s.outcome.scores == (pts(DEFENDER) - 1, 0)


def test_g6_undercut_at_a_tie_gives_the_defender_25() -> None:
    s = state("5S 6S 7S 8H 8D 8C 2C 3C 4C TD KD", "AH 2H 3H 4D 5D 6D 9C TC JC TH")
    s.push("knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C")
    s.push("defend AH 2H 3H | 4D 5D 6D | 9C TC JC")
    assert s.outcome is not None
    assert (s.outcome.end, s.outcome.winner, s.outcome.scores) == ("undercut", 1, (0, 25))


def test_g6_undercut_scores_25_plus_the_difference() -> None:
    s = state("5S 6S 7S 8H 8D 8C 2C 3C 4C TD KD", "AH 2H 3H 4D 5D 6D 9C TC JC 2S")
    s.push("knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C")
    s.push("defend AH 2H 3H | 4D 5D 6D | 9C TC JC")
    assert s.outcome is not None and s.outcome.scores == (0, 25 + 10 - 2)


GIN_HAND = "5S 6S 7S 8S 8H 8D 8C 2C 3C 4C KD"
GIN_DEFENDER = "9S TS AH 2H 3H KH QH JD 5D 6H"


def test_g6_gin_scores_25_plus_the_defenders_deadwood_without_lay_offs() -> None:
    s = state(GIN_HAND, GIN_DEFENDER)
    s.push("knock KD 5S 6S 7S 8S | 8H 8D 8C | 2C 3C 4C")
    assert s.knock is not None and s.knock.gin
    reject(s, "defend AH 2H 3H / 9S@1", "invalid_meld")
    s.push("defend AH 2H 3H")
    assert s.outcome is not None
    dead = pts("9S TS KH QH JD 5D 6H")
    assert (s.outcome.end, s.outcome.winner, s.outcome.scores) == ("gin", 0, (25 + dead, 0))


def test_g6_the_declared_groups_count_not_the_best_arrangement() -> None:
    """G6: deadwood of the declared groups. 5S-8S | 8H 8D 8C … is gin, but declaring the run
    5S 6S 7S and the set of four eights also leaves 0; declaring only two melds leaves 9+… ."""
    s = state(GIN_HAND, GIN_DEFENDER)
    reject(s, "knock KD 5S 6S 7S 8S | 2C 3C 4C", "knock_not_allowed")  # 8H 8D 8C left: 24
    s.push("knock KD 5S 6S 7S | 8S 8H 8D 8C | 2C 3C 4C")
    assert s.knock is not None and s.knock.deadwood == 0


def test_g6_a_worse_but_legal_declaration_is_kept() -> None:
    # AS 2S 3S | 4S 4H 4D leaves 5S … ; the engine does not swap in a better arrangement.
    s = state("AS 2S 3S 4S 4H 4D 5H 6H 7H 2D KC", "8S 9S KH KS QC JC 2C 3H 4C 5C")
    s.push("knock KC AS 2S 3S | 4H 4D 4S | 5H 6H 7H")
    assert s.knock is not None and s.knock.deadwood == 2


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ("knock AH 5S 6S 7S | 8H 8D 8C", "knock_not_allowed"),  # 2C 3C 4C KD left: 19
        ("knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C", "invalid_meld"),  # not a meld
        ("knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C AH", "invalid_meld"),
        ("knock KD 5S 6S 7S | 7S 8H 8D 8C | 2C 3C 4C", "invalid_meld"),  # a card twice
        ("knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C | KD KH KS", "card_not_in_hand"),
        ("knock KD 5S 6S 7S KD | 8H 8D 8C | 2C 3C 4C", "invalid_meld"),  # the knock card
        ("knock QD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C", "card_not_in_hand"),
        ("knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C |", "syntax"),
        ("knock", "syntax"),
    ],
)
def test_g6_illegal_knocks(move: str, code: str) -> None:
    reject(state(KNOCKER, DEFENDER), move, code)


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ("defend / 8S@4", "no_such_meld"),
        ("defend / KH@1", "invalid_meld"),
        ("defend / 8S@1 8S@1", "invalid_meld"),
        ("defend 3H 4H 5H / 5H@1", "invalid_meld"),  # in a meld and laid off
        ("defend 3H 4H", "invalid_meld"),
        ("defend 3H 4H 5H 6H", "card_not_in_hand"),
        ("defend / 4S@1", "card_not_in_hand"),
        ("defend / 4S@9", "card_not_in_hand"),  # card_not_in_hand wins over no_such_meld
        ("defend 4S 5S 6S / 8S@9", "card_not_in_hand"),  # … for a group's card too
        ("defend 3H 4H / 8S@9", "no_such_meld"),  # no_such_meld wins over invalid_meld
        ("defend / 8S@0", "syntax"),
        ("defend / 8S@-1", "syntax"),
        ("defend / 8S@1234567890", "syntax"),
        ("defend / 8S", "syntax"),
        ("defend 3H 4H 5H / 8S@1 / 9S@1", "syntax"),
    ],
)
def test_g6_illegal_defences(move: str, code: str) -> None:
    reject(knocked(), move, code)


def test_g6_knock_only_by_the_seat_to_move_and_once() -> None:
    s = state(KNOCKER, DEFENDER)
    reject(s, KNOCK, "not_your_turn", seat=1)
    s.push(KNOCK)
    reject(s, KNOCK, "wrong_phase", seat=1)
    reject(s, "defend", "not_your_turn", seat=0)
    s.push("defend")
    reject(s, "defend", "round_over", seat=1)


def test_g4_knock_right_after_taking_the_upcard() -> None:
    """G4: a player who took the upcard ends its turn as in G5 — knocking included."""
    s = state(
        "5S 6S 7S 8H 8D 8C 2C 3C AH KD",
        DEFENDER,
        discard="4C",
        phase="upcard",
        turn=0,
        dealer=1,
        stock=None,
    )
    s.push("take")
    s.push("knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C")
    assert s.knock is not None and s.knock.deadwood == 1
