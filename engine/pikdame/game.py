"""A round with its seats and deal facts in live play: the service plays through :meth:`Game.play`
(a human move, then every bot move until a human must move, R10) and stores it with
:meth:`Game.to_json`; its record (F6) comes from :mod:`engine.pikdame.record`.
"""

from __future__ import annotations

from typing import Any, Final

from engine.core.game import GameType
from engine.core.live import LivePlay
from engine.core.records import commitment
from engine.pikdame import record
from engine.pikdame.errors import FormatError, IllegalMoveError
from engine.pikdame.moves import Move
from engine.pikdame.releases import Chooser, bots_of
from engine.pikdame.rules import LEVELS, Rules, Seat
from engine.pikdame.state import State, deal_for
from engine.pikdame.tausende import parse as parse_tausende
from engine.pikdame.version import engine_version
from engine.pikdame.view import View, view

TIMER_LEVEL: Final = "advanced"  # R9: who plays a human's turn when the timer runs out


class PikDame:
    """Pik Dame as every game package offers itself (:class:`engine.core.game.GameType`); with
    ``ruleset="tausende"`` it is Tausende (R12), whose rules name the ruleset."""

    def __init__(self, name: str = "pikdame") -> None:
        self.name = name

    def new_round(self, seed: bytes, rules: Rules, dealer: int) -> State:
        """The state right after the deal (F3) with an automatic cut; Tausende's game type deals
        Tausende whatever ruleset ``rules`` name (R12.1)."""
        if self.name == "tausende" and not rules.tausende:
            rules = Rules(rules.players, strict_1000=rules.strict_1000, ruleset="tausende")
        return State.new_round(seed, rules, dealer)

    def from_position(self, doc: Any) -> State:
        return State.from_position(doc)

    def parse_move(self, text: str) -> Move:
        return parse_tausende(text) if self.name == "tausende" else Move.parse(text)

    def view(self, state: State, seat: int) -> View:
        return view(state, seat)


PIKDAME: Final[GameType[Rules, State, View, Move]] = PikDame()
#: Tausende (R12) for tables: the same engine, its own notation (docs/TAUSENDE.md).
TAUSENDE: Final[GameType[Rules, State, View, Move]] = PikDame("tausende")


class Game(LivePlay[Move]):
    """One round in play: rules, seats, deal facts and the live state (history included). Live
    play (a human's move, then the bots', R10) is :class:`engine.core.live.LivePlay`'s."""

    __slots__ = ("commitment", "cut", "dealer", "engine", "rules", "seats", "state")

    TIMER_LEVEL = TIMER_LEVEL

    def __init__(
        self,
        rules: Rules,
        seats: tuple[Seat, ...],
        dealer: int,
        cut: int,
        commitment: str,
        state: State,
        engine: str | None = None,
    ) -> None:
        # the version whose bots play this game (F6 ``engine``): a deploy mid-game changes nothing
        self.engine = engine or engine_version(rules.tausende)
        self.rules = rules
        self.seats = seats
        self.dealer = dealer
        self.cut = cut
        self.commitment = commitment
        self.state = state

    @staticmethod
    def start(
        seed: bytes, rules: Rules, seats: tuple[Seat, ...], dealer: int, cut: int | None = None
    ) -> Game:
        if len(seats) != rules.players:
            raise FormatError("one seat per player", seats)
        d = deal_for(seed, rules, dealer, cut)
        game = Game(
            rules, seats, dealer, d.cut, commitment(seed), State.from_deal(d, rules, dealer)
        )
        game.run_bots()
        return game

    @property
    def finished(self) -> bool:
        return self.state.outcome is not None

    def to_move(self) -> int | None:
        """The seat to move, or None once the round is over."""
        state = self.state
        return None if state.outcome is not None else state.turn

    # -- live play (engine.core.live): the moves, a bot's answer -------------------------------

    def _refuse(self, move: Move | str, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise IllegalMoveError("not_your_turn", f"there is no seat {seat}", move, self.state)
        if self.seats[seat].kind != "human":
            raise IllegalMoveError("not_your_turn", f"seat {seat} is a bot", move, self.state)

    def _apply(self, move: Move | str, seat: int) -> Move:
        return self.state.push(move, seat)

    def _bot_move(self, level: str, seat: int) -> Move:
        return self._bots(level, view(self.state, seat))

    def _context(self) -> State:
        return self.state

    @property
    def _bots(self) -> Chooser:
        """The bots of the version that began this game."""
        return bots_of(self.engine)

    # -- documents -----------------------------------------------------------------------------

    def to_record(self, seed: bytes | None = None) -> dict[str, Any]:
        """The game record (F6); ``seed`` is written only when given (after the day closed)."""
        return record.write(
            self.rules,
            self.seats,
            record.DealFacts(self.dealer, self.cut, self.commitment),
            self.state.history,
            self.state.outcome,
            seed,
            self.engine,
        )

    def to_json(self) -> dict[str, Any]:
        """Storage form for the service (server-side only: it holds every hidden card)."""
        return {"record": self.to_record(), "position": self.state.to_position()}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Game:
        doc = data["record"]
        state = State.from_position(data["position"])
        state.history = [(m["seat"], m["move"]) for m in doc["moves"]]
        deal = doc["deal"]
        seats = tuple(Seat.from_json(s, LEVELS) for s in doc["seats"])
        engine = doc.get("engine")
        return Game(
            state.rules, seats, deal["dealer"], deal["cut"], deal["commitment"], state, engine
        )


__all__ = ["PIKDAME", "TAUSENDE", "TIMER_LEVEL", "Game", "PikDame", "Seat", "commitment"]
