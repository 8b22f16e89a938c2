"""Live play, shared by every game: a human's move, then every bot's until a human must move
(R10, G9), the turn timer's stand-in (R9), and a one-seed match as a table's session.

A game's live round or match subclasses :class:`LivePlay` and says only how it applies a move,
whose turn it is and what a bot answers; the loop is written once here. :class:`MatchSession`
wraps a match that one seed deals whole (Gin, G3) as the tables' session: its events are its
moves, and no round waits for a seed.

Deferred levels: a bot whose decision takes long (the Meister's play-outs, up to about 1.5 s) does
not move inside the request that woke it. Every loop takes ``defer``, a collection of levels, and
stops before a bot of one of them is to move; :meth:`LivePlay.play_bot` then plays that bot's move
(and the other bots' answers, up to the next deferred bot or human), one step at a time, from the
bots' worker (docs/TABLES.md "Bots off the request"). The moves are the same either way: a bot is
a function of its seat's view.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine.core.errors import IllegalMoveError
from engine.core.records import Seat

MoveT = TypeVar("MoveT")
#: The moves made, in order: (seat, the move in canonical notation).
Events = list[tuple[int, str]]
#: Who draws a round's seed when one is needed (the service's CSPRNG); unused by one-seed matches.
SeedSource = Callable[[], bytes]
#: Levels whose moves are deferred (none: every bot moves at once).
NOT_DEFERRED: Collection[str] = ()


class LivePlay(Generic[MoveT]):
    """The human-then-bots loop over a game's moves. ``seats`` says who is a bot (and its
    level); :attr:`TIMER_LEVEL` is the bot that finishes a human's turn when its time runs out.
    A game defines :meth:`to_move`, :meth:`_apply` and :meth:`_bot_move`; the other hooks have
    defaults."""

    __slots__ = ()

    TIMER_LEVEL: ClassVar[str]
    seats: tuple[Seat, ...]

    def to_move(self) -> int | None:
        """The seat whose move it is, or None once nothing more can be played."""
        raise NotImplementedError

    def _apply(self, move: MoveT | str, seat: int) -> MoveT:
        """Validate and apply one move of ``seat`` (raising, changing nothing, when illegal)."""
        raise NotImplementedError

    def _bot_move(self, level: str, seat: int) -> MoveT:
        """Bot ``level``'s move for ``seat``, from that seat's view only."""
        raise NotImplementedError

    def _refuse(self, move: MoveT | str, seat: int) -> None:
        """Raise when ``seat`` may not play ``move`` as a human (no such seat, or a bot's)."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            raise IllegalMoveError(
                "not_your_turn", f"seat {seat} is not a human seat", str(move), self._context()
            )

    def _context(self) -> Any:
        """What an illegal move's error names as the state it was tried in."""
        return None

    def _turn_mark(self) -> object:
        """What must stay the same for a turn to go on (a new hand is a new turn)."""
        return None

    def _ends_turn(self, done: MoveT) -> bool:
        """Whether ``done`` ends its seat's turn even if that seat moves next."""
        return False

    def play(self, move: MoveT | str, seat: int, defer: Collection[str] = NOT_DEFERRED) -> Events:
        """A human's move, then every bot move until a human must move, play ends or a bot of a
        ``defer`` level is to move.

        Returns every move made, the human's first. Raises on an illegal move, changing nothing.
        """
        self._refuse(move, seat)
        done = self._apply(move, seat)
        return [(seat, str(done)), *self.run_bots(defer)]

    def run_bots(self, defer: Collection[str] = NOT_DEFERRED) -> Events:
        """Every bot move until a human must move, play ends or a bot of a ``defer`` level is to
        move."""
        events: Events = []
        seats = self.seats
        seat = self.to_move()
        while seat is not None and seats[seat].kind == "bot":
            level = seats[seat].level
            assert level is not None
            if level in defer:
                break
            done = self._apply(self._bot_move(level, seat), seat)
            events.append((seat, str(done)))
            seat = self.to_move()
        return events

    def bot_due(self) -> bool:
        """Whether a bot is to move (play stopped before a deferred one: :meth:`play_bot`)."""
        seat = self.to_move()
        return seat is not None and self.seats[seat].kind == "bot"

    def play_bot(self, defer: Collection[str] = NOT_DEFERRED) -> Events:
        """The move of the bot that is to move, whatever its level, then the other bots' until
        a human must move, play ends or a bot of a ``defer`` level is to move again; nothing
        when no bot is to move. The bots' worker calls it one step at a time."""
        seat = self.to_move()
        if seat is None or self.seats[seat].kind != "bot":
            return []
        level = self.seats[seat].level
        assert level is not None
        done = self._apply(self._bot_move(level, seat), seat)
        return [(seat, str(done)), *self.run_bots(defer)]

    def autoplay_turn(self, seat: int, defer: Collection[str] = NOT_DEFERRED) -> Events:
        """The turn timer (R9): the human's time ran out, so the :attr:`TIMER_LEVEL` bot finishes
        that seat's turn (its moves are ordinary moves of the record); then the bots answer
        (up to a bot of a ``defer`` level)."""
        if self.to_move() != seat:
            raise IllegalMoveError(
                "not_your_turn", f"it is not seat {seat}'s turn", None, self._context()
            )
        events: Events = []
        mark = self._turn_mark()
        while self.to_move() == seat and self._turn_mark() == mark:
            done = self._apply(self._bot_move(self.TIMER_LEVEL, seat), seat)
            events.append((seat, str(done)))
            if self._ends_turn(done):
                break
        return events + self.run_bots(defer)

    def resign(self, seat: int) -> Events:
        """``seat`` gives up (R8, G8's ``resign``): play ends, and no bot answers."""
        done = self._apply("resign", seat)
        return [(seat, str(done))]


class SeededMatch(Protocol):
    """A match one seed deals whole, in live play (a :class:`LivePlay`): what
    :class:`MatchSession` needs of it."""

    @property
    def moves(self) -> Events:
        """Every move of the match so far."""
        ...

    @property
    def finished(self) -> bool: ...

    @property
    def round(self) -> int:
        """The round (a hand) being played."""
        ...

    def to_move(self) -> int | None: ...

    def play(self, move: str, seat: int, defer: Collection[str] = ...) -> Events: ...

    def autoplay_turn(self, seat: int, defer: Collection[str] = ...) -> Events: ...

    def play_bot(self, defer: Collection[str] = ...) -> Events: ...

    def bot_due(self) -> bool: ...

    def resign(self, seat: int) -> Events: ...

    def to_json(self) -> dict[str, Any]: ...


MatchT = TypeVar("MatchT", bound=SeededMatch)


class MatchSession(Generic[MatchT]):
    """A one-seed match as a table's session (service/games/adapter.py's ``Session``): its
    commitment stands for the whole match, every event is a move, and a bot keeps its level
    (the record names each seat's level once, so a change in play would not replay). The bots
    of a ``defer`` level move only in :meth:`play_bot` (the bots' worker)."""

    #: Why a bot's level cannot change (the ``bad_value`` error's message).
    LEVEL_KEPT: ClassVar[str] = "a bot keeps its level once the match runs"

    def __init__(self, match: MatchT, defer: Collection[str] = NOT_DEFERRED) -> None:
        self.match = match
        self.defer = defer

    @property
    def seq(self) -> int:
        return len(self.match.moves)

    @property
    def finished(self) -> bool:
        return self.match.finished

    @property
    def turn(self) -> int | None:
        return self.match.to_move()

    @property
    def round(self) -> int:
        return self.match.round

    @property
    def bot_due(self) -> bool:
        return self.match.bot_due()

    def play(self, text: str, seat: int, new_seed: SeedSource) -> Events:
        return self.match.play(text, seat, self.defer)

    def autoplay_turn(self, seat: int, new_seed: SeedSource) -> Events:
        return self.match.autoplay_turn(seat, self.defer)

    def play_bot(self, new_seed: SeedSource) -> Events:
        return self.match.play_bot(self.defer)

    def resign(self, seat: int) -> Events:
        return self.match.resign(seat)

    def set_level(self, seat: int, level: str) -> None:
        raise IllegalMoveError("bad_value", self.LEVEL_KEPT, level)

    def to_json(self) -> dict[str, Any]:
        return self.match.to_json()


__all__ = ["NOT_DEFERRED", "Events", "LivePlay", "MatchSession", "SeedSource", "SeededMatch"]
