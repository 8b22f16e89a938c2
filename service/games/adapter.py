"""What the service needs of a game: a small core every game has (:class:`Game`) and the
capabilities a game declares (``offers``): :class:`Tables`, :class:`HouseRules`,
:class:`Daily`, :class:`Analysis`, :class:`Lessons`, :class:`Event`. :class:`GameAdapter` is all
of them.

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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Literal, Protocol, TypeVar

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
    #: The rules page's section ids in English and Dutch where they differ from the German
    #: ones its steps name (``anchor``).
    anchors_en: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Option:
    """A house rule the new-table form offers as a checkbox: its key in the table's rules
    (``T.rules``, one of the adapter's ``options``), its label's i18n key, and what the API's
    documentation says of it (``POST /api/tables``' ``rules``; None: nothing)."""

    key: str
    text: str
    description: str | None = None


@dataclass(frozen=True)
class TableForm:
    """What the new-table form (templates/table_new.html, js/tables/new.js) offers of a game,
    besides its seat counts, bot levels (each named by the string ``level.<level>``) and hints,
    which the adapter declares for the API too: the lead text, the house rules offered, a link
    to its rules."""

    lead: str  # the i18n key of the form's lead text when the game is chosen
    options: tuple[Option, ...] = ()
    rules_link: str | None = None  # the i18n key of a link to its rules page, or no link
    versus_bot: bool = False  # whether the first other seat is offered as a bot first


def form_facts(adapter: Tables) -> dict[str, Any]:
    """The new-table form's declaration of ``adapter``'s game, as the page embeds it (JSON): the
    form is built from these, no page names a game."""
    form = adapter.form
    return {
        "game": adapter.name,
        "seats": list(adapter.seat_counts),
        # every level's name is ``level.<level>``, where the lobby and the invite read it too
        "levels": [{"level": level, "text": f"level.{level}"} for level in adapter.levels],
        "default_level": adapter.default_level,
        "hints": adapter.hints,
        "options": [{"key": o.key, "text": o.text} for o in form.options],
        "lead": form.lead,
        "rules": {"href": adapter.pages.rules, "text": form.rules_link}
        if form.rules_link is not None
        else None,
        "versus_bot": form.versus_bot,
    }


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

    @property
    def bot_due(self) -> bool:
        """Whether a bot is to move: play stopped before a bot whose level moves off the
        request (the game's ``deferred`` levels), for the bots' worker (docs/TABLES.md "Bots
        off the request")."""
        ...

    def play_bot(self, new_seed: SeedSource) -> Events:
        """The due bot's move, then the other bots' until a human or the next deferred bot
        is to move; nothing when no bot is due."""
        ...

    def resign(self, seat: int) -> Events: ...

    def set_level(self, seat: int, level: str) -> None: ...

    def to_json(self) -> dict[str, Any]: ...


class Game(Protocol):
    """The core every game has, as the service offers it: its name and engine, its pages and
    the cards they badge, its seats and bots, and the capabilities it declares (``offers``:
    :class:`Tables`, :class:`Daily`, :class:`Analysis`, :class:`Lessons`,
    :class:`HouseRules`); shared code asks the registry which games offer what
    (``service.games.offering``). Every method is pure: the callers read and write Redis."""

    @property
    def marked(self) -> bool:
        """Whether the daily game's keys, archive files and documents carry its name (every
        daily game but the first, whose names stay as they were)."""
        ...

    @property
    def offers(self) -> tuple[Capability[Any], ...]:
        """The capabilities the game declares, of :data:`CAPABILITIES` (:data:`DAILY`: it has
        a daily challenge, :class:`Daily`; a game without it is played at tables only)."""
        ...

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
    def pages(self) -> Pages: ...

    @property
    def badges(self) -> tuple[tuple[str, str], ...]:
        """The cards its pages mark with a badge, and the badge's text: Pik Dame's Q♠ "100"
        (R1); a game without one (Gin) marks none. The pages read them from the body's
        ``data-card-badges`` (templates/static/js/lib/cards.js)."""
        ...

    def preload(self) -> None:
        """Import what answers moves but loads on first use (the bots), so a preloaded or
        forked process starts with it."""
        ...

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """How many seats a table of the game may have (the quick match's choices)."""
        ...

    @property
    def levels(self) -> tuple[str, ...]: ...

    @property
    def default_level(self) -> str: ...


class Tables(Game, Protocol):
    """A game played at tables (docs/TABLES.md): its rules for a table, the new-table form's
    declaration, a whole game in play (:class:`Session`), one seat's facts and T's game fields,
    hints, the record and the replay viewer's steps."""

    @property
    def form(self) -> TableForm:
        """What the new-table form offers of the game (:func:`form_facts`)."""
        ...

    @property
    def hints(self) -> bool:
        """Whether the game offers a seat's hint (the tables' ``hints`` option)."""
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

    @property
    def table_fields(self) -> dict[str, Any]:
        """The game's own fields of T (API.md) besides every game's, with their values before
        its first deal: Pik Dame's cut and lucky grab (``cutter``, ``awaiting_cut``,
        ``lucky``, R2, R3); a game whose v1 documents carry them keeps them. The shared
        document copies these keys from :meth:`facts` (tests/service/test_table_answer.py)."""
        ...

    def facts(self, session: Session, seat: int | None) -> dict[str, Any]:
        """T's game fields in ``seat``'s view (R10): round, dealer, turn, totals, commitment,
        rounds, result, view, and the keys of :attr:`table_fields`."""
        ...

    def in_turn(self, move: str) -> bool:
        """Whether ``move`` is played in a seat's turn (the turn timer's, R9), or an action of
        its own after which the first turn gets its own time (Pik Dame's ``cut K``, R3)."""
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


class HouseRules(Game, Protocol):
    """A game whose tables store house rules (R9, R12.8): their keys in T's ``rules`` (the
    new-table form offers those its :class:`TableForm` lists)."""

    @property
    def options(self) -> tuple[str, ...]:
        """The table options stored with a table (``T.rules``), besides ``hints``."""
        ...


class Daily(Game, Protocol):
    """A game with a daily challenge (F4, docs/GIN_DAILY.md): the day's seed and setup, a
    player's game, its result and tie-break, its record, the replay viewer's positions, the
    verifier's :class:`Verdict`."""

    @property
    def tie_break(self) -> str:
        """The daily ranking's tie-break after the score, fewer is better: ``turns`` (R11) or
        ``hands``; boards and verdicts name it (the stored field is ``turns`` for every game)."""
        ...

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

    def judge(self, record: dict[str, Any], seed: bytes, name: str, score: int | None) -> Verdict:
        """Pin the record to the day's setup, replay it from ``seed`` with the bots of its own
        engine version recomputing every bot move, compare the result with the live ``score``.
        Raises the engine's ``UnknownRelease`` when the record's version is not kept here."""
        ...


class Par(Daily, Protocol):
    """A daily game with a bot's par: what its strongest bot scores in the player's seat on the
    day's deal (shown to players who finished; worker/par.py)."""

    def par(self, seed: bytes) -> tuple[int, int]:
        """The par (score, tie-break) of the day of ``seed``."""
        ...


class Event(Daily, Protocol):
    """A daily game that offers the week's tournament (docs/EVENTS.md): its event deal is played
    as a daily attempt (every :class:`Daily` member but :meth:`Daily.new` and
    :meth:`Daily.judge` serves it, the game knowing its own shape once made), dealt from the
    event's seed (F4e) in the event's shape: Pik Dame's daily round as it is, Gin's one hand
    against the strong bot instead of the daily's match to 100."""

    def event_new(self, seed: bytes, player_name: str) -> Any:
        """The event deal of ``seed`` for a player, the bots' first moves made."""
        ...

    def event_judge(
        self, record: dict[str, Any], seed: bytes, name: str, score: int | None
    ) -> Verdict:
        """:meth:`Daily.judge` for an event deal: the record pinned to the event deal's setup
        of ``seed`` (not a day's), replayed with every bot move recomputed, its score (the
        event's) compared with the live one."""
        ...


class Analysis(Game, Protocol):
    """A game whose records are analysed move by move (docs/ANALYSIS.md)."""

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

    def table_analysable(self, session: Session, part: int, mode: str) -> str | None:
        """Why round (hand) ``part`` of a table's game can't be analysed in ``mode`` now, as an
        error code, or None: ``unknown_<part>`` (not dealt yet), ``round_running`` (not ended),
        ``seed_secret`` (the ``deal`` mode while the seed that dealt it is still secret)."""
        ...


class Lessons(Game, Protocol):
    """A game with a guided first round (service.pages.learn) and its page's scenes."""

    @property
    def lesson(self) -> Lesson: ...

    def lesson_positions(self, start: dict[str, Any], moves: list[str]) -> list[dict[str, Any]]:
        """The engine's position at ``start`` and after each of ``moves`` (raises the engine's
        error for an illegal one)."""
        ...

    def scene(self, position: dict[str, Any]) -> dict[str, Any]:
        """What the lesson's page shows of a position, from seat 0."""
        ...


C = TypeVar("C")


@dataclass(frozen=True)
class Capability(Generic[C]):
    """A capability a game declares in ``offers``, standing for its protocol ``C`` (a protocol
    can't be a value of ``type[C]`` for the type checker): ``service.games.offering(DAILY)`` is
    typed as ``dict[str, Daily]``."""

    name: str


TABLES: Final = Capability[Tables]("tables")
HOUSE_RULES: Final = Capability[HouseRules]("house_rules")
DAILY: Final = Capability[Daily]("daily")
ANALYSIS: Final = Capability[Analysis]("analysis")
LESSONS: Final = Capability[Lessons]("lessons")
#: A daily game whose week's tournament is offered (an :class:`Event` is a :class:`Daily`).
EVENT: Final = Capability[Event]("event")
#: A daily game with a bot's par (:class:`Par`).
PAR: Final = Capability[Par]("par")
#: Every capability a game may declare (``Game.offers``), in this order.
CAPABILITIES: Final[tuple[Capability[Any], ...]] = (
    TABLES,
    HOUSE_RULES,
    DAILY,
    ANALYSIS,
    LESSONS,
    EVENT,
    PAR,
)


class GameAdapter(Tables, HouseRules, Event, Par, Analysis, Lessons, Protocol):
    """A game that offers every capability (Pik Dame; Tausende's adapter is Pik Dame's, Gin's
    has each): what code written before the split still asks of one. New shared code asks
    the registry for the capability it needs (``service.games.offering(Daily)``)."""


def seat_facts(seats: list[Any]) -> list[dict[str, Any]]:
    """A day's seats as its document shows them: seat 0 is the player's (``{"kind": "human"}``),
    the others as the engine writes them."""
    shown = [s.to_json() for s in seats]
    shown[0] = {"kind": "human"}
    return shown


__all__ = [
    "ANALYSIS",
    "CAPABILITIES",
    "DAILY",
    "EVENT",
    "HOUSE_RULES",
    "LESSONS",
    "PAR",
    "TABLES",
    "Analysis",
    "Capability",
    "Daily",
    "Event",
    "Events",
    "Game",
    "GameAdapter",
    "HouseRules",
    "Lesson",
    "Lessons",
    "NoHint",
    "Option",
    "Pages",
    "Par",
    "SeedSource",
    "Session",
    "Step",
    "TableForm",
    "Tables",
    "Verdict",
    "form_facts",
    "seat_facts",
]
