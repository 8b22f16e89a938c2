"""Pik Dame's adapter (RULES.md, engine/pikdame/): the first daily game (R11: one round against
three Zen-Meister bots) and whole games to 1000 at tables (R2, R8, R9).

The first daily game is the unmarked one: its keys, archive files and documents carry no game
name (``marked`` False), as they did before there were other games.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Final

from engine.core.errors import ReplayError
from engine.core.records import commitment
from engine.pikdame.analysis import analyse
from engine.pikdame.daily import DAILY_DEALER, DAILY_RULES, daily_game, daily_seats, daily_seed
from engine.pikdame.game import Game
from engine.pikdame.hints import seat_hint
from engine.pikdame.match import Match
from engine.pikdame.releases import bots_of
from engine.pikdame.replay import replay
from engine.pikdame.rules import LEVELS, PLAIN_LEVELS, Rules, Seat
from engine.pikdame.state import State
from engine.pikdame.version import ENGINE_VERSION
from engine.pikdame.view import FACE_DOWN_DISCARD, view
from service.games.adapter import (
    ANALYSIS,
    DAILY,
    EVENT,
    HOUSE_RULES,
    LESSONS,
    PAR,
    TABLES,
    Capability,
    Events,
    Lesson,
    NoHint,
    Option,
    Pages,
    SeedSource,
    Session,
    Step,
    TableForm,
    Verdict,
    seat_facts,
)

#: A card seat 0 did not see in an early replay (a bot's hand, the stock): written as Gin's views
#: write a face-down card.
HIDDEN: Final = "??"
# The parts of a record (F6) that R11 fixes for everyone on a day: nothing in them is the
# player's choice, so a record that differs in any of them is forged, whatever its moves.
SETUP_FIELDS: Final = ("rules", "seats", "deal")


def player_turns(game: Game, seat: int = 0) -> int:
    """R11's tie-break: the player's own turns, i.e. their draw and take moves."""
    return sum(
        1 for s, m in game.state.history if s == seat and m.split(" ", 1)[0] in ("draw", "take")
    )


def positions(
    record: dict[str, Any],
    seed: bytes,
    shown: Callable[[State], dict[str, Any]] = State.to_position,
) -> list[dict[str, Any]]:
    """The position after the deal and after each move of a round's record (``push`` checks each
    move; showing a game needs no bot recomputation), each as ``shown`` writes it (by default all
    of it)."""
    deal = record["deal"]
    state = State.new_round(seed, Rules.from_json(record["rules"]), deal["dealer"], deal["cut"])
    steps = [shown(state)]
    for entry in record["moves"]:
        state.push(entry["move"], entry["seat"])
        steps.append(shown(state))
    return steps


def seen_by_player(state: State) -> dict[str, Any]:
    """A position as seat 0 saw it (R10): the other hands and the stock face down (their sizes
    kept), ``removed`` without a bot's face-down going-out card (R4.3)."""
    position = state.to_position()
    position["hands"] = [
        hand if seat == 0 else [HIDDEN] * len(hand) for seat, hand in enumerate(position["hands"])
    ]
    position["stock"] = [HIDDEN] * len(position["stock"])
    if state.outcome is not None:  # only a finished round's view hides a card of ``removed``
        position["removed"] = view(state, 0).to_json()["removed"]
    return position


def setup_mismatch(record: dict[str, Any], seed: bytes, name: str) -> str | None:
    """The first part of the record's setup that is not the day's (R11: rules with
    ``hand_out_double``, the player in seat 0 and zen bots in seats 1–3, dealer 3, the automatic
    cut of the day's seed), or None."""
    day = daily_game(seed, name).to_record()
    for part in SETUP_FIELDS:
        if record.get(part) != day[part]:
            return part
    return None


def _match(session: Session) -> Match:
    assert isinstance(session, Match)
    return session


LESSON: Final = Lesson(
    game="pikdame",
    rules_url="/rules",
    anchors_en={"zug": "turn", "kombinationen": "melds"},
    start={
        "format": "pikdame-position/1",
        "rules": {"players": 2, "hand_out_double": False, "strict_1000": False},
        "round": 1,
        "dealer": 1,
        "turn": 0,
        "phase": "draw",
        "opened_at_turn_start": False,
        "hands": [
            ["7H", "8H", "9H", "KS", "KD", "5C", "6C", "TH", "2D"],
            ["7C", "4S", "JD", "QS"],
        ],
        "melds": [[], []],
        "stock": ["KC", "9S", "3D", "8D"],
        "discard": [],
        "removed": [],
        "totals": [0, 0],
    },
    steps=(
        Step("draw", "draw", "learn.pikdame.draw", "R4.1", "zug"),
        Step(
            "meld 7H 8H 9H",
            "meld",
            "learn.pikdame.run",
            "R5.2",
            "kombinationen",
            cards=("7H", "8H", "9H"),
        ),
        Step(
            "meld KS KD KC",
            "meld",
            "learn.pikdame.set",
            "R5.1",
            "kombinationen",
            cards=("KS", "KD", "KC"),
        ),
        Step("discard 2D", "discard", "learn.pikdame.discard", "R4.3", "zug", cards=("2D",)),
        Step("draw", "next", "learn.pikdame.otherDraws", "R4.1", "zug"),
        Step("discard 7C", "next", "learn.pikdame.otherDiscards", "R4.3", "zug"),
        Step(
            "take 5C 6C 7C",
            "take",
            "learn.pikdame.take",
            "R4.1",
            "zug",
            cards=("5C", "6C"),
            wrong={"take TH 5C": ("take TH 5C 7C", "invalid_meld")},
        ),
        Step("lay TH 1", "lay", "learn.pikdame.lay", "R4.2", "zug", cards=("TH",), target="0.1"),
        Step("discard 2D", "discard", "learn.pikdame.out", "R4.3", "zug", cards=("2D",)),
    ),
)


class PikDame:
    """Pik Dame: the daily round (R11) and whole games to 1000 at tables (engine.pikdame.match:
    ``cut K``, tie rounds, R8's end)."""

    name: str = "pikdame"
    title: str = "Pik Dame"
    engine_version: str = ENGINE_VERSION
    #: every capability: tables with house rules, the daily round, analysis, a lesson, the
    #: week's tournament (its deal is the daily's round)
    offers: tuple[Capability[Any], ...] = (
        TABLES,
        HOUSE_RULES,
        DAILY,
        ANALYSIS,
        LESSONS,
        EVENT,
        PAR,
    )
    marked: bool = False
    tie_break: Final = "turns"
    pages: Pages = Pages(prefix="", rules="/rules")
    #: R1, R12: Q♠ scores 100 wherever it lies (Tausende inherits it)
    badges: tuple[tuple[str, str], ...] = (("QS", "100"),)
    lesson: Lesson = LESSON
    #: Every bot level (R10), the Meister too (engine/pikdame/bots/meister.py, issue 40 item 8).
    #: The daily's seats are fixed (R11): its bots stay.
    levels: tuple[str, ...] = LEVELS
    #: The levels whose moves the bots' worker plays, off the request: a Meister's decision
    #: takes up to about 1.5 s of CPU, which would hold a web thread (docs/TABLES.md "Bots off
    #: the request")
    deferred: frozenset[str] = frozenset(LEVELS) - frozenset(PLAIN_LEVELS)
    default_level: Final = "advanced"  # R9's default
    options: tuple[str, ...] = ("hand_out_double", "strict_1000")
    hints: Final = True
    seat_counts: tuple[int, ...] = (2, 3, 4)  # R9 players
    form: TableForm = TableForm(
        lead="tables.newLead",
        options=(
            Option("hand_out_double", "tables.handOutDouble"),
            Option("strict_1000", "tables.strict1000"),
        ),
    )
    repeatable: Final = False
    view_lists_moves: Final = False

    def preload(self) -> None:
        # The levels load on first use: the optimiser behind them is heavy to import.
        from engine.pikdame.bots import advanced, beginner, meister, zen  # noqa: F401

    # --- the daily challenge (R11) --------------------------------------------------------

    def seed(self, secret: bytes, date: str) -> bytes:
        return daily_seed(secret, date)

    def day_facts(self, seed: bytes) -> dict[str, Any]:
        return {
            "engine": self.engine_version,
            "commitment": commitment(seed),
            "rules": DAILY_RULES.to_json(),
            "seats": seat_facts(list(daily_seats(""))),
        }

    def new(self, seed: bytes, player_name: str) -> Game:
        return daily_game(seed, player_name)

    def load(self, data: dict[str, Any]) -> Game:
        return Game.from_json(data)

    def to_json(self, game: Game) -> dict[str, Any]:
        return game.to_json()

    def seq(self, game: Game) -> int:
        return len(game.state.history)

    def play(self, game: Game, move: str) -> Events:
        return game.play(move, 0)

    def finished(self, game: Game) -> bool:
        return game.state.outcome is not None

    def result(self, game: Game) -> tuple[int, int]:
        outcome = game.state.outcome
        assert outcome is not None
        return outcome.round_scores[0], player_turns(game)

    def seat_view(self, game: Game) -> dict[str, Any]:
        return view(game.state, 0).to_json()

    def played_view(self, game: Game, events: Events) -> tuple[dict[str, Any], Events]:
        # The moves as seat 0 saw them (R10): a bot's face-down going-out card hidden (R4.3).
        seat_view = view(game.state, 0)
        history = seat_view.history
        return seat_view.to_json(), list(history[len(history) - len(events) :])

    def daily_hint(self, game: Game) -> dict[str, Any]:
        seat_view = view(game.state, 0)
        if seat_view.outcome is not None or seat_view.turn != 0 or seat_view.phase != "play":
            raise NoHint("wrong_phase", "a hint is available in your play phase")
        # Imported lazily: the optimiser is heavy to import.
        from engine.pikdame.optimiser import HINT, best_arrangement

        # A web worker waits for this: the hint's small deterministic budget keeps it under
        # 50 ms; past it the answer is the best found, marked as not proven optimal.
        best = best_arrangement(seat_view.hand, seat_view.melds[0], HINT)
        return {"moves": [str(m) for m in best.moves], "points": best.points, "exact": best.exact}

    def daily_record(self, game: Game, seed: bytes | None) -> dict[str, Any]:
        if seed is not None:
            return game.to_record(seed)
        # Without the seed the record can't be replayed anyway: it shows the moves as the
        # player saw them, without a bot's face-down going-out card (R4.3).
        record = game.to_record(None)
        record["moves"] = [{"seat": s, "move": m} for s, m in view(game.state, 0).history]
        return record

    def replay_steps(self, record: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
        return {"positions": positions(record, bytes.fromhex(record["deal"]["seed"]))}

    def owner_steps(self, game: Game, seed: bytes) -> dict[str, list[dict[str, Any]]]:
        return {"positions": positions(game.to_record(seed), seed, seen_by_player)}

    @property
    def part_name(self) -> str:
        return "round"

    def analyse(
        self, record: dict[str, Any], mode: str, part: int = 1, seat: int | None = None
    ) -> dict[str, Any]:
        return analyse(record, seat, round=part, mode=mode)

    def daily_parts(self, game: Game) -> int:
        return 1  # R11: the daily is one round

    def judge(self, record: dict[str, Any], seed: bytes, name: str, score: int | None) -> Verdict:
        bots = bots_of(record.get("engine"))  # the record's own version: a deploy fails no one
        part = setup_mismatch(record, seed, name)
        if part is not None:
            return Verdict.rejected(f"setup_mismatch in {part}")
        try:
            game = replay(record, seed, bots)
        except ReplayError as e:
            where = "" if e.move_index is None else f" at move {e.move_index}"
            # The code only: an engine message may name a bot's hidden card before the close.
            return Verdict.rejected(f"{e.code}{where}")
        outcome = game.state.outcome
        if outcome is None:
            return Verdict.rejected("not_finished")
        if outcome.round_scores[0] != score:
            return Verdict.rejected("score_mismatch")
        return Verdict.verified(outcome.round_scores[0], player_turns(game))

    # --- the week's tournament (docs/EVENTS.md): a deal is the daily's round -------------

    def event_new(self, seed: bytes, player_name: str) -> Game:
        return self.new(seed, player_name)

    def event_judge(
        self, record: dict[str, Any], seed: bytes, name: str, score: int | None
    ) -> Verdict:
        return self.judge(record, seed, name, score)

    def par(self, seed: bytes) -> tuple[int, int]:
        """The day's round with four zen bots, played to its end (Game.start runs the bots)."""
        seats = tuple(Seat("bot", level="zen") for _ in range(DAILY_RULES.players))
        game = Game.start(seed, DAILY_RULES, seats, DAILY_DEALER)
        outcome = game.state.outcome
        assert outcome is not None
        return outcome.round_scores[0], player_turns(game)

    # --- tables (R2, R8, R9) -------------------------------------------------------------

    def seats_refused(self, players: int) -> str | None:
        return None  # 2–4 seats, as every table has

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
        return Match.start(rules, seats, rules.players - 1, new_seed, self.deferred)

    def load_session(self, data: dict[str, Any]) -> Session:
        return Match.from_json(data, self.deferred)

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

    @property
    def table_fields(self) -> dict[str, Any]:
        # R2, R3: who cuts, whether the cut is awaited, the cut's lucky grab (R3.2)
        return {"cutter": None, "awaiting_cut": False, "lucky": []}

    def in_turn(self, move: str) -> bool:
        return not move.strip().lower().startswith("cut")  # R3: the cut is no turn's move

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

    def hidden(self, move: str) -> str:
        return FACE_DOWN_DISCARD  # R4.3: another seat sees a bare ``discard``

    def record(self, session: Session, seats: tuple[Seat, ...]) -> dict[str, Any]:
        return _match(session).to_record(seats)

    def match_seed(self, session: Session) -> str:
        raise NotImplementedError("every round of a whole game has its own seed")

    def table_steps(self, record: dict[str, Any]) -> dict[str, Any]:
        """``{"record", "rounds": [{"record", "positions", "result"}]}``: every round's
        positions (F5), each round's record cut from the game's."""
        rounds = []
        for entry in record["rounds"]:
            single = {
                "rules": record["rules"],
                "seats": record["seats"],
                "deal": {"dealer": entry["dealer"], "cut": entry["cut"]},
                "moves": entry["moves"],
            }
            steps = positions(single, bytes.fromhex(entry["seed"]))
            rounds.append({"record": single, "positions": steps, "result": entry["result"]})
        return {"record": record, "rounds": rounds}

    def table_analysable(self, session: Session, part: int, mode: str) -> str | None:
        # F3: each round has its own seed, revealed in the record once the round has ended, so
        # the real deal's analysis (``deal``) may follow the round's end, as ``view``'s does.
        match = _match(session)
        if not 1 <= part <= max(match.round, len(match.rounds)):
            return "unknown_round"
        if part > len(match.rounds):
            return "round_running"  # waiting for its cut (R2)
        _, game = match.rounds[part - 1]
        return None if game.finished else "round_running"

    # --- the lesson's page ---------------------------------------------------------------

    def lesson_positions(self, start: dict[str, Any], moves: list[str]) -> list[dict[str, Any]]:
        state = State.from_position(copy.deepcopy(start))
        docs = [state.to_position()]
        for move in moves:
            state.push(move)
            docs.append(state.to_position())
        return docs

    def scene(self, position: dict[str, Any]) -> dict[str, Any]:
        doc = State.from_position(copy.deepcopy(position)).to_position()
        melds = [
            {"seat": seat, "number": i + 1, "cards": meld["cards"]}
            for seat, own in enumerate(doc["melds"])
            for i, meld in enumerate(own)
        ]
        over = doc.get("outcome")
        counters: dict[str, Any] = {}
        if "opened" in doc:
            counters = {"opened": doc["opened"][0], "turnPoints": doc["turn_points"]}
        return {
            "hand": doc["hands"][0],
            "other": len(doc["hands"][1]),
            "otherCards": doc["hands"][1] if over else None,
            "stock": len(doc["stock"]),
            "discard": doc["discard"][-1] if doc["discard"] else None,
            "pile": len(doc["discard"]),
            "melds": melds,
            "counters": counters,
            "outcome": {"winner": over["winner"], "scores": over["round_scores"]} if over else None,
        }


ADAPTER: Final = PikDame()

__all__ = ["ADAPTER", "HIDDEN", "LESSON", "PikDame", "player_turns", "positions", "setup_mismatch"]
