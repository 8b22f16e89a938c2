"""Gin Rommé's adapter (GIN.md, engine/gin/): a daily match to 100 against the strong bot
(docs/GIN_DAILY.md), the week's tournament's deal, one hand against the strong bot
(docs/EVENTS.md), and matches at two-seat tables.

One seed deals a whole match (G3), so a match's commitment stands for every hand, its seed is
revealed at its end and a table can deal it again ("Wiederholen"). A hand-ending move shows that
hand with its outcome in the replay viewer; the next hand starts at its deal (``deals``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Final

from engine.core.errors import EngineError, IllegalMoveError, ReplayError
from engine.core.live import MatchSession
from engine.core.records import commitment, parse_seed
from engine.gin.analysis import analyse
from engine.gin.bots import LEVELS, PLAIN_LEVELS
from engine.gin.cards import from_mask, names, parse_card, to_mask
from engine.gin.daily import (
    DAILY_RULES,
    daily_hands,
    daily_match,
    daily_seats,
    daily_seed,
)
from engine.gin.event import event_match, ranked_score
from engine.gin.match import GinMatch, Seat
from engine.gin.melds import min_deadwood
from engine.gin.record import ENGINE_VERSION, read_record
from engine.gin.releases import bots_of
from engine.gin.replay import replay
from engine.gin.state import HandState
from engine.gin.view import FACE_DOWN, public_moves, view
from service.games.adapter import (
    ANALYSIS,
    DAILY,
    EVENT,
    HOUSE_RULES,
    LESSONS,
    TABLES,
    Capability,
    Events,
    Lesson,
    NoHint,
    Pages,
    SeedSource,
    Session,
    Step,
    TableForm,
    Verdict,
    seat_facts,
)

# The parts of a Gin daily record fixed for everyone on a day (docs/GIN_DAILY.md): the seats (the
# attempt's name against the strong bot), the day's commitment and the rules (none: a match to
# 100; an event deal's one hand, docs/EVENTS.md, is not a day's record, nor the other way round).
SETUP_FIELDS: Final = ("format", "rules", "seats", "seeds")

Shown = Callable[[HandState], dict[str, Any]]


def steps(
    record: dict[str, Any], seed: bytes, shown: Shown = HandState.to_position
) -> dict[str, list[dict[str, Any]]]:
    """A match's viewer steps (docs/GIN_DAILY.md): ``deals`` (each hand right after its deal,
    gin-position/1) and ``positions`` (the hand after each move; a hand-ending move shows that
    hand with its outcome), each as ``shown`` writes it (by default all of it)."""
    fields = read_record(record)
    match = GinMatch(seed, fields.seats, fields.one_hand)
    deals = [shown(match.state)]
    after = []
    for entry in record["moves"]:
        state = match.state
        match.push(entry["move"], int(entry["seat"]))
        after.append(shown(state))
        if match.state is not state:  # the next hand was dealt
            deals.append(shown(match.state))
    return {"deals": deals, "positions": after}


def seen_by_player(state: HandState) -> dict[str, Any]:
    """A position as seat 0 saw it (G6, docs/GIN_DAILY.md): the bot's hand only where it was
    laid open (its knock or its defence), the stock face down, the bot's knock card face down."""
    position = state.to_position()
    seen = view(state, 0)
    other = names(from_mask(seen.revealed)) if seen.revealed is not None else None
    position["hands"] = [position["hands"][0], other or [FACE_DOWN] * seen.other_size]
    position["stock"] = [FACE_DOWN] * len(position["stock"])
    position["knock"] = None if seen.knock is None else seen.knock.to_json()
    position["taken"] = position["taken"] if state.turn == 0 else None
    return position


def setup_mismatch(
    record: dict[str, Any], seed: bytes, name: str, setup: Callable[[bytes, str], GinMatch]
) -> str | None:
    """The first part of a Gin record's setup that is not ``setup``'s of ``seed`` (the day's
    match, or an event deal's hand), or None."""
    day = setup(seed, name).to_record(reveal_seed=False)
    for part in SETUP_FIELDS:
        mine = record.get(part)
        if part == "seeds" and isinstance(mine, dict):
            mine = {**mine, "seed": None}  # the stored record holds the seed; the day's is hidden
        if mine != day.get(part):
            return part
    return None


def judged(
    record: dict[str, Any],
    seed: bytes,
    name: str,
    score: int | None,
    setup: Callable[[bytes, str], GinMatch],
) -> Verdict:
    """Pin the record to ``setup``'s of ``seed`` (seats, commitment, rules, a released engine),
    replay every move with every bot move recomputed by the bots of the record's version and
    every hand result and the totals compared (engine.gin.replay), then compare the score (the
    match's own: a day's or an event deal's, engine.gin.event.ranked_score) with the live one."""
    if not isinstance(record, dict):
        return Verdict.rejected("bad_format")
    bots = bots_of(record.get("engine"))
    part = setup_mismatch(record, seed, name, setup)
    if part is not None:
        return Verdict.rejected(f"setup_mismatch in {part}")
    try:
        match = replay(record, seed, bots)
    except ReplayError as e:
        where = "" if e.move_index is None else f" at move {e.move_index}"
        return Verdict.rejected(f"{e.code}{where}")  # the code only (hidden cards)
    except EngineError as e:
        return Verdict.rejected(e.code)
    if not match.finished:
        return Verdict.rejected("not_finished")
    if ranked_score(match) != score:
        return Verdict.rejected("score_mismatch")
    return Verdict.verified(ranked_score(match), daily_hands(match))


class GinSession(MatchSession[GinMatch]):
    """A Gin match (engine.gin.GinMatch, GIN.md) as a table's session: one seed deals every
    hand, so its commitment stands for the whole match and the seed is revealed at its end."""

    # gin-log/1 names each seat's level once: a change in play would not replay.
    LEVEL_KEPT = "a Gin bot keeps its level once the match runs"


def _gin(session: Session) -> GinSession:
    assert isinstance(session, GinSession)
    return session


def _scene(state: HandState) -> dict[str, Any]:
    doc = state.to_position()
    knock = doc["knock"]
    melds: list[dict[str, Any]] = []
    if knock is not None:
        melds = [
            {"seat": knock["seat"], "number": i + 1, "cards": cards}
            for i, cards in enumerate(knock["melds"])
        ]
    defence = doc["defence"]
    if defence is not None:
        melds += [
            {"seat": 1, "number": i + 1, "cards": cards} for i, cards in enumerate(defence["melds"])
        ]
    hand = doc["hands"][0]
    over = doc["outcome"]
    laid = {card for meld in melds if meld["seat"] == 0 for card in meld["cards"]}
    own = [card for card in hand if card not in laid]
    return {
        "hand": own,
        "other": len(doc["hands"][1]),
        "otherCards": doc["hands"][1] if over else None,
        "stock": len(doc["stock"]),
        "discard": doc["discard"][-1] if doc["discard"] else None,
        "pile": len(doc["discard"]),
        "melds": melds,
        "counters": {"deadwood": min_deadwood(to_mask(parse_card(c) for c in hand))},
        "outcome": {"winner": over["winner"], "scores": over["scores"]} if over else None,
    }


LESSON: Final = Lesson(
    game="gin",
    rules_url="/rules/gin",
    start={
        "format": "gin-position/1",
        "hand": 1,
        "dealer": 1,
        "turn": 0,
        "phase": "draw",
        "must_draw": False,
        "hands": [
            ["5S", "6S", "7S", "9D", "9C", "2H", "3H", "4H", "KC", "QD"],
            ["AS", "2S", "3S", "JH", "JS", "JD", "4C", "7C", "8D", "TC"],
        ],
        "stock": ["KH", "8S", "6D", "5D"],
        "discard": ["3D", "9H"],
        "taken": None,
        "took": [[], []],
        "takes": 0,
        "knock": None,
        "defence": None,
        "outcome": None,
    },
    cardless=("draw", "next", "take"),  # G4: Gin's take is the discard pile's top card
    steps=(
        Step("take", "take", "learn.gin.take", "G5", "g-zug"),
        Step(
            "discard KC",
            "discard",
            "learn.gin.discard",
            "G6",
            "g-klopfen",
            cards=("KC",),
            wrong={"discard 9H": ("discard 9H", "take_not_allowed")},
        ),
        Step("draw", "next", "learn.gin.otherDraws", "G5", "g-zug"),
        Step("discard KH", "next", "learn.gin.otherDiscards", "G5", "g-zug"),
        Step("draw", "draw", "learn.gin.draw", "G5", "g-zug"),
        Step(
            "knock QD 5S 6S 7S 8S | 9H 9D 9C | 2H 3H 4H",
            "knock",
            "learn.gin.gin",
            "G6",
            "g-klopfen",
            cards=("QD",),
        ),
        Step("defend AS 2S 3S | JS JH JD", "next", "learn.gin.defend", "G6", "g-klopfen"),
    ),
)


class Gin:
    """Gin Rommé to 100 (GIN.md): the daily match against the strong bot, the week's
    tournament's one hand against it, and two-seat tables."""

    name: Final = "gin"
    title: Final = "Gin Rommé"
    engine_version: Final = ENGINE_VERSION
    #: tables (storing R9's keys, off: API v1's T), the daily match, analysis, a lesson, the
    #: week's tournament (one hand)
    offers: Final[tuple[Capability[Any], ...]] = (
        TABLES,
        HOUSE_RULES,
        DAILY,
        ANALYSIS,
        LESSONS,
        EVENT,
    )
    marked: Final = True
    tie_break: Final = "hands"
    pages: Final = Pages(prefix="/gin", rules="/rules/gin")
    badges: Final[tuple[tuple[str, str], ...]] = ()  # G2: no card scores apart from its rank
    lesson: Final = LESSON
    #: Every bot level (G9), the Meister too (engine/gin/bots/meister.py, issue 40 item 8)
    levels: Final = LEVELS
    #: The levels whose moves the bots' worker plays, off the request (a Meister's decision
    #: takes up to about a second of CPU: docs/TABLES.md "Bots off the request")
    deferred: Final = frozenset(LEVELS) - frozenset(PLAIN_LEVELS)
    default_level: Final = "strong"
    options: Final = ("hand_out_double", "strict_1000")  # R9's keys, stored as before (off)
    hints: Final = False  # the view carries Gin's help: the exact deadwood and a suggestion
    seat_counts: Final = (2,)  # G2: a duel
    #: R9's house rules are not Gin's: none offered; the computer offered as the opponent first
    form: Final = TableForm(lead="gin.newLead", versus_bot=True)
    repeatable: Final = True
    view_lists_moves: Final = True

    def preload(self) -> None:
        return None  # its bots load with the engine

    # --- the daily match (docs/GIN_DAILY.md) ---------------------------------------------

    def seed(self, secret: bytes, date: str) -> bytes:
        return daily_seed(secret, date)

    def day_facts(self, seed: bytes) -> dict[str, Any]:
        return {
            "engine": self.engine_version,
            "commitment": commitment(seed),
            "rules": dict(DAILY_RULES),
            "seats": seat_facts(list(daily_seats(""))),
        }

    def new(self, seed: bytes, player_name: str) -> GinMatch:
        return daily_match(seed, player_name)

    def load(self, data: dict[str, Any]) -> GinMatch:
        return GinMatch.from_json(data)

    def to_json(self, game: GinMatch) -> dict[str, Any]:
        return game.to_json()

    def seq(self, game: GinMatch) -> int:
        return len(game.moves)

    def play(self, game: GinMatch, move: str) -> Events:
        return game.play(move, 0)

    def finished(self, game: GinMatch) -> bool:
        return game.finished

    def result(self, game: GinMatch) -> tuple[int, int]:
        # a day's match or an event deal's hand: the match knows its rules
        return ranked_score(game), daily_hands(game)

    def seat_view(self, game: GinMatch) -> dict[str, Any]:
        # never the bot's hand, the stock, the seed or the bot's face-down knock card
        return game.view(0).to_json()

    def played_view(self, game: GinMatch, events: Events) -> tuple[dict[str, Any], Events]:
        # As seat 0 saw them: the bot's knock card is face down (G6, GIN_DECISIONS D15).
        return self.seat_view(game), public_moves(events, 0)

    def daily_hint(self, game: GinMatch) -> dict[str, Any]:
        # Gin's view carries its help (deadwood, suggestion)
        raise NoHint(
            "wrong_phase", "Gin has no hint: its view shows the exact deadwood and a suggested move"
        )

    def daily_record(self, game: GinMatch, seed: bytes | None) -> dict[str, Any]:
        # ``gin-log/1``: complete with its seed once the day has closed; before, without the
        # seed and with the bot's face-down knock cards as ``??`` (G6).
        if seed is not None:
            return game.to_record(reveal_seed=True)
        record = game.to_record(reveal_seed=False)
        record["moves"] = [{"seat": s, "move": m} for s, m in public_moves(game.moves, 0)]
        return record

    def replay_steps(self, record: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
        return steps(record, bytes.fromhex(record["seeds"]["seed"]))

    def owner_steps(self, game: GinMatch, seed: bytes) -> dict[str, list[dict[str, Any]]]:
        full = game.to_record(reveal_seed=True)
        return steps(full, bytes.fromhex(full["seeds"]["seed"]), seen_by_player)

    @property
    def part_name(self) -> str:
        return "hand"

    def analyse(
        self, record: dict[str, Any], mode: str, part: int = 1, seat: int | None = None
    ) -> dict[str, Any]:
        return analyse(record, seat, hand=part, mode=mode)

    def daily_parts(self, game: GinMatch) -> int:
        return len(game.results)  # every hand played to the match's end (G2)

    def judge(self, record: dict[str, Any], seed: bytes, name: str, score: int | None) -> Verdict:
        """The day's record judged (:func:`judged`) against the day's match of ``seed``."""
        return judged(record, seed, name, score, daily_match)

    # --- the week's tournament (docs/EVENTS.md): one hand against the strong bot ----------

    def event_new(self, seed: bytes, player_name: str) -> GinMatch:
        return event_match(seed, player_name)

    def event_judge(
        self, record: dict[str, Any], seed: bytes, name: str, score: int | None
    ) -> Verdict:
        """An event deal's record judged (:func:`judged`) against the one hand of ``seed``."""
        return judged(record, seed, name, score, event_match)

    # --- tables (GIN.md G2: two seats) ---------------------------------------------------

    def seats_refused(self, players: int) -> str | None:
        return None if players == 2 else "a Gin match has two seats (GIN.md G2)"

    def hint(self, session: Session, seat: int) -> dict[str, Any]:
        raise NoHint("hints_off", "a Gin table's view shows the exact deadwood instead")

    def rules_of(self, players: int, options: dict[str, bool]) -> None:
        return None

    def start(
        self, rules: Any, seats: tuple[Seat, ...], new_seed: SeedSource
    ) -> tuple[Session, Events]:
        if len(seats) != 2:
            raise IllegalMoveError("bad_value", "a Gin match has two seats (G2)", seats)
        match = GinMatch.start(new_seed(), (seats[0], seats[1]), defer=self.deferred)
        # the bots' first moves, if any (a deferred bot's are the bots' worker's)
        return GinSession(match, self.deferred), list(match.moves)

    def load_session(self, data: dict[str, Any]) -> Session:
        return GinSession(GinMatch.from_json(data), self.deferred)

    def in_turn(self, move: str) -> bool:
        return True  # no cut (G3): every move is a turn's

    @property
    def table_fields(self) -> dict[str, Any]:
        # no cut (G3), no lucky grab: the fields API v1's Gin T has always carried, empty
        return {"cutter": None, "awaiting_cut": False, "lucky": []}

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

    def hidden(self, move: str) -> str:
        _, _, groups = move[len("knock ") :].partition(" ")
        return f"knock {FACE_DOWN} {groups}".rstrip()

    def record(self, session: Session, seats: tuple[Seat, ...]) -> dict[str, Any]:
        return _gin(session).match.to_record(reveal_seed=True)

    def match_seed(self, session: Session) -> str:
        return str(_gin(session).match.to_record(reveal_seed=True)["seeds"]["seed"])

    def table_steps(self, record: dict[str, Any]) -> dict[str, Any]:
        """``{"record", "deals", "positions"}`` of a ``gin-log/1`` record with its seed,
        verified first (a record that does not replay raises ReplayError and is not shown)."""
        replay(record)
        return {"record": record, **steps(record, parse_seed(record["seeds"]["seed"]))}

    def table_analysable(self, session: Session, part: int, mode: str) -> str | None:
        # G3: one seed deals the whole match, revealed at its end: a hand's ``view`` analysis
        # follows the hand's end, the real deal's (``deal``) waits for the match's.
        match = _gin(session).match
        if not 1 <= part <= max(match.hand_no, len(match.results)):
            return "unknown_hand"
        if part > len(match.results):
            return "round_running"
        if mode == "deal" and not match.finished:
            return "seed_secret"
        return None

    # --- the lesson's page ---------------------------------------------------------------

    def lesson_positions(self, start: dict[str, Any], moves: list[str]) -> list[dict[str, Any]]:
        hand = HandState.from_position(copy.deepcopy(start))
        docs = [hand.to_position()]
        for move in moves:
            hand.push(move)
            docs.append(hand.to_position())
        return docs

    def scene(self, position: dict[str, Any]) -> dict[str, Any]:
        return _scene(HandState.from_position(copy.deepcopy(position)))


ADAPTER: Final = Gin()

__all__ = [
    "ADAPTER",
    "LESSON",
    "Gin",
    "GinSession",
    "judged",
    "seen_by_player",
    "setup_mismatch",
    "steps",
]
