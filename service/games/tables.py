"""The games a table can hold, behind one interface (API.md "Tables": ``pikdame``, ``tausende``
(RULES.md R12, a ruleset of Pik Dame's engine) and ``gin``; a game plugs in by adding an entry to
:data:`GAMES`).

A :class:`TableGame` starts and reads a whole-game session; a :class:`Session` is what the table
service drives: moves by seat, the turn timer's autoplay, resign, bot levels, the caller's view
and the game's record. Seeds come from outside (the service's ``secrets``): no game draws any.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Protocol

from engine.core.errors import IllegalMoveError
from engine.gin.bots import LEVELS as GIN_LEVELS
from engine.gin.match import GinMatch
from engine.pikdame.hints import seat_hint
from engine.pikdame.match import Match
from engine.pikdame.rules import LEVELS, TAUSENDE_OPTIONS, Rules, Seat
from engine.pikdame.view import FACE_DOWN_DISCARD, view
from service.errors import NoHint

SeedSource = Callable[[], bytes]
Events = list[tuple[int, str]]


class Session(Protocol):
    """A whole game in play at a table (hidden cards inside: never sent as is)."""

    @property
    def seq(self) -> int:
        """Events so far (cuts and moves of every seat)."""
        ...

    @property
    def finished(self) -> bool: ...

    @property
    def turn(self) -> int | None: ...

    @property
    def round(self) -> int:
        """The round (Gin: the hand) being played or waiting for its cut."""
        ...

    def play(self, text: str, seat: int, new_seed: SeedSource) -> Events: ...

    def autoplay_turn(self, seat: int, new_seed: SeedSource) -> Events: ...

    def resign(self, seat: int) -> Events: ...

    def set_level(self, seat: int, level: str) -> None: ...

    def to_json(self) -> dict[str, Any]: ...


class TableGame(Protocol):
    """A game as tables offer it."""

    @property
    def name(self) -> str: ...

    @property
    def levels(self) -> tuple[str, ...]: ...

    @property
    def default_level(self) -> str: ...

    @property
    def hints(self) -> bool:
        """Whether the game offers a seat's hint (the tables' ``hints`` option)."""
        ...

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """How many seats a table of the game may have (the quick match's choices)."""
        ...

    def hint(self, session: Session, seat: int) -> dict[str, Any]:
        """``seat``'s hint (``{"moves", "points", "exact"}``) from its own view alone (R10);
        raises :class:`NoHint` when it is not that seat's play phase."""
        ...

    def rules_of(self, players: int, options: dict[str, bool]) -> Any: ...

    def start(
        self, rules: Any, seats: tuple[Seat, ...], new_seed: SeedSource
    ) -> tuple[Session, Events]: ...

    def load(self, data: dict[str, Any]) -> Session: ...

    def facts(self, session: Session, seat: int | None) -> dict[str, Any]:
        """T's game fields in ``seat``'s view (R10): round, dealer, totals, view, rounds …"""
        ...

    def face_down(self, session: Session, seq: int) -> bool:
        """Whether event ``seq`` (1-based) is a face-down going-out card (R4.3)."""
        ...

    def record(self, session: Session, seats: tuple[Seat, ...]) -> dict[str, Any]: ...


class PikDameTables:
    """Pik Dame to 1000 (engine.pikdame.match): ``cut K``, tie rounds, R8's end."""

    name: str = "pikdame"
    levels: Final = LEVELS
    default_level: Final = "advanced"  # R9's default
    options: tuple[str, ...] = ("hand_out_double", "strict_1000")
    hints: bool = True
    seat_counts: tuple[int, ...] = (2, 3, 4)  # R9 players

    def hint(self, session: Session, seat: int) -> dict[str, Any]:
        match = _match(session)
        game = match.game
        if match.finished or game is None or match.awaiting_cut or game.state.outcome is not None:
            raise NoHint("wrong_phase", "a hint is available in your play phase (R4.2)")
        seat_view = view(game.state, seat)  # the seat's own view only: no hidden card (R10)
        if seat_view.turn != seat:
            raise NoHint("not_your_turn", "a hint is available on your own turn")
        if seat_view.phase != "play":
            raise NoHint("wrong_phase", "draw or take first (R4.1), then ask for a hint")
        best = seat_hint(seat_view)
        return {"moves": list(best.moves), "points": best.points, "exact": best.exact}

    def rules_of(self, players: int, options: dict[str, bool]) -> Rules:
        return Rules(
            players, options.get("hand_out_double", False), options.get("strict_1000", False)
        )

    def start(
        self, rules: Any, seats: tuple[Seat, ...], new_seed: SeedSource
    ) -> tuple[Session, Events]:
        # R2: round 1's dealer is the last seat, so the creator (seat 0) starts and, with two
        # seats, also cuts; with more, the seat before the dealer cuts.
        return Match.start(rules, seats, rules.players - 1, new_seed)

    def load(self, data: dict[str, Any]) -> Session:
        return Match.from_json(data)

    def facts(self, session: Session, seat: int | None) -> dict[str, Any]:
        match = _match(session)
        game = match.game
        rounds = [
            {
                "round": r.round,
                "dealer": r.dealer,
                "cut": r.cut,
                "commitment": g.commitment,
                "scores": list(g.state.outcome.round_scores) if g.state.outcome else None,
                "end": g.state.outcome.end if g.state.outcome else None,
                # who went out (R4.3, null when the stock ran out or the game was resigned),
                # and whether hand_out_double (R9) doubled the round (R7.3): public once ended
                "winner": g.state.outcome.winner if g.state.outcome else None,
                "doubled": g.state.outcome.doubled if g.state.outcome else False,
                "totals": list(g.state.totals) if g.finished else None,
                "seed": r.seed.hex() if g.finished else None,  # revealed once the round ended
                "lucky": list(r.lucky),
            }
            for r, g in match.rounds
        ]
        seat_view = None
        if game is not None and seat is not None:
            seat_view = view(game.state, seat).to_json()
        lucky = list(match.rounds[-1][0].lucky) if match.rounds and not match.awaiting_cut else []
        return {
            "round": match.round,
            "dealer": match.dealer,
            "cutter": match.cutter,
            "awaiting_cut": match.awaiting_cut,
            "turn": match.turn,
            "lucky": lucky,
            "totals": match.totals,
            "commitment": match.commitment,
            "rounds": rounds,
            "result": match.result(),
            "view": seat_view,
        }

    def face_down(self, session: Session, seq: int) -> bool:
        match = _match(session)
        count = 0
        for _, game in match.rounds:
            count += 1 + len(game.state.history)  # the cut, then the round's moves
            outcome = game.state.outcome
            if seq == count and outcome is not None and outcome.end == "out":
                return True
            if seq <= count:
                return False
        return False

    def record(self, session: Session, seats: tuple[Seat, ...]) -> dict[str, Any]:
        return _match(session).to_record(seats)


class TausendeTables(PikDameTables):
    """Tausende to 1000 (R12, R8): Pik Dame's whole game with R12's ruleset and R12.8's options
    chosen at the table's creation. The cut is 1 … 107 (R12.1: 108 cards), no lucky grab."""

    name = "tausende"
    options = ("strict_1000", *TAUSENDE_OPTIONS)

    def rules_of(self, players: int, options: dict[str, bool]) -> Rules:
        # R12.7: no hand-out doubling; R8's strict_1000 and R12.8's options as the table chose
        chosen = {key: options.get(key, False) for key in TAUSENDE_OPTIONS}
        return Rules(players, False, options.get("strict_1000", False), "tausende", **chosen)


def _match(session: Session) -> Match:
    assert isinstance(session, Match)
    return session


class GinSession:
    """A Gin match (engine.gin.GinMatch, GIN.md) as a table's session: one seed deals every
    hand, so its commitment stands for the whole match and the seed is revealed at its end."""

    def __init__(self, match: GinMatch) -> None:
        self.match = match

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
        return self.match.hand_no

    def play(self, text: str, seat: int, new_seed: SeedSource) -> Events:
        return self.match.play(text, seat)

    def autoplay_turn(self, seat: int, new_seed: SeedSource) -> Events:
        return self.match.autoplay_turn(seat)

    def resign(self, seat: int) -> Events:
        done = self.match.push("resign", seat)
        return [(seat, str(done))]

    def set_level(self, seat: int, level: str) -> None:
        # gin-log/1 names each seat's level once: a change in play would not replay.
        raise IllegalMoveError("bad_value", "a Gin bot keeps its level once the match runs", level)

    def to_json(self) -> dict[str, Any]:
        return self.match.to_json()


class GinTables:
    """Gin Rommé to 100 (GIN.md) for two seats."""

    name: Final = "gin"
    levels: Final = GIN_LEVELS
    default_level: Final = "strong"
    hints: Final = False  # the view carries Gin's help: the exact deadwood and a suggestion
    seat_counts: Final = (2,)  # G2: a duel

    def hint(self, session: Session, seat: int) -> dict[str, Any]:
        raise NoHint("hints_off", "a Gin table's view shows the exact deadwood instead")

    def rules_of(self, players: int, options: dict[str, bool]) -> None:
        return None

    def start(
        self, rules: Any, seats: tuple[Seat, ...], new_seed: SeedSource
    ) -> tuple[Session, Events]:
        if len(seats) != 2:
            raise IllegalMoveError("bad_value", "a Gin match has two seats (G2)", seats)
        match = GinMatch.start(new_seed(), (seats[0], seats[1]))
        return GinSession(match), list(match.moves)  # the bots' first moves, if any

    def load(self, data: dict[str, Any]) -> Session:
        return GinSession(GinMatch.from_json(data))

    def facts(self, session: Session, seat: int | None) -> dict[str, Any]:
        match = _gin(session).match
        seed = match.to_record(reveal_seed=True)["seeds"]["seed"] if match.finished else None
        return {
            "round": match.hand_no,
            "dealer": match.state.dealer,
            "cutter": None,
            "awaiting_cut": False,
            "turn": match.to_move(),
            "lucky": [],
            "totals": list(match.totals),
            "commitment": match.commitment,
            "rounds": [
                {
                    "round": r.hand_no,
                    "dealer": r.dealer,
                    "cut": None,
                    "commitment": match.commitment,
                    "scores": list(r.outcome.scores),
                    "end": r.outcome.end,
                    "winner": r.outcome.winner,  # the hand's winner (G6; null: a wall, G7)
                    "totals": None,
                    "seed": seed,  # one seed deals the whole match: revealed at its end
                    "lucky": [],
                }
                for r in match.results
            ],
            "result": match.result_json(),
            "view": None if seat is None else match.view(seat).to_json(),
        }

    def face_down(self, session: Session, seq: int) -> bool:
        # G6: a knock's card is discarded face down; the other seat's events say ``knock ??``.
        moves = _gin(session).match.moves
        return 0 < seq <= len(moves) and moves[seq - 1][1].startswith("knock ")

    def record(self, session: Session, seats: tuple[Seat, ...]) -> dict[str, Any]:
        return _gin(session).match.to_record(reveal_seed=True)


def _gin(session: Session) -> GinSession:
    assert isinstance(session, GinSession)
    return session


PIKDAME_TABLES: Final = PikDameTables()
TAUSENDE_TABLES: Final = TausendeTables()
GIN_TABLES: Final = GinTables()
#: Every game a table can hold, by API.md's name.
GAMES: Final[dict[str, TableGame]] = {
    PIKDAME_TABLES.name: PIKDAME_TABLES,
    TAUSENDE_TABLES.name: TAUSENDE_TABLES,
    GIN_TABLES.name: GIN_TABLES,
}
#: What another seat sees of a face-down going-out card (R4.3).
HIDDEN_MOVE: Final = FACE_DOWN_DISCARD

__all__ = [
    "GAMES",
    "GIN_TABLES",
    "HIDDEN_MOVE",
    "PIKDAME_TABLES",
    "TAUSENDE_TABLES",
    "Events",
    "SeedSource",
    "Session",
    "TableGame",
]
