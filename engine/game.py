"""A round with its seats and deal facts: live play, game records (F6) and their replay.

The service plays through :meth:`Game.play` (a human move, then every bot move); the worker verifies
through :func:`replay`, which recomputes every bot move from the bot's own view (R10) and so accepts
a record only if every bot move and the score are exactly what the engine produces.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Final

from engine import deal as dealing
from engine.bots import LEVELS, choose_move
from engine.errors import FormatError, IllegalMoveError, PikDameError, ReplayError
from engine.moves import Move
from engine.state import Rules, State
from engine.version import ENGINE_VERSION
from engine.view import view

LOG_FORMAT: Final = "pikdame-log/1"
TIMER_LEVEL: Final = "advanced"  # R9: who plays a human's turn when the timer runs out


@dataclass(frozen=True)
class Seat:
    """A seat of a game: a human with a name, or a bot with a level (R9)."""

    kind: str
    name: str | None = None
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.kind == "bot":
            return {"kind": "bot", "level": self.level}
        return {"kind": "human", "name": self.name}

    @staticmethod
    def from_json(obj: Any) -> Seat:
        if isinstance(obj, dict) and obj.get("kind") == "bot" and obj.get("level") in LEVELS:
            return Seat("bot", level=obj["level"])
        if (
            isinstance(obj, dict)
            and obj.get("kind") == "human"
            and isinstance(obj.get("name"), str)
        ):
            return Seat("human", name=obj["name"])
        raise FormatError(f"a seat is a human with a name or a bot of level {LEVELS}", obj)


def commitment(seed: bytes) -> str:
    """F4: lower-case hex of SHA-256(seed)."""
    return hashlib.sha256(seed).hexdigest()


class Game:
    """One round in play: rules, seats, deal facts and the live state (history included)."""

    __slots__ = ("commitment", "cut", "dealer", "rules", "seats", "state")

    def __init__(
        self,
        rules: Rules,
        seats: tuple[Seat, ...],
        dealer: int,
        cut: int,
        commitment: str,
        state: State,
    ) -> None:
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
        d = dealing.deal(seed, rules.players, dealer, cut)
        game = Game(
            rules, seats, dealer, d.cut, commitment(seed), State.from_deal(d, rules, dealer)
        )
        game.run_bots()
        return game

    @property
    def finished(self) -> bool:
        return self.state.outcome is not None

    def to_move(self) -> int | None:
        """The seat whose move it is, or None once the round is over."""
        return None if self.state.outcome is not None else self.state.turn

    def play(self, move: Move | str, seat: int) -> list[tuple[int, str]]:
        """Apply a human's move, then every bot move until a human must move or the round ends.

        Returns every move made, the human's first. Raises on an illegal move, changing nothing.
        """
        if not 0 <= seat < len(self.seats):
            raise IllegalMoveError("not_your_turn", f"there is no seat {seat}", move, self.state)
        if self.seats[seat].kind != "human":
            raise IllegalMoveError("not_your_turn", f"seat {seat} is a bot", move, self.state)
        done = self.state.push(move, seat)
        return [(seat, str(done)), *self.run_bots()]

    def autoplay_turn(self, seat: int) -> list[tuple[int, str]]:
        """The turn timer (R9): the human's time ran out, so the ``advanced`` bot logic finishes
        that seat's turn; its moves are ordinary moves in the record. Then the bots answer."""
        state = self.state
        if state.outcome is not None or state.turn != seat:
            raise IllegalMoveError("not_your_turn", f"it is not seat {seat}'s turn", None, state)
        events: list[tuple[int, str]] = []
        while state.outcome is None and state.turn == seat:
            done = state.push(choose_move(TIMER_LEVEL, view(state, seat)), seat)
            events.append((seat, str(done)))
        return events + self.run_bots()

    def run_bots(self) -> list[tuple[int, str]]:
        events: list[tuple[int, str]] = []
        state = self.state
        while state.outcome is None and self.seats[state.turn].kind == "bot":
            seat = state.turn
            level = self.seats[seat].level
            assert level is not None
            done = state.push(choose_move(level, view(state, seat)), seat)
            events.append((seat, str(done)))
        return events

    # -- documents -----------------------------------------------------------------------------

    def to_record(self, seed: bytes | None = None) -> dict[str, Any]:
        """The game record (F6); ``seed`` is written only when given (after the day closed)."""
        outcome = self.state.outcome
        return {
            "format": LOG_FORMAT,
            "engine": ENGINE_VERSION,
            "rules": self.rules.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "deal": {
                "dealer": self.dealer,
                "cut": self.cut,
                "commitment": self.commitment,
                "seed": None if seed is None else seed.hex(),
            },
            "moves": [{"seat": s, "move": m} for s, m in self.state.history],
            "result": None if outcome is None else outcome.to_json(),
        }

    def to_json(self) -> dict[str, Any]:
        """Storage form for the service (server-side only: it holds every hidden card)."""
        return {"record": self.to_record(), "position": self.state.to_position()}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Game:
        record = data["record"]
        state = State.from_position(data["position"])
        state.history = [(m["seat"], m["move"]) for m in record["moves"]]
        deal = record["deal"]
        seats = tuple(Seat.from_json(s) for s in record["seats"])
        return Game(state.rules, seats, deal["dealer"], deal["cut"], deal["commitment"], state)


def _record_fields(record: Any) -> tuple[Rules, tuple[Seat, ...], dict[str, Any], list[Any]]:
    if not isinstance(record, dict) or record.get("format") != LOG_FORMAT:
        raise FormatError(f"a game record has format {LOG_FORMAT!r}", record)
    try:
        rules = Rules.from_json(record.get("rules"))
    except PikDameError as e:
        raise FormatError(f"record rules: {e.message}", record) from None
    seats_json = record.get("seats")
    if not isinstance(seats_json, list) or len(seats_json) != rules.players:
        raise FormatError("record seats: one per player", record)
    seats = tuple(Seat.from_json(s) for s in seats_json)
    deal = record.get("deal")
    if not isinstance(deal, dict):
        raise FormatError("record deal: {dealer, cut, commitment, seed}", record)
    dealer, cut = deal.get("dealer"), deal.get("cut")
    if type(dealer) is not int or not 0 <= dealer < rules.players:
        raise FormatError("record deal.dealer: a seat", record)
    if type(cut) is not int or not 1 <= cut <= 109:
        raise FormatError("record deal.cut: 1 … 109", record)
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(
        isinstance(m, dict)
        and type(m.get("seat")) is int
        and 0 <= m["seat"] < rules.players
        and isinstance(m.get("move"), str)
        for m in moves
    ):
        raise FormatError("record moves: a list of {seat, move}", record)
    return rules, seats, deal, moves


def parse_seed(text: Any) -> bytes:
    if not isinstance(text, str) or len(text) != 64:
        raise FormatError("a seed is 64 hex digits", text)
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise FormatError("a seed is 64 hex digits", text) from None


def replay(record: Any, seed: bytes | None = None) -> Game:
    """Replay a game record (F6) from its seed: every move checked, every bot move recomputed
    and compared, the result compared with the record's. Raises :class:`ReplayError`."""
    try:
        rules, seats, deal, moves = _record_fields(record)
        if seed is None:
            seed = parse_seed(deal.get("seed"))
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise FormatError("a seed is 32 bytes (F3)", seed)
        committed = deal.get("commitment")
        if committed != commitment(seed):  # a missing commitment cannot be checked either (F4)
            raise FormatError("the seed does not match the record's commitment (F4)", committed)
    except FormatError as e:
        raise ReplayError("bad_format", e.message, None, record) from None
    d = dealing.deal(seed, rules.players, deal["dealer"], deal["cut"])
    game = Game(
        rules,
        seats,
        deal["dealer"],
        d.cut,
        commitment(seed),
        State.from_deal(d, rules, deal["dealer"]),
    )
    state = game.state
    for i, entry in enumerate(moves):
        seat, text = entry["seat"], entry["move"]
        if seats[seat].kind == "bot" and state.outcome is None and seat != state.turn:
            # R10: a bot moves only on its turn; `resign` by any seat (F2) is a human's word (R8).
            raise ReplayError(
                "not_your_turn", f"move {i} ({text!r}): seat {seat} is a bot not to move", i, record
            )
        try:
            move = Move.parse(text)
            expected = None
            if seats[seat].kind == "bot" and state.outcome is None and seat == state.turn:
                level = seats[seat].level
                assert level is not None
                expected = state.canonical(choose_move(level, view(state, seat)))
            done = state.push(move, seat)
        except PikDameError as e:
            raise ReplayError(e.code, f"move {i} ({text!r}): {e.message}", i, record) from None
        if expected is not None and str(expected) != str(done):
            raise ReplayError(
                "bot_mismatch",
                f"move {i}: seat {seat}'s bot plays {expected}, the record says {text!r}"
                + _version_note(record),
                i,
                record,
            )
    result = record.get("result")
    outcome = state.outcome
    if result is not None and (outcome is None or outcome.to_json() != result):
        actual = None if outcome is None else outcome.to_json()
        raise ReplayError(
            "score_mismatch",
            f"the record's result {json.dumps(result)} is not the replay's {json.dumps(actual)}",
            None,
            record,
        )
    return game


def _version_note(record: dict[str, Any]) -> str:
    """Bots change between engine versions (F6 names the one that played): say so when they
    differ, since a bot mismatch is then expected rather than a forgery."""
    played_by = record.get("engine")
    if played_by == ENGINE_VERSION:
        return ""
    return f" (the record was played by engine {played_by!r}; this is {ENGINE_VERSION!r})"
