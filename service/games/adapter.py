"""What the service needs of a game, behind one protocol: :class:`GameAdapter`.

Each game has one adapter (service/games/pikdame.py, gin.py, tausende.py) and the registry
(service/games/__init__.py) lists them; the rest of the service asks the adapter and never names
a game. An adapter speaks for its engine package (``engine/<game>/``) in the service's terms:

- the daily challenge: the day's seed (F4) and setup, a player's game (start, store, load, seat
  0's move and the bots' answers), its result and tie-break, its record, the replay viewer's
  positions (public, and the owner's before the close), and the verifier's :class:`Verdict`;
- tables: rules and options, seats and bot levels, start and load a whole-game
  :class:`Session`, one seat's facts (R10), what another seat sees of a face-down move, hints,
  the record and the replay viewer's positions;
- the pages: its pages' URLs (:class:`Pages`), its lesson
  (:class:`Lesson`) and what the lesson's page shows of a position.

A daily game whose keys, archive files and documents carry no game name is the *unmarked* one
(``marked`` False): Pik Dame, the first daily game, kept every name it had before there were
others (docs/GIN_DAILY.md). Flask-free and Redis-free: adapters compute, the stores store.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from service.errors import NoHint

SeedSource = Callable[[], bytes]
Events = list[tuple[int, str]]


@dataclass(frozen=True)
class Verdict:
    """The verifier's verdict on a finished daily record: ``verified`` with the score and the
    tie-break (the player's turns for Pik Dame, R11; the hands for Gin), or ``rejected`` with
    the reason (an engine error's code, never its message: it may name a hidden card)."""

    status: Literal["verified", "rejected"]
    score: int | None = None
    tie_break: int | None = None
    reason: str | None = None

    @staticmethod
    def verified(score: int, tie_break: int) -> Verdict:
        return Verdict("verified", score, tie_break)

    @staticmethod
    def rejected(reason: str) -> Verdict:
        return Verdict("rejected", reason=reason)


@dataclass(frozen=True)
class Pages:
    """Where a game's pages live (their templates are ``templates/<game>/<page>.html``: ``play``,
    ``replay``, ``table``, ``rules_<lang>``)."""

    prefix: str  # the URL prefix of its daily pages: ``/gin`` for ``/gin/play/<id>``, or ""
    rules: str  # its rules page's URL

    def replay_url(self, attempt_id: str) -> str:
        """A finished daily attempt's replay page."""
        return f"{self.prefix}/replay/{attempt_id}"


@dataclass(frozen=True)
class Step:
    """One step of a lesson: the move in the engine's notation and what the learner does for it.

    ``action`` is the page's button (``draw``, ``take``, ``meld``, ``lay``, ``discard``,
    ``knock``; ``next`` for the opponent's moves), ``cards`` the hand cards to select first,
    ``target`` the meld to click for a lay-off (``seat.number``), ``text`` the i18n key of the
    explanation (``<text>.hint`` is said after a wrong try), ``rule`` the rule it cites and
    ``anchor`` that rule's section on the rules page. ``wrong`` maps a likely wrong try, as
    the page writes it (the action, then the selected cards in canonical order S H D C, A … K),
    to the engine's move for it and the error code the engine answers (the page explains the
    code; the test checks the engine's answer).
    """

    move: str
    action: str
    text: str
    rule: str
    anchor: str
    cards: tuple[str, ...] = ()
    target: str | None = None
    wrong: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def mine(self) -> bool:
        return self.action != "next"


@dataclass(frozen=True)
class Lesson:
    """A guided first round (service.pages.learn): a made-up public deal and its steps."""

    game: str
    rules_url: str
    start: dict[str, Any]
    steps: tuple[Step, ...]
    #: The learner's actions that use no selected card (a selection does not count there).
    cardless: tuple[str, ...] = ("draw", "next")


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


class GameAdapter(Protocol):
    """One game as the service offers it: its daily challenge (when ``daily``), its tables and
    its pages. Every method is pure: the callers read and write Redis."""

    @property
    def name(self) -> str:
        """API.md's name of the game (``game=…``)."""
        ...

    @property
    def title(self) -> str:
        """How the site writes the game's name (a share text)."""
        ...

    @property
    def engine_version(self) -> str:
        """The engine version its new games are played with (F6 ``engine``, G9)."""
        ...

    @property
    def daily(self) -> bool:
        """Whether the game has a daily challenge (else: tables only)."""
        ...

    @property
    def marked(self) -> bool:
        """Whether the daily game's keys, archive files and documents carry its name (every
        daily game but the first, whose names stay as they were)."""
        ...

    @property
    def tie_break(self) -> str:
        """The daily ranking's tie-break after the score, fewer is better: ``turns`` (R11) or
        ``hands``; boards and verdicts name it (the stored field is ``turns`` for every game)."""
        ...

    @property
    def pages(self) -> Pages: ...

    def preload(self) -> None:
        """Import what answers moves but loads on first use (the bots), so a preloaded or
        forked process starts with it."""
        ...

    @property
    def lesson(self) -> Lesson: ...

    # --- the daily challenge --------------------------------------------------------------

    def seed(self, secret: bytes, date: str) -> bytes:
        """The day's seed (F4): secret until the day and its grace have closed."""
        ...

    def day_facts(self, seed: bytes) -> dict[str, Any]:
        """What a day's document says of the game (API.md): ``engine``, ``commitment``,
        ``rules`` and ``seats`` (seat 0 ``{"kind": "human"}``), in that order."""
        ...

    def new(self, seed: bytes, player_name: str) -> Any:
        """The day's game for a player, the bots' first moves made."""
        ...

    def load(self, data: dict[str, Any]) -> Any: ...

    def to_json(self, game: Any) -> dict[str, Any]: ...

    def seq(self, game: Any) -> int:
        """Moves in the record so far (every seat's): API.md's ``seq``."""
        ...

    def play(self, game: Any, move: str) -> Events:
        """Seat 0's move and the bots' answers; raises an engine error, changing nothing."""
        ...

    def finished(self, game: Any) -> bool: ...

    def result(self, game: Any) -> tuple[int, int]:
        """(score, tie-break) of a finished game."""
        ...

    def seat_view(self, game: Any) -> dict[str, Any]:
        """Seat 0's view (R10, G9): everything the player may know, nothing more."""
        ...

    def played_view(self, game: Any, events: Events) -> tuple[dict[str, Any], Events]:
        """After a move: seat 0's view (as :meth:`seat_view`) and the last ``events`` of
        ``game`` as seat 0 saw them (a bot's face-down card hidden), from one view."""
        ...

    def daily_hint(self, game: Any) -> dict[str, Any]:
        """Seat 0's hint ``{"moves", "points", "exact"}``; raises :class:`NoHint`."""
        ...

    def daily_record(self, game: Any, seed: bytes | None) -> dict[str, Any]:
        """The finished game's record: complete with the day's ``seed``; with None as seat 0
        saw it (no seed, the bots' face-down cards hidden)."""
        ...

    def replay_steps(self, record: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
        """The replay viewer's steps of a record with its seed: every position after the deal
        and after each move (``positions``; Gin also each hand's ``deals``)."""
        ...

    def owner_steps(self, game: Any, seed: bytes) -> dict[str, list[dict[str, Any]]]:
        """:meth:`replay_steps` as seat 0 saw each position, for the owner before the close."""
        ...

    @property
    def part_name(self) -> str:
        """What the game's analysis calls one part of a record (docs/ANALYSIS.md): ``round``
        (Pik Dame, Tausende) or ``hand`` (Gin); the routes' query word (``?round=N``,
        ``?hand=N``) and the ``unknown_<part>`` error's."""
        ...

    def analyse(
        self, record: dict[str, Any], mode: str, part: int = 1, seat: int | None = None
    ) -> dict[str, Any]:
        """The analysis document (docs/ANALYSIS.md) of ``seat``'s play (None: the first human
        seat) in round or hand ``part`` of a record with its seed (a daily record, or a table's
        whole-game record): ``view`` mode from what the seat saw, ``deal`` mode on the real
        deal. Raises the engine's errors (a record it can't replay)."""
        ...

    def daily_parts(self, game: Any) -> int:
        """How many rounds (hands) a finished daily game has to analyse."""
        ...

    def judge(self, record: dict[str, Any], seed: bytes, name: str, score: int | None) -> Verdict:
        """Pin the record to the day's setup, replay it from ``seed`` with the bots of its own
        engine version recomputing every bot move, compare the result with the live ``score``.
        Raises the engine's ``UnknownRelease`` when the record's version is not kept here."""
        ...

    @property
    def has_par(self) -> bool:
        """Whether the game has a bot's par: what its strongest bot scores in the player's seat
        on the day's deal (shown to players who finished)."""
        ...

    def par(self, seed: bytes) -> tuple[int, int]:
        """The par (score, tie-break) of the day of ``seed``, for a game that :attr:`has_par`."""
        ...

    # --- tables --------------------------------------------------------------------------

    @property
    def levels(self) -> tuple[str, ...]: ...

    @property
    def default_level(self) -> str: ...

    @property
    def options(self) -> tuple[str, ...]:
        """The table options stored with a table (``T.rules``), besides ``hints``."""
        ...

    @property
    def hints(self) -> bool:
        """Whether the game offers a seat's hint (the tables' ``hints`` option)."""
        ...

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """How many seats a table of the game may have (the quick match's choices)."""
        ...

    @property
    def repeatable(self) -> bool:
        """Whether one seed deals the whole game, so a table can deal it again
        ("Wiederholen")."""
        ...

    @property
    def view_lists_moves(self) -> bool:
        """Whether a seat's view lists the running hand's moves as the table log's last events,
        so the turn timer's marks (R9) are shown there too."""
        ...

    def seats_refused(self, players: int) -> str | None:
        """Why a table of ``players`` seats cannot hold the game, or None."""
        ...

    def hint(self, session: Session, seat: int) -> dict[str, Any]:
        """``seat``'s hint (``{"moves", "points", "exact"}``) from its own view alone (R10);
        raises :class:`NoHint` when it is not that seat's play phase."""
        ...

    def rules_of(self, players: int, options: dict[str, bool]) -> Any: ...

    def start(
        self, rules: Any, seats: tuple[Any, ...], new_seed: SeedSource
    ) -> tuple[Session, Events]: ...

    def load_session(self, data: dict[str, Any]) -> Session: ...

    def facts(self, session: Session, seat: int | None) -> dict[str, Any]:
        """T's game fields in ``seat``'s view (R10): round, dealer, totals, view, rounds …"""
        ...

    def face_down(self, session: Session, seq: int) -> bool:
        """Whether event ``seq`` (1-based) is a card laid face down (R4.3, G6)."""
        ...

    def hidden(self, move: str) -> str:
        """What another seat sees of a face-down move (R4.3: a bare ``discard``; G6: the knock
        card as ``??``)."""
        ...

    def record(self, session: Session, seats: tuple[Any, ...]) -> dict[str, Any]: ...

    def match_seed(self, session: Session) -> str:
        """The seed (hex) that deals a :attr:`repeatable` game again."""
        ...

    def table_steps(self, record: dict[str, Any]) -> dict[str, Any]:
        """A finished table's replay viewer document from its public record (every seed in
        it), checked by the engine."""
        ...

    def table_analysable(self, session: Session, part: int, mode: str) -> str | None:
        """Why round (hand) ``part`` of a table's game can't be analysed in ``mode`` now, as an
        error code, or None: ``unknown_<part>`` (not dealt yet), ``round_running`` (not ended),
        ``seed_secret`` (the ``deal`` mode while the seed that dealt it is still secret)."""
        ...

    # --- the lesson's page ---------------------------------------------------------------

    def lesson_positions(self, start: dict[str, Any], moves: list[str]) -> list[dict[str, Any]]:
        """The engine's position at ``start`` and after each of ``moves`` (raises the engine's
        error for an illegal one)."""
        ...

    def scene(self, position: dict[str, Any]) -> dict[str, Any]:
        """What the lesson's page shows of a position, from seat 0."""
        ...


def seat_facts(seats: list[Any]) -> list[dict[str, Any]]:
    """A day's seats as its document shows them: seat 0 is the player's (``{"kind": "human"}``),
    the others as the engine writes them."""
    shown = [s.to_json() for s in seats]
    shown[0] = {"kind": "human"}
    return shown


__all__ = [
    "Events",
    "GameAdapter",
    "Lesson",
    "NoHint",
    "Pages",
    "SeedSource",
    "Session",
    "Step",
    "Verdict",
    "seat_facts",
]
