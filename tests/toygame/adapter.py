"""The toy game's service adapter: the core :class:`~service.games.adapter.Game` and
:class:`~service.games.adapter.Tables` only (no house rules, no daily challenge, no analysis, no
lesson), in the service's terms for tests/toygame/engine/."""

from __future__ import annotations

from typing import Any, Final

from engine.core.errors import IllegalMoveError
from engine.core.live import MatchSession
from engine.core.records import Seat, commitment, parse_seed
from service.games.adapter import (
    TABLES,
    Capability,
    Events,
    NoHint,
    Pages,
    SeedSource,
    Session,
    TableForm,
    Tables,
)
from tests.toygame.engine.game import ENGINE_VERSION, LEVELS, NAME, Match, State, replay


class ThreesSession(MatchSession[Match]):
    """A game of threes as a table's session: one seed deals it, revealed at its end."""


def _match(session: Session) -> Match:
    assert isinstance(session, ThreesSession)
    return session.match


class Threes:
    """Threes at two-seat tables: what the service needs of it, nothing more."""

    name: Final = NAME
    title: Final = "Threes"
    engine_version: Final = ENGINE_VERSION
    offers: Final[tuple[Capability[Any], ...]] = (TABLES,)
    marked: Final = True
    pages: Final = Pages(prefix=f"/{NAME}", rules=f"/rules/{NAME}")
    badges: Final[tuple[tuple[str, str], ...]] = ()
    levels: Final = LEVELS
    default_level: Final = "plain"
    seat_counts: Final = (2,)
    hints: Final = False
    form: Final = TableForm(lead=f"{NAME}.newLead", versus_bot=True)
    repeatable: Final = False
    view_lists_moves: Final = False
    table_fields: Final[dict[str, Any]] = {}

    def preload(self) -> None:
        return None

    def seats_refused(self, players: int) -> str | None:
        return None if players == 2 else "threes has two seats"

    def hint(self, session: Session, seat: int) -> dict[str, Any]:
        raise NoHint("hints_off", "threes offers no hint")

    def rules_of(self, players: int, options: dict[str, bool]) -> None:
        return None

    def start(
        self, rules: Any, seats: tuple[Seat, ...], new_seed: SeedSource
    ) -> tuple[Session, Events]:
        if len(seats) != 2:
            raise IllegalMoveError("bad_value", "threes has two seats", seats)
        match = Match.start(new_seed(), seats)
        return ThreesSession(match), list(match.moves)

    def load_session(self, data: dict[str, Any]) -> Session:
        return ThreesSession(Match.from_json(data))

    def in_turn(self, move: str) -> bool:
        return True

    def facts(self, session: Session, seat: int | None) -> dict[str, Any]:
        match = _match(session)
        result = match.result_json()
        rounds = []
        if result is not None:
            rounds.append(
                {
                    "round": 1,
                    "dealer": 0,
                    "cut": None,
                    "commitment": commitment(match.seed),
                    "scores": result["totals"],
                    "end": result["end"],
                    "winner": result["winner"],
                    "seed": match.seed.hex(),  # revealed at the end
                }
            )
        return {
            "round": 1,
            "dealer": 0,
            "turn": match.to_move(),
            "totals": result["totals"] if result else [0, 0],
            "commitment": commitment(match.seed),
            "rounds": rounds,
            "result": result,
            "view": None if seat is None else match.view(seat).to_json(),
        }

    def face_down(self, session: Session, seq: int) -> bool:
        return False

    def hidden(self, move: str) -> str:
        return move

    def record(self, session: Session, seats: tuple[Seat, ...]) -> dict[str, Any]:
        return _match(session).to_record(reveal_seed=True)

    def match_seed(self, session: Session) -> str:
        return _match(session).seed.hex()

    def table_steps(self, record: dict[str, Any]) -> dict[str, Any]:
        match = replay(record)
        state = State.new(parse_seed(record["seed"]))
        positions = []
        for seat, move in match.moves:
            state.push(move, seat)
            positions.append(state.to_position())
        return {"record": record, "positions": positions}


#: Typed as the protocol it declares, so the type checker holds the adapter to it.
ADAPTER: Final[Tables] = Threes()

__all__ = ["ADAPTER", "Threes", "ThreesSession"]
