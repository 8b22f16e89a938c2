"""A whole game to 1000 (RULES.md R2, R3, R7, R8): rounds one after another, each with its own
seed, the cutter's cut (F3 step 2), dealer rotation, totals, the tie round and resign.

The engine draws no randomness: every round's seed is handed in by the caller (the service draws
it from ``secrets``; a replay reads it from the record). A round is a :class:`Game`; this module
only strings rounds together and writes the game record ``pikdame-game/1`` (docs/TABLES.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Final

from engine.core.cards import NAMES, Card
from engine.core.live import NOT_DEFERRED
from engine.pikdame.cards import TAUSENDE_TOTAL, TOTAL_CARDS
from engine.pikdame.deal import cutter
from engine.pikdame.errors import (
    FormatError,
    IllegalMoveError,
    NotationError,
    PikDameError,
    ReplayError,
)
from engine.pikdame.game import Game
from engine.pikdame.moves import Move
from engine.pikdame.record import are_moves, commitment, parse_seed
from engine.pikdame.replay import check_moves
from engine.pikdame.rules import LEVELS, Rules, Seat
from engine.pikdame.state import State, deal_for
from engine.pikdame.version import engine_version

GAME_FORMAT: Final = "pikdame-game/1"
#: Who draws a round's seed: the service's CSPRNG, or a replay reading the record.
SeedSource = Callable[[], bytes]


def deck_size(rules: Rules) -> int:
    """The cards a round is dealt from: 110 (R1), or 108 in Tausende (R12.1)."""
    return TAUSENDE_TOTAL if rules.tausende else TOTAL_CARDS


def bot_cut(round_commitment: str, total: int = TOTAL_CARDS) -> int:
    """A bot cutter's cut (F3 step 2) from public facts only: the round's commitment, which every
    seat sees before the cut. Deterministic (R10) and no help to anyone: the seed is unknown.
    ``total`` is the deck's size (Tausende: 108, R12.1)."""
    return 1 + int(round_commitment[:8], 16) % (total - 1)


def is_cut(text: str) -> bool:
    """Whether ``text`` is written as a cut: ``cut`` and a decimal of at most 9 digits (F2's
    bound for numbers), any whitespace between, any case."""
    tokens = text.split()
    return (
        len(tokens) == 2
        and tokens[0].lower() == "cut"
        and 1 <= len(tokens[1]) <= 9
        and all("0" <= c <= "9" for c in tokens[1])
    )


def parse_cut(text: str, total: int = TOTAL_CARDS) -> int:
    """``cut K`` (tables, F3 step 2): K in 1 … 109 (Tausende: 1 … 107, R12.1), else 422
    ``bad_value``; other text is syntax."""
    if not is_cut(text):
        raise NotationError(f"a cut is 'cut K' with K in 1 … {total - 1}", text)
    k = int(text.split()[1])
    if not 1 <= k <= total - 1:
        raise IllegalMoveError("bad_value", f"the cut is 1 … {total - 1} (F3)", text)
    return k


@dataclass
class Round:
    """One dealt round of the game: the facts its record needs (the seed is revealed once the
    round is over)."""

    round: int
    dealer: int
    cut: int
    seed: bytes
    lucky: tuple[str, ...]
    levels: list[tuple[int, int, str]] = field(default_factory=list)  # (move index, seat, level)

    def to_json(self, game: Game, reveal: bool) -> dict[str, Any]:
        outcome = game.state.outcome
        return {
            "round": self.round,
            "dealer": self.dealer,
            "cut": self.cut,
            "commitment": commitment(self.seed),
            "seed": self.seed.hex() if reveal else None,
            "lucky": list(self.lucky),
            "levels": [{"at": a, "seat": s, "level": lv} for a, s, lv in self.levels],
            "moves": [{"seat": s, "move": m} for s, m in game.state.history],
            "result": None if outcome is None else outcome.to_json(),
            "totals": list(game.state.totals),
        }


class Match:
    """A whole game: finished rounds, the running one (or one waiting for its cut), the totals.

    ``seq`` counts every event of the game (cuts and moves of every seat), the tables' seq.
    ``defer``: the levels whose bots move only in :meth:`play_bot` (engine.core.live; the
    tables' bots worker), never stored."""

    def __init__(
        self,
        rules: Rules,
        seats: tuple[Seat, ...],
        first_dealer: int,
        defer: Collection[str] = NOT_DEFERRED,
    ) -> None:
        if len(seats) != rules.players:
            raise FormatError("one seat per player", seats)
        self.defer = defer
        self.rules = rules
        self.seats = seats
        self.first_dealer = first_dealer
        self.rounds: list[tuple[Round, Game]] = []
        self.pending: tuple[int, bytes] | None = None  # (round number, seed) awaiting its cut
        self.seq = 0
        self.resigned_by: int | None = None

    # -- reading -------------------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The round in play, or the last one dealt."""
        return self.rounds[-1][1] if self.rounds else None

    @property
    def round(self) -> int:
        return self.pending[0] if self.pending is not None else len(self.rounds)

    @property
    def dealer(self) -> int:
        """R2: round 1's dealer is the setup's, then one seat on each round."""
        return (self.first_dealer + self.round - 1) % self.rules.players

    @property
    def cutter(self) -> int:
        return cutter(self.rules.players, self.dealer)

    @property
    def commitment(self) -> str | None:
        """The commitment of the running (or pending) round's seed."""
        if self.pending is not None:
            return commitment(self.pending[1])
        if self.rounds and not self.rounds[-1][1].finished:
            return commitment(self.rounds[-1][0].seed)
        return None

    @property
    def awaiting_cut(self) -> bool:
        return self.pending is not None

    @property
    def finished(self) -> bool:
        if self.resigned_by is not None:
            return True
        game = self.game
        return self.pending is None and game is not None and game.state.game_over()

    @property
    def turn(self) -> int | None:
        """The seat to act: the cutter while the round waits for its cut, else the seat to move."""
        if self.finished:
            return None
        if self.pending is not None:
            return self.cutter
        game = self.game
        assert game is not None
        return game.state.turn

    @property
    def totals(self) -> list[int]:
        game = self.game
        return [0] * self.rules.players if game is None else list(game.state.totals)

    def winner(self) -> int | None:
        """R8: the lone highest total once the game is over (a shared top after resign: none)."""
        if not self.finished:
            return None
        totals = self.totals
        best = max(totals)
        return totals.index(best) if totals.count(best) == 1 else None

    # -- playing -------------------------------------------------------------------------------

    @staticmethod
    def start(
        rules: Rules,
        seats: tuple[Seat, ...],
        first_dealer: int,
        new_seed: SeedSource,
        defer: Collection[str] = NOT_DEFERRED,
    ) -> tuple[Match, list[tuple[int, str]]]:
        match = Match(rules, seats, first_dealer, defer)
        return match, match._next_round(new_seed)

    def _next_round(self, new_seed: SeedSource) -> list[tuple[int, str]]:
        """Commit to the next round's seed; a bot cutter cuts at once (the round is dealt)."""
        self.pending = (len(self.rounds) + 1, new_seed())
        if self.seats[self.cutter].kind == "bot":
            return self._cut(self.cutter, self._bot_cut(self.pending[1]), new_seed)
        return []

    def _bot_cut(self, seed: bytes) -> int:
        return bot_cut(commitment(seed), deck_size(self.rules))

    def _deal(self, k: int) -> Game:
        """Deal the pending round cut at ``k`` (F3 steps 2–6); no bot has moved yet."""
        assert self.pending is not None
        number, seed = self.pending
        dealer = self.dealer
        d = deal_for(seed, self.rules, dealer, k)  # R12.1: Tausende's 108 cards, 13 each
        state = State.from_deal(d, self.rules, dealer, round=number, totals=self.totals)
        game = Game(self.rules, self.seats, dealer, k, commitment(seed), state)
        lucky = tuple(NAMES[Card.from_id(i)] for i in d.lucky)
        self.rounds.append((Round(number, dealer, k, seed, lucky), game))
        self.pending = None
        self.seq += 1
        return game

    def _cut(self, seat: int, k: int, new_seed: SeedSource) -> list[tuple[int, str]]:
        game = self._deal(k)
        return [(seat, f"cut {k}"), *self._counted(game.run_bots(self.defer), new_seed)]

    def _counted(
        self, events: list[tuple[int, str]], new_seed: SeedSource
    ) -> list[tuple[int, str]]:
        self.seq += len(events)
        game = self.game
        assert game is not None
        if game.finished and not self.finished:
            events += self._next_round(new_seed)
        return events

    def play(self, text: str, seat: int, new_seed: SeedSource) -> list[tuple[int, str]]:
        """A human's move (F2, or ``cut K`` when the round waits for this seat's cut), then every
        bot move (and bot cut) until a human must act. Raises, changing nothing, when illegal."""
        if self.finished:
            raise IllegalMoveError("round_over", "the game is over", text)
        if not 0 <= seat < self.rules.players or self.seats[seat].kind != "human":
            raise IllegalMoveError("not_your_turn", f"seat {seat} is not a human's", text)
        if text.strip().lower() == "resign":
            return self.resign(seat)
        if self.pending is not None:
            if not is_cut(text):
                Move.parse(text)  # not even a move: syntax (F7's first code)
                raise IllegalMoveError("wrong_phase", "the round waits for its cut", text)
            # bad_value before not_your_turn, as F7 orders syntax first
            k = parse_cut(text, deck_size(self.rules))
            if seat != self.cutter:
                raise IllegalMoveError("not_your_turn", f"seat {self.cutter} cuts", text)
            return self._cut(seat, k, new_seed)
        if is_cut(text):
            raise IllegalMoveError("wrong_phase", "the round has been cut already", text)
        game = self.game
        assert game is not None
        return self._counted(game.play(text, seat, self.defer), new_seed)

    @property
    def bot_due(self) -> bool:
        """Whether a bot is to move in the running round: play stopped before a bot of a
        ``defer`` level (a bot cutter cuts at once: never due)."""
        game = self.game
        return not self.finished and self.pending is None and game is not None and game.bot_due()

    def play_bot(self, new_seed: SeedSource) -> list[tuple[int, str]]:
        """The due bot's move, then the other bots' up to a human or the next deferred bot
        (engine.core.live's ``play_bot``); a round it ends is followed by the next (its bot cut
        at once); nothing when no bot is due."""
        game = self.game
        if not self.bot_due or game is None:
            return []
        return self._counted(game.play_bot(self.defer), new_seed)

    def autoplay_turn(self, seat: int, new_seed: SeedSource) -> list[tuple[int, str]]:
        """The turn timer (R9): the seat's time ran out, so the bot logic acts for it (a cut by
        the bot rule, or the round's :meth:`Game.autoplay_turn`); then the bots answer."""
        if self.turn != seat:
            raise IllegalMoveError("not_your_turn", f"it is not seat {seat}'s turn", None)
        if self.pending is not None:
            return self._cut(seat, self._bot_cut(self.pending[1]), new_seed)
        game = self.game
        assert game is not None
        return self._counted(game.autoplay_turn(seat, self.defer), new_seed)

    def resign(self, seat: int) -> list[tuple[int, str]]:
        """R8: the game ends at once; a running round is scored as R7.2 (no winner). A round still
        waiting for its cut was never dealt: it is dropped and scores nothing."""
        if self.finished:
            raise IllegalMoveError("round_over", "the game is over", "resign")
        game = self.game
        if self.pending is None and game is not None:
            game.state.push("resign", seat)
        self.pending = None
        self.resigned_by = seat
        self.seq += 1
        return [(seat, "resign")]

    def set_level(self, seat: int, level: str) -> None:
        """R9: a bot's level changes from the next move on (recorded, so replays follow it)."""
        if not 0 <= seat < self.rules.players or self.seats[seat].kind != "bot":
            raise IllegalMoveError("bad_value", f"seat {seat} is not a bot", level)
        if level not in LEVELS:
            raise IllegalMoveError("bad_value", f"a level is one of {LEVELS}", level)
        self.seats = tuple(
            Seat("bot", level=level) if n == seat else s for n, s in enumerate(self.seats)
        )
        if self.rounds and not self.rounds[-1][1].finished:
            facts, game = self.rounds[-1]
            facts.levels.append((len(game.state.history), seat, level))
            game.seats = self.seats

    # -- documents -----------------------------------------------------------------------------

    def result(self) -> dict[str, Any] | None:
        if not self.finished:
            return None
        return {
            "end": "resign" if self.resigned_by is not None else "goal",
            "resigned_by": self.resigned_by,
            "winner": self.winner(),
            "totals": self.totals,
        }

    def to_record(self, seats: tuple[Seat, ...] | None = None) -> dict[str, Any]:
        """The game record ``pikdame-game/1``: every round's seed (revealed once the round is
        over), cut, level changes, moves and scores. ``seats`` as they were at the start."""
        return {
            "format": GAME_FORMAT,
            "engine": engine_version(self.rules.tausende),  # R12: its bots' version too
            "rules": self.rules.to_json(),
            "seats": [s.to_json() for s in (seats or self.seats)],
            "first_dealer": self.first_dealer,
            "rounds": [r.to_json(g, g.finished) for r, g in self.rounds],
            "result": self.result(),
        }

    def to_json(self) -> dict[str, Any]:
        """Storage form (server-side only: every hidden card and the pending seed)."""
        return {
            "rules": self.rules.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "first_dealer": self.first_dealer,
            "seq": self.seq,
            "resigned_by": self.resigned_by,
            "pending": None if self.pending is None else [self.pending[0], self.pending[1].hex()],
            "rounds": [
                {
                    "seed": r.seed.hex(),
                    "lucky": list(r.lucky),
                    "levels": r.levels,
                    "game": g.to_json(),
                }
                for r, g in self.rounds
            ],
        }

    @staticmethod
    def from_json(data: dict[str, Any], defer: Collection[str] = NOT_DEFERRED) -> Match:
        seats = tuple(Seat.from_json(s, LEVELS) for s in data["seats"])
        match = Match(Rules.from_json(data["rules"]), seats, data["first_dealer"], defer)
        match.seq = data["seq"]
        match.resigned_by = data["resigned_by"]
        pending = data["pending"]
        match.pending = None if pending is None else (pending[0], bytes.fromhex(pending[1]))
        for stored in data["rounds"]:
            game = Game.from_json(stored["game"])
            facts = Round(
                game.state.round,
                game.dealer,
                game.cut,
                bytes.fromhex(stored["seed"]),
                tuple(stored["lucky"]),
                [(a, s, lv) for a, s, lv in stored["levels"]],
            )
            match.rounds.append((facts, game))
        if match.rounds and not match.rounds[-1][1].finished:
            match.rounds[-1][1].seats = seats
        return match


def replay_match(record: Any) -> Match:
    """Verify a ``pikdame-game/1`` record: each round's seed against its commitment, each bot
    cut and bot move recomputed, each round's result and the game's result compared, the
    rounds' dealers rotating (R2) and the game ending only as R8 says. Raises ReplayError."""

    def bad(why: str) -> ReplayError:
        return ReplayError("bad_format", why, None, record)

    if not isinstance(record, dict) or record.get("format") != GAME_FORMAT:
        raise bad(f"a game record has format {GAME_FORMAT!r}")
    try:
        rules = Rules.from_json(record.get("rules"))
        seats_json = record.get("seats")
        if not isinstance(seats_json, list) or len(seats_json) != rules.players:
            raise FormatError("record seats: one per player", record)
        seats = tuple(Seat.from_json(s, LEVELS) for s in seats_json)
    except PikDameError as e:
        raise bad(f"record: {e.message}") from None
    first = record.get("first_dealer")
    rounds = record.get("rounds")
    if type(first) is not int or not 0 <= first < rules.players:
        raise bad("record first_dealer: a seat")
    if not isinstance(rounds, list) or not rounds:
        raise bad("record rounds: a non-empty list")
    match = Match(rules, seats, first)
    index = 0  # moves numbered through the whole game
    for number, entry in enumerate(rounds, start=1):
        if match.finished:
            raise bad(f"round {number} follows the end of the game (R8)")
        if not isinstance(entry, dict) or entry.get("round") != number:
            raise bad(f"rounds[{number - 1}]: round {number}")
        try:
            seed = parse_seed(entry.get("seed"))
        except FormatError as e:
            raise bad(f"round {number}: {e.message}") from None
        if entry.get("commitment") != commitment(seed):
            raise bad(f"round {number}: the seed does not match its commitment (F4)")
        match.pending = (number, seed)
        if entry.get("dealer") != match.dealer:
            raise bad(f"round {number}: the dealer is seat {match.dealer} (R2)")
        cut, moves, levels = entry.get("cut"), entry.get("moves"), entry.get("levels", [])
        total = deck_size(rules)
        if type(cut) is not int or not 1 <= cut <= total - 1:
            raise bad(f"round {number}: cut 1 … {total - 1}")
        if not are_moves(moves, rules.players):
            raise bad(f"round {number}: moves are a list of {{seat, move}}")
        changes: dict[int, list[tuple[int, str]]] = {}
        try:
            for change in levels:
                changes.setdefault(int(change["at"]), []).append(
                    (int(change["seat"]), str(change["level"]))
                )
        except (TypeError, KeyError, ValueError):
            raise bad(f"round {number}: levels are a list of {{at, seat, level}}") from None
        cutter_seat = match.cutter
        if match.seats[cutter_seat].kind == "bot" and cut != match._bot_cut(seed):
            raise ReplayError(
                "bot_mismatch",
                f"round {number}: seat {cutter_seat}'s bot cuts {match._bot_cut(seed)}, "
                f"the record says {cut}",
                index,
                record,
            )
        game = match._deal(cut)
        facts = match.rounds[-1][0]
        check_moves(game, moves, record, first_index=index, levels=changes)
        match.seats = game.seats
        facts.levels = [(a, s, lv) for a, group in sorted(changes.items()) for s, lv in group]
        index += len(moves)
        match.seq += len(moves)
        outcome = game.state.outcome
        if outcome is None:
            raise ReplayError("score_mismatch", f"round {number} does not end", index, record)
        if outcome.to_json() != entry.get("result"):
            raise ReplayError(
                "score_mismatch",
                f"round {number}: the record's result {json.dumps(entry.get('result'))} is "
                f"not the replay's {json.dumps(outcome.to_json())}",
                index,
                record,
            )
        if outcome.end == "resign":
            match.resigned_by = game.state.history[-1][0]
    result = record.get("result")
    if result != match.result() and not (
        isinstance(result, dict)
        and result.get("end") == "resign"
        and _resigned_before_cut(match, result)
    ):
        raise ReplayError(
            "score_mismatch",
            f"the record's result {json.dumps(result)} is not the replay's "
            f"{json.dumps(match.result())}",
            None,
            record,
        )
    return match


def _resigned_before_cut(match: Match, result: dict[str, Any]) -> bool:
    """A resign while the next round waited for its cut (that round was never dealt)."""
    by = result.get("resigned_by")
    if match.finished or type(by) is not int or not 0 <= by < match.rules.players:
        return False
    match.resigned_by = by
    return result == match.result()


__all__ = [
    "GAME_FORMAT",
    "Match",
    "Round",
    "SeedSource",
    "bot_cut",
    "deck_size",
    "parse_cut",
    "replay_match",
]
