"""Threes, the toy game's rules (tests/toygame/__init__.py) as an engine.core game: a state with
its legal moves (``draw``, ``take``, ``discard C``, ``resign``), one seat's view, the trivial
bot, and a whole game as a one-seed match in live play (engine.core.live)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from engine.core.errors import FormatError, IllegalMoveError
from engine.core.live import LivePlay
from engine.core.records import Seat, commitment
from engine.core.rng import Stream, shuffled
from engine.core.standard import DECK_SIZE, card_name, names, parse_card, rank

NAME: Final = "threes"
ENGINE_VERSION: Final = "threes-1"
HAND: Final = 5
LEVELS: Final = ("plain",)
FORMAT: Final = "threes-log/1"


@dataclass
class State:
    """A whole game (one hand): the hands, the stock (top last), the discard pile (top last)."""

    hands: list[list[int]]
    stock: list[int]
    pile: list[int]
    turn: int = 0
    phase: str = "draw"  # then "discard"
    taken: int | None = None  # the pile's card taken this turn: not discarded again at once
    winner: int | None = None
    end: str | None = None  # "threes", "wall" (the stock ran out), "resign"

    players: ClassVar[int] = 2

    @staticmethod
    def new(seed: bytes) -> State:
        deck = shuffled(Stream(seed), DECK_SIZE)
        return State([deck[:HAND], deck[HAND : 2 * HAND]], deck[2 * HAND + 1 :], [deck[2 * HAND]])

    @property
    def finished(self) -> bool:
        return self.end is not None

    def legal_moves(self) -> list[str]:
        if self.finished:
            return []
        if self.phase == "draw":
            return ["draw", "take"]
        return [f"discard {card_name(c)}" for c in sorted(self.hands[self.turn]) if c != self.taken]

    def push(self, move: str, seat: int | None = None) -> str:
        """Apply ``move`` of ``seat`` (default: the seat to move); raises, changing nothing."""
        seat = self.turn if seat is None else seat
        text = " ".join(move.split())
        if text == "resign" and not self.finished:
            self.winner, self.end = 1 - seat, "resign"
            return text
        if self.finished:
            raise IllegalMoveError("round_over", "the game is over", move)
        if seat != self.turn:
            raise IllegalMoveError("not_your_turn", f"it is not seat {seat}'s turn", move)
        word, _, rest = text.partition(" ")
        hand = self.hands[seat]
        if self.phase == "draw" and text in ("draw", "take"):
            card = (self.stock if text == "draw" else self.pile).pop()
            hand.append(card)
            self.taken = card if text == "take" else None
            self.phase = "discard"
            return text
        if self.phase == "discard" and word == "discard":
            card = parse_card(rest)
            if card not in hand:
                raise IllegalMoveError("card_not_in_hand", f"{rest} is not in the hand", move)
            if card == self.taken:
                raise IllegalMoveError("take_not_allowed", "the card taken stays a turn", move)
            hand.remove(card)
            self.pile.append(card)
            text = f"discard {card_name(card)}"
            if max(Counter(rank(c) for c in hand).values()) >= 3:
                self.winner, self.end = seat, "threes"
            elif not self.stock:
                self.end = "wall"
            self.turn, self.phase, self.taken = 1 - seat, "draw", None
            return text
        raise IllegalMoveError("wrong_phase", f"{move!r} is not a move now", move)

    def to_position(self) -> dict[str, Any]:
        return {
            "format": "threes-position/1",
            "hands": [names(h) for h in self.hands],
            "stock": [card_name(c) for c in self.stock],
            "pile": [card_name(c) for c in self.pile],
            "turn": self.turn,
            "phase": self.phase,
            "taken": None if self.taken is None else card_name(self.taken),
            "winner": self.winner,
            "end": self.end,
        }

    @staticmethod
    def from_position(doc: Any) -> State:
        try:
            return State(
                [[parse_card(c) for c in h] for h in doc["hands"]],
                [parse_card(c) for c in doc["stock"]],
                [parse_card(c) for c in doc["pile"]],
                doc["turn"],
                doc["phase"],
                None if doc["taken"] is None else parse_card(doc["taken"]),
                doc["winner"],
                doc["end"],
            )
        except (KeyError, TypeError) as e:
            raise FormatError(f"not a threes position: {e}", doc) from None


@dataclass(frozen=True)
class View:
    """What one seat may know: its hand, the pile's top, how many cards the others hold."""

    seat: int
    hand: tuple[int, ...]
    top: int | None
    stock: int
    turn: int | None
    phase: str
    taken: int | None
    history: tuple[tuple[int, str], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": names(self.hand),
            "top": None if self.top is None else card_name(self.top),
            "stock": self.stock,
            "turn": self.turn,
            "phase": self.phase,
            "taken": None if self.taken is None else card_name(self.taken),
            "legal": [],
        }


def view(state: State, seat: int) -> View:
    return View(
        seat,
        tuple(sorted(state.hands[seat])),
        state.pile[-1] if state.pile else None,
        len(state.stock),
        None if state.finished else state.turn,
        state.phase,
        state.taken if state.turn == seat else None,
    )


def bot_move(seen: View) -> str:
    """The trivial bot: take the pile's card when it pairs a rank held, else draw; discard the
    highest card whose rank it holds least often (its highest unmatched card)."""
    held = Counter(rank(c) for c in seen.hand)
    if seen.phase == "draw":
        return "take" if seen.top is not None and held[rank(seen.top)] else "draw"
    choices = [c for c in seen.hand if c != seen.taken]
    return f"discard {card_name(max(choices, key=lambda c: (-held[rank(c)], rank(c), c)))}"


class Threes:
    """The toy game as a :class:`~engine.core.game.GameType` (engine.games.register)."""

    name: Final = NAME

    def new_round(self, seed: bytes, rules: None, dealer: int) -> State:
        return State.new(seed)

    def from_position(self, doc: Any) -> State:
        return State.from_position(doc)

    def parse_move(self, text: str) -> str:
        return " ".join(text.split())

    def view(self, state: State, seat: int) -> View:
        return view(state, seat)


THREES: Final = Threes()


class Match(LivePlay[str]):
    """A whole game of threes in live play: one seed deals it, humans move, the bot answers."""

    TIMER_LEVEL: ClassVar[str] = "plain"

    def __init__(self, seed: bytes, seats: tuple[Seat, ...]) -> None:
        self.seed = seed
        self.seats = seats
        self.state = State.new(seed)
        self.moves: list[tuple[int, str]] = []

    @staticmethod
    def start(seed: bytes, seats: tuple[Seat, ...]) -> Match:
        match = Match(seed, seats)
        match.run_bots()
        return match

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def round(self) -> int:
        return 1

    def to_move(self) -> int | None:
        return None if self.state.finished else self.state.turn

    def _apply(self, move: str, seat: int) -> str:
        done = self.state.push(move, seat)
        self.moves.append((seat, done))
        return done

    def _bot_move(self, level: str, seat: int) -> str:
        return bot_move(view(self.state, seat))

    def view(self, seat: int) -> View:
        return view(self.state, seat)

    def result_json(self) -> dict[str, Any] | None:
        if not self.finished:
            return None
        totals = [int(n == self.state.winner) for n in range(2)]
        return {"totals": totals, "winner": self.state.winner, "end": self.state.end}

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed.hex(),
            "seats": [s.to_json() for s in self.seats],
            "moves": [[s, m] for s, m in self.moves],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Match:
        match = Match(
            bytes.fromhex(data["seed"]), tuple(Seat.from_json(s, LEVELS) for s in data["seats"])
        )
        for seat, move in data["moves"]:
            match._apply(move, seat)
        return match

    def to_record(self, reveal_seed: bool) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "engine": ENGINE_VERSION,
            "seats": [s.to_json() for s in self.seats],
            "commitment": commitment(self.seed),
            "seed": self.seed.hex() if reveal_seed else None,
            "moves": [{"seat": s, "move": m} for s, m in self.moves],
            "result": self.result_json(),
        }


def replay(record: dict[str, Any]) -> Match:
    """A finished record played again from its seed, every bot move recomputed (F6's idea)."""
    seats = tuple(Seat.from_json(s, LEVELS) for s in record["seats"])
    match = Match(bytes.fromhex(record["seed"]), seats)
    for entry in record["moves"]:
        seat, move = entry["seat"], entry["move"]
        bot = seats[seat].kind == "bot" and move != "resign"
        if bot and match._bot_move("plain", seat) != move:
            raise IllegalMoveError("bot_mismatch", "a bot move differs", move)
        match._apply(move, seat)
    return match


__all__ = ["ENGINE_VERSION", "LEVELS", "NAME", "THREES", "Match", "State", "View", "replay"]
