"""The Meister off the request (issue 40 item 8, docs/TABLES.md "Bots off the request"): a Gin
match whose Meister seat is deferred stops before each of its moves, and ``play_bot`` plays
exactly the moves the engine's Meister plays at once on the same views (G9: a bot is a function
of its seat's view), so a table's record replays as ever."""

from __future__ import annotations

from engine.core.records import Seat
from engine.gin.bots import choose_move
from engine.gin.match import GinMatch
from tests.support.gin_matches import seed

MEISTER = frozenset({"meister"})
SEATS = (Seat("human", name="Ada"), Seat("bot", level="meister"))


def first_hand(deferred: bool, k: str) -> tuple[list[tuple[int, str]], int]:
    """Hand 1 with Ada playing as the plain bot would (and the bots' answers to its last move,
    into hand 2, as a move's answer has them); the moves and how often play stopped before the
    Meister (deferred)."""
    defer = MEISTER if deferred else frozenset()
    match = GinMatch.start(seed(k), SEATS, defer=defer)
    stops = 0
    while not match.finished and (match.hand_no == 1 or match.bot_due()):
        if match.bot_due():
            assert deferred  # G9: only a deferred level leaves its move to play_bot
            stops += 1
            match.play_bot(defer)
            continue
        assert match.to_move() == 0
        match.play(choose_move("plain", match.view(0)), 0, defer)
    return match.moves, stops


def test_g9_the_deferred_meister_plays_the_engines_moves() -> None:
    for k in ("meister-a",):
        inline, none = first_hand(False, k)
        deferred, stops = first_hand(True, k)
        assert none == 0 and stops > 0
        assert deferred == inline, k


def test_g9_play_bot_with_no_bot_due_plays_nothing() -> None:
    match = GinMatch.start(seed("meister-c"), SEATS, defer=MEISTER)
    while match.bot_due():
        match.play_bot(MEISTER)
    assert match.to_move() == 0 and match.play_bot(MEISTER) == []
