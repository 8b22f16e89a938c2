"""The Meister off the request in Pik Dame (R10, issue 40 item 8, docs/TABLES.md "Bots off the
request"): a whole game whose Meister seat is deferred stops before each of its moves; the
other bots answer at once, also after a deferred move (``play_bot``); and the moves are exactly
those of the same game with the Meister moving inline (a bot is a function of its seat's view)."""

from __future__ import annotations

from engine.pikdame.bots import choose_move
from engine.pikdame.match import Match
from engine.pikdame.rules import Rules, Seat
from engine.pikdame.view import view
from tests.support.tables import seeds

MEISTER = frozenset({"meister"})
SEATS = (Seat("human", name="Ada"), Seat("bot", level="meister"), Seat("bot", level="beginner"))
#: Ada's moves played (as the beginner bot would): a few turns of the first round
ADA_MOVES = 6


def game(deferred: bool) -> tuple[list[tuple[int, str]], int]:
    """Ada's first moves and every answer; how often play stopped before the Meister."""
    defer = MEISTER if deferred else frozenset()
    rules = Rules(3, False, False)
    new_seed = seeds("deferred-meister")
    match, events = Match.start(rules, SEATS, 2, new_seed, defer)
    stops = played = 0
    while played < ADA_MOVES or match.bot_due:
        if match.bot_due:
            assert deferred
            stops += 1
            answer = match.play_bot(new_seed)
            assert answer[0][0] == 1  # the Meister's move, then the others' (not another stop)
            events += answer
            continue
        assert match.turn == 0
        if match.awaiting_cut:
            events += match.play("cut 55", 0, new_seed)
        else:
            assert match.game is not None
            move = choose_move("beginner", view(match.game.state, 0))
            events += match.play(str(move), 0, new_seed)
        played += 1
    return events, stops


def test_r10_the_deferred_meister_plays_the_engines_moves() -> None:
    inline, none = game(False)
    deferred, stops = game(True)
    assert none == 0 and stops > 0
    assert deferred == inline
    assert any(seat == 2 for seat, _ in deferred)  # the beginner answered inline


def test_r10_a_deferred_match_stores_no_deferral() -> None:
    """``defer`` is the adapter's, never stored: a match read back moves its Meister inline
    unless its reader defers it too."""
    match, _ = Match.start(Rules(3, False, False), SEATS, 2, seeds("stored"), MEISTER)
    again = Match.from_json(match.to_json())
    assert again.defer == () and Match.from_json(match.to_json(), MEISTER).defer == MEISTER
