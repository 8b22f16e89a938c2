"""Tables in Redis (API.md "Tables", docs/TABLES.md): seats, invites, the whole game, the event
log the live streams resume from, presence, and the turn timer's deadline.

Flask-free, shared by the web (routes), the stream and the worker (the turn timer's job). Every
change is one read and one write of the table's document under WATCH, so two requests never
both apply (the loser sees a changed ``seq``: 409 stale); its events are appended to the log in
the same transaction (the table's keys share the hash tag ``{t:ID}``: one slot on a Redis
Cluster), then the invite's lifetime follows and the new seq is announced on the table's channel.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import redis

from engine.core.records import Seat
from service import games
from service.common import keys, played
from service.dailies.store import token_hash, transaction
from service.errors import (
    NO_RESIGN_PROPOSAL,
    NOT_A_REMATCH,
    NOT_CLAIMABLE,
    REMATCH_DECLINED,
    REMATCH_NOT_AGREED,
    Stale,
    TableError,
    TurnMoved,
)
from service.games.adapter import Analysis, Events, Session, Tables
from service.tables import public, ratings, talk

TIMERS: Final = (0, 30, 60, 90)  # R9 turn_timer: off (0) or seconds
#: At a rated table, the turn timer playing this many turns in a row for one seat (R9) resigns
#: that seat's game: leaving a rated game is a loss (docs/LOBBY.md "Leaving a rated game").
TIMEOUT_RESIGN: Final = 3


@dataclass(frozen=True)
class Lifetimes:
    """How long a table's keys live after its last change (seconds)."""

    idle: int  # an unfinished table (PIKDAME_TABLE_IDLE_HOURS)
    finished: int  # a finished game's table and record (PIKDAME_TABLE_KEEP_DAYS)


@dataclass
class Table:
    """A table as stored. ``seats[n]``: ``{"kind": "human", "name", "token", "player"}``, an open
    human seat ``{"kind": "human", "name": null}``, or ``{"kind": "bot", "level"}``."""

    id: str
    game: str
    players: int
    options: dict[str, bool]
    turn_timer: int
    seats: list[dict[str, Any]]
    invite: str
    created_ms: int
    status: str = "waiting"  # waiting | playing | finished
    session: dict[str, Any] | None = None
    first_seats: list[dict[str, Any]] = field(default_factory=list)
    deadline_ms: int | None = None
    resign: list[int] | None = None  # seats that agreed to the pending resign proposal
    seq: int = 0
    rematch: str | None = None  # the table of the rematch, once made
    #: "Wiederholen": the table this one repeats with the same seed (unranked practice)
    repeat_of: str | None = None
    #: the seed (hex) a repeat deals again; server side only, never in ``T``
    seed: str | None = None
    #: the table repeating this one's match, once made
    repeated: str | None = None
    #: listed in the lobby (docs/LOBBY.md); private tables are reached by invite only
    public: bool = False
    #: rated: account seats only, timed, the ratings move when it ends (service.tables.ratings)
    rated: bool = False
    #: the quick match's group that made this table (docs/LOBBY.md), if any
    matched: str | None = None
    #: per seat: the turns in a row the turn timer played for it (R9); a seat's own move resets it
    timed_out: list[int] = field(default_factory=list)
    #: seats resigned by the timer rule at a rated table (TIMEOUT_RESIGN turns in a row)
    forfeits: list[int] = field(default_factory=list)
    #: a finished rated game's rating changes, one per account seat (service.tables.ratings)
    rating_changes: list[dict[str, Any]] | None = None
    #: a rematch: the seats that asked for it or accepted it (it starts only once every human
    #: did: by itself among strangers, by the creator's start among friends)
    agreed: list[int] | None = None
    #: per seat: the moves it made itself (not the timer's, not bots'): a rated game needs
    #: ratings.MIN_MOVES from every account seat to count (docs/LOBBY.md, issue 38)
    moved: list[int] = field(default_factory=list)
    #: a rematch: the seat that declined it (the offer is over: it never starts)
    declined: int | None = None
    #: a rematch: the finished table it follows
    rematch_of: str | None = None
    #: the seat that declined the last resign proposal (R8), until the next proposal
    resign_declined: int | None = None
    #: the seat that claimed the game against an away seat (its forfeit), if one did
    claimed_by: int | None = None
    #: when (ms) the last change left a bot of a deferred level to move (the Meister): the bots'
    #: worker plays it off the request (service.tables.bots); None while no bot is due
    bot_due_ms: int | None = None

    @property
    def kind(self) -> Tables:
        """The table's game, as the registry offers it at tables (``games.TABLES``)."""
        return games.offering(games.TABLES)[self.game]

    @property
    def analysis(self) -> Analysis:
        """The table's game's analysis (``games.ANALYSIS``; every table game declares one)."""
        return games.offering(games.ANALYSIS)[self.game]

    def loaded(self) -> Session:
        assert self.session is not None
        return self.kind.load_session(self.session)

    def seat_of(self, token: str | None, player: str | None) -> int | None:
        """The caller's seat: by bearer token (its hash), else by the session's player."""
        if token is not None:
            digest = token_hash(token)
            for n, seat in enumerate(self.seats):
                if seat.get("token") == digest:
                    return n
            return None
        if player is not None:
            for n, seat in enumerate(self.seats):
                if seat.get("player") == player:
                    return n
        return None

    def humans(self) -> list[int]:
        return [n for n, s in enumerate(self.seats) if s["kind"] == "human" and s.get("name")]

    def open_seats(self) -> list[int]:
        """Human seats no one has taken yet: a join takes the first, a start gives them bots."""
        return [n for n, s in enumerate(self.seats) if s["kind"] == "human" and not s.get("name")]

    def engine_seats(self) -> tuple[Seat, ...]:
        return tuple(
            Seat("human", name=s["name"]) if s["kind"] == "human" else Seat("bot", level=s["level"])
            for s in self.seats
        )

    def rules_json(self) -> dict[str, Any]:
        """``T.rules``: the seats, the turn timer and the table's options; ``hints`` (on unless
        the creator turned it off) for a game with hints, also at a table made before it."""
        rules: dict[str, Any] = {
            "players": self.players,
            "turn_timer": self.turn_timer or None,
            **self.options,
        }
        if self.kind.hints:
            rules.setdefault("hints", True)
        return rules

    @property
    def from_lobby(self) -> bool:
        """Strangers at the table: listed in the lobby or made by the quick match."""
        return self.public or self.matched is not None

    def to_json(self) -> str:
        return json.dumps(self.__dict__, separators=(",", ":"))

    @staticmethod
    def from_json(text: str) -> Table:
        return Table(**json.loads(text))


def new_seed() -> bytes:
    """A round's seed from the operating system's CSPRNG (API.md "Fairness")."""
    return secrets.token_bytes(32)


def load(client: redis.Redis[str], table_id: str) -> Table | None:
    text = client.get(keys.table(table_id))
    return None if text is None else Table.from_json(str(text))


def by_invite(client: redis.Redis[str], invite: str) -> Table | None:
    """The table an invite code opens (None for an unknown or expired code)."""
    table_id = client.get(keys.invite(invite))
    return None if table_id is None else load(client, str(table_id))


def events_after(
    client: redis.Redis[str], table_id: str, after: int, upto: int | None = None
) -> list[dict[str, Any]]:
    """The stored events with seq > ``after`` (each ``{"seq", "seat", "move", "face_down"}``,
    and ``"timer": true`` when the turn timer played it),
    up to seq ``upto`` when given (a change's own: later ones may be in the log already)."""
    end = -1 if upto is None else upto - 1
    if upto is not None and upto <= after:
        return []
    return [json.loads(e) for e in client.lrange(keys.table_events(table_id), max(after, 0), end)]


@dataclass(frozen=True)
class TableRead:
    """Everything one seat's answer shows, read at once (:func:`read_answer`): the presenter
    (service.tables.documents) presents this value and reads nothing."""

    table: Table
    events: list[dict[str, Any]]  # the stored events the answer sends (a move's own)
    connected: list[bool]  # per seat: a live stream of it is open now (:func:`connected`)
    logged: list[dict[str, Any]]  # the log's events the seat's view lists (the timer's marks)
    muted: list[int]  # the seats whose phrases the seat muted (none for a reader)


def read_answer(
    client: redis.Redis[str],
    table: Table,
    listed: int,
    now_ms: int,
    seat: int | None,
    after: int | None = None,
) -> TableRead:
    """What ``seat``'s answer needs besides the table, in one round trip: the stored events with
    seq in (``after``, the table's seq] (none when ``after`` is None: a ``T`` alone; later ones
    may be in the log already), per seat whether a live stream of it is open now, the log's last
    ``listed`` events up to the table's seq (those a seat's view lists; none when 0) and the
    seats whose phrases ``seat`` muted. The events and the listed ones are both the log's tail
    up to the table's seq: one LRANGE reads them both."""
    seq = table.seq
    first = [max(after, 0)] if after is not None and after < seq else []  # the events' start
    if listed:
        first.append(seq - listed)
    start = min(first, default=seq)
    pipe = client.pipeline(transaction=False)
    pipe.zrangebyscore(keys.table_presence(table.id), now_ms, "+inf")
    if start < seq:
        pipe.lrange(keys.table_events(table.id), start, seq - 1)
    if seat is not None:
        pipe.hget(keys.table_mutes(table.id), str(seat))
    replies = iter(pipe.execute())
    connected = _connected(next(replies), table.players)
    tail = [json.loads(e) for e in next(replies)] if start < seq else []
    events = tail[first[0] - start :] if after is not None and after < seq else []
    logged = tail[seq - listed - start :] if listed else []
    muted = talk.mutes_of(next(replies)) if seat is not None else []
    return TableRead(table, events, connected, logged, muted)


def _connected(present: list[str], players: int) -> list[bool]:
    """Per seat whether a live stream of it is open (the presence set's current members)."""
    seats = {int(m.split(":", 1)[0]) for m in present}
    return [n in seats for n in range(players)]


@dataclass(frozen=True)
class SeatRead:
    """A table as one seat's live stream reads it (:func:`read_for_seat`): the table, its
    stored events after the stream's last seq, and the seats' presence and the seat's mutes
    read with them."""

    table: Table
    events: list[dict[str, Any]]
    connected: list[bool]
    muted: list[int]


def read_for_seat(
    client: redis.Redis[str], table_id: str, after: int, seat: int, now_ms: int
) -> SeatRead | None:
    """The table and its stored events with seq > ``after`` read in one transaction (one slot),
    so the events end exactly at the table's seq: a change committed meanwhile is in neither, and
    a stream resuming from that seq sends it once (docs/TABLES.md, "The live stream"). In the
    same transaction, the parts of :func:`read_answer` that need no table (the presence, the
    seat's mutes): one round trip for each message of a stream (a timer table's listed events,
    when these events do not hold them, take one more: :func:`events_after`). None when the
    table is gone."""
    pipe = client.pipeline(transaction=True)
    pipe.get(keys.table(table_id))
    pipe.lrange(keys.table_events(table_id), max(after, 0), -1)
    pipe.zrangebyscore(keys.table_presence(table_id), now_ms, "+inf")
    pipe.hget(keys.table_mutes(table_id), str(seat))
    text, stored, present, mutes = pipe.execute()
    if text is None:
        return None
    table = Table.from_json(str(text))
    events = [e for e in map(json.loads, stored) if after < e["seq"] <= table.seq]
    return SeatRead(table, events, _connected(present, table.players), talk.mutes_of(mutes))


# --- changing a table --------------------------------------------------------------------------

Change = Callable[[Table], Events]


@dataclass(frozen=True)
class Changed:
    """A committed change: the table after it and the events it added; and the table's turn
    deadline and due bot turn before it (the moments a timer or a bots job answered, for their
    lateness: read in the change's transaction, no second read)."""

    table: Table
    events: Events
    deadline_before: int | None = None
    bot_due_before: int | None = None


def change(
    client: redis.Redis[str],
    table_id: str,
    body: Change,
    lifetimes: Lifetimes,
    now_ms: int,
    *,
    by_timer: bool = False,
    announce: bool = True,
) -> Changed:
    """Read the table under WATCH, let ``body`` change it (raise to change nothing), write it,
    append its events to the log and announce the new seq on the table's channel (unless
    ``announce`` is False: the caller announces once what the change names exists).
    ``by_timer``: the turn timer played (R9): the first events, those of the seat whose time
    ran out, are logged with ``"timer": true`` (the bots' answers after them are not)."""
    key = keys.table(table_id)
    ended: list[bool] = []  # whether the committed change ended the game
    began: list[bool] = []  # whether it started the game

    def run(pipe: redis.client.Pipeline[str]) -> Changed:
        text = pipe.get(key)
        if text is None:
            raise TableError(404, "unknown_table", "no such table")
        table = Table.from_json(str(text))
        deadline = table.deadline_ms
        due = table.bot_due_ms
        was = table.status
        events = body(table)
        ended[:] = [was != "finished" and table.status == "finished"]
        began[:] = [was == "waiting" and table.status == "playing"]
        if table.deadline_ms is not None and table.deadline_ms != deadline:
            # Before the write that sets it (another slot on a Redis Cluster: not in the
            # transaction): a deadline is never stored without its index entry, so the
            # reconciler finds the turn whatever happens to its timer job.
            client.zadd(keys.TABLE_DEADLINES, {table.id: table.deadline_ms})
        if table.bot_due_ms is not None and table.bot_due_ms != due:
            # The same for a due bot turn (service.tables.bots): the bots' sweep finds it.
            client.zadd(keys.TABLE_BOTS, {table.id: table.bot_due_ms})
        session = None
        face_down: list[bool] = []
        if events:
            session = table.loaded()
            start = table.seq
            face_down = [table.kind.face_down(session, start + i + 1) for i in range(len(events))]
        timed = _timer_run(events) if by_timer else 0
        pipe.multi()
        _write(pipe, table, events, face_down, lifetimes, now_ms, timed)
        return Changed(table, events, deadline, due)

    changed: Changed = transaction(client, run, key)
    if began and began[0] and changed.table.rated:
        client.zadd(keys.RATED_OPEN, {table_id: now_ms})  # settled when it ends (or swept)
    if announce:
        _announce(client, changed.table, lifetimes)
    if ended and ended[0]:
        _note_finished(client, changed.table, now_ms)
    return changed


def _timer_run(events: Events) -> int:
    """How many of the turn timer's events it played for the seat whose time ran out: the
    leading ones of that seat (its turn, or its cut); the bots answer after them (R9)."""
    run = 0
    while run < len(events) and events[run][0] == events[0][0]:
        run += 1
    return run


def _note_finished(client: redis.Redis[str], table: Table, now_ms: int) -> None:
    """Every human who played the game (seated at its start or at its end) has it among their own
    finished games (service.common.played), after the table's transaction (other slots)."""
    summary = played.table_summary(table.id, table.game, table.players)
    players = {s.get("player") for s in [*table.first_seats, *table.seats] if s["kind"] == "human"}
    for player in sorted(p for p in players if p):
        played.note(client, player, summary, now_ms)
    if table.rated:
        settle_ratings(client, table.id, now_ms)


def settle_ratings(client: redis.Redis[str], table_id: str, now_ms: int) -> list[dict[str, Any]]:
    """A finished rated table's ratings (service.tables.ratings), once: the account seats ranked
    by the result (a seat resigned by the timer rule last; bots do not rate), the changes written
    into the table (``T.rating_changes``, its streams told). Idempotent: the worker's sweep
    settles a table whose finishing process died before it did (``keys.RATED_OPEN``)."""
    table = load(client, table_id)
    if table is None or table.status != "finished" or not table.rated:
        client.zrem(keys.RATED_OPEN, table_id)
        return []
    if table.rating_changes is not None:
        client.zrem(keys.RATED_OPEN, table_id)
        return table.rating_changes
    result = result_of(table, table.kind.facts(table.loaded(), None)["result"]) or {}
    totals = list(result.get("totals") or [0] * table.players)
    order = result.get("places") or ratings.places(totals, result.get("winner"), table.forfeits)
    rated = [
        ratings.Rated(n, s["account"], s["name"], s.get("address"), order[n])
        for n, s in enumerate(table.seats)
        if s["kind"] == "human" and s.get("account")
    ]
    # no real game (issue 38): ended, with no seat forfeited by the timer, before every
    # account seat made ratings.MIN_MOVES moves of its own (an agreed resignation)
    moved = [*table.moved, *[0] * table.players]
    counts = bool(table.forfeits) or all(moved[r.seat] >= ratings.MIN_MOVES for r in rated)
    changes = ratings.settle(client, table.game, table.id, rated, now_ms, counts)

    def note(t: Table) -> Events:
        t.rating_changes = changes
        return []

    lifetimes = Lifetimes(_remaining(client, table.id), _remaining(client, table.id))
    change(client, table.id, note, lifetimes, now_ms)
    client.zrem(keys.RATED_OPEN, table_id)
    return changes


def result_of(table: Table, result: dict[str, Any] | None) -> dict[str, Any] | None:
    """``T.result`` says what happened: the game's own result (R8, G2, as the record says it)
    and, at a forfeit (the timer rule, or a claim against an away seat), ``forfeited_by`` (and
    ``claimed_by``): the forfeiter is never the winner (the winner is the lone highest total of
    the other seats) and comes last in ``places`` (each seat's place: a forfeit last, then the
    winner, then by total, highest first; equal keys share a place), the order the ratings are
    settled in. The record keeps the engine's result (``end: "resign"``, replayed as played)."""
    if result is None:
        return None
    forfeits = [n for n in table.forfeits if 0 <= n < table.players]
    if not forfeits:
        return result  # as the record says it, and its replay (tests/service/test_tables_live.py)
    totals = list(result.get("totals") or [0] * table.players)
    others = [n for n in range(table.players) if n not in forfeits]
    best = max((totals[n] for n in others), default=0)
    tops = [n for n in others if totals[n] == best]
    winner = tops[0] if len(tops) == 1 else None
    return {
        **result,
        "winner": winner,
        "forfeited_by": forfeits[0],
        "claimed_by": table.claimed_by,
        "places": ratings.places(totals, winner, forfeits),
    }


def _remaining(client: redis.Redis[str], table_id: str) -> int:
    """The table's own lifetime left (s): a note written after the end keeps it."""
    return max(60, int(client.ttl(keys.table(table_id))))


def _ttl(table: Table, lifetimes: Lifetimes) -> int:
    return lifetimes.finished if table.status == "finished" else lifetimes.idle


def _write(
    pipe: redis.client.Pipeline[str],
    table: Table,
    events: Events,
    face_down: list[bool],
    lifetimes: Lifetimes,
    now_ms: int,
    timed: int = 0,
) -> None:
    """The table's own keys (one slot): its document and its event log (the first ``timed``
    events marked as the turn timer's)."""
    log = keys.table_events(table.id)
    first = table.seq + 1
    if events:
        pipe.rpush(
            log,
            *(
                json.dumps(
                    {"seq": first + i, "seat": s, "move": m, "face_down": down}
                    | ({"timer": True} if i < timed else {})
                )
                for i, ((s, m), down) in enumerate(zip(events, face_down, strict=True))
            ),
        )
        table.seq += len(events)
    ttl = _ttl(table, lifetimes)
    pipe.set(keys.table(table.id), table.to_json(), ex=ttl)
    pipe.expire(log, ttl)


def _announce(client: redis.Redis[str], table: Table, lifetimes: Lifetimes) -> None:
    """After the table's transaction, idempotent, in other slots of a Redis Cluster (PUBLISH is
    not allowed in a cluster's transaction): the invite lives as long as the table, and the
    live streams hear the new seq (they re-read the log); a public table's lobby entry follows."""
    client.set(keys.invite(table.invite), table.id, ex=_ttl(table, lifetimes))
    client.publish(keys.table_channel(table.id), str(table.seq))
    if table.public:
        listed = table.status != "finished" and table.declined is None
        public.note(client, table.id, table.created_ms, lobby_entry(table) if listed else None)


def lobby_entry(table: Table) -> dict[str, Any]:
    """A public table's lobby entry (service.tables.public): public facts only, no card."""
    seats = []
    for s in table.seats:
        shown: dict[str, Any] = {"kind": s["kind"]}
        if s["kind"] == "human":
            shown["name"] = s.get("name")
            shown["rating"] = s.get("rating") if table.rated else None  # a casual game: none
            shown["provisional"] = s.get("provisional", False) if table.rated else False
        else:
            shown["level"] = s["level"]
        seats.append(shown)
    turn = table.loaded().turn if table.status == "playing" else None
    return {
        "id": table.id,
        "game": table.game,
        "rules": table.rules_json(),
        "rated": table.rated,
        "status": table.status,
        "free": len(table.open_seats()),
        "seats": seats,
        "turn": turn,
        "created": table.created_ms,
    }


@dataclass(frozen=True)
class Sitter:
    """Who takes a human seat: a name and a player id; for a rated table also the account and
    the rating shown to strangers, and at lobby tables the address (the operator's review of
    repeated pairings only: never in ``T``)."""

    name: str
    player: str
    account: str | None = None
    rating: int | None = None
    provisional: bool = False
    address: str | None = None

    def seat(self, token: str) -> dict[str, Any]:
        seat: dict[str, Any] = {
            "kind": "human",
            "name": self.name,
            "token": token_hash(token),
            "player": self.player,
        }
        if self.account is not None:
            seat["account"] = self.account
        if self.rating is not None:
            seat["rating"] = self.rating
            seat["provisional"] = self.provisional
        if self.address is not None:
            seat["address"] = self.address
        return seat


def create(
    client: redis.Redis[str],
    game: str,
    name: str,
    player: str,
    seats: list[dict[str, Any]],
    options: dict[str, bool],
    turn_timer: int,
    lifetimes: Lifetimes,
    now_ms: int,
    *,
    sitter: Sitter | None = None,
    public: bool = False,
    rated: bool = False,
) -> tuple[Table, str]:
    """A new waiting table; seat 0 is the creator's (``sitter``, else ``name`` and ``player``).
    Returns it with the creator's token."""
    token = secrets.token_urlsafe(32)
    stored = [dict(s) for s in seats]
    stored[0] = (sitter or Sitter(name, player)).seat(token)
    for s in stored[1:]:
        if s["kind"] == "human":
            s["name"] = None
    table = Table(
        id=secrets.token_hex(8),
        game=game,
        players=len(seats),
        options=options,
        turn_timer=turn_timer,
        seats=stored,
        invite=secrets.token_urlsafe(9),
        created_ms=now_ms,
        public=public,
        rated=rated,
    )
    pipe = client.pipeline(transaction=True)
    _write(pipe, table, [], [], lifetimes, now_ms)
    pipe.execute()
    _announce(client, table, lifetimes)
    return table, token


def create_seated(
    client: redis.Redis[str],
    table_id: str,
    game: str,
    seats: list[dict[str, Any]],
    options: dict[str, bool],
    turn_timer: int,
    lifetimes: Lifetimes,
    now_ms: int,
    *,
    rated: bool,
    matched: str,
) -> bool:
    """The quick match's table under the id the matcher chose, every seat taken (humans with
    their token hashes, bots): written only if no table has that id yet (a second builder of the
    same group finds it made: False). Started by :func:`start` as its seat 0."""
    table = Table(
        id=table_id,
        game=game,
        players=len(seats),
        options=options,
        turn_timer=turn_timer,
        seats=[dict(s) for s in seats],
        invite=secrets.token_urlsafe(9),
        created_ms=now_ms,
        rated=rated,
        matched=matched,
    )
    made = client.set(keys.table(table.id), table.to_json(), nx=True, ex=lifetimes.idle)
    if made:
        _announce(client, table, lifetimes)
    return bool(made)


def join(
    client: redis.Redis[str],
    invite: str,
    name: str,
    player: str,
    lifetimes: Lifetimes,
    now: int,
    sitter: Sitter | None = None,
) -> tuple[Table, str]:
    """Take the first open human seat (409 ``already_started`` / ``table_full``)."""
    table_id = client.get(keys.invite(invite))
    if table_id is None:
        raise TableError(404, "unknown_invite", "no table has this invite")
    done, token = take_seat(client, str(table_id), sitter or Sitter(name, player), lifetimes, now)
    return done.table, token


def take_seat(
    client: redis.Redis[str],
    table_id: str,
    sitter: Sitter,
    lifetimes: Lifetimes,
    now: int,
    *,
    by_id: bool = False,
) -> tuple[Changed, str]:
    """Take the first open human seat of a table, by its invite or (``by_id``) of a public
    table from the lobby: 403 ``private_table`` (by id), 403 ``account_required`` (a rated
    table without a signed-in account), 409 ``already_started`` / ``table_full`` /
    ``already_seated``. A public table whose last open seat this takes starts at once (its
    events in the change: the bots' first moves)."""
    token = secrets.token_urlsafe(32)

    def seat_me(table: Table) -> Events:
        if by_id and not table.public:
            raise TableError(403, "private_table", "this table is joined by its invite only")
        if table.rated and sitter.account is None:
            raise TableError(403, "account_required", "a rated table seats signed-in accounts")
        if table.status != "waiting":
            raise TableError(409, "already_started", "this table's game has started")
        open_seats = table.open_seats()
        if not open_seats:
            raise TableError(409, "table_full", "every seat of this table is taken")
        if any(s.get("player") == sitter.player for s in table.seats):
            raise TableError(409, "already_seated", "you have a seat at this table already")
        if sitter.account is not None and any(
            s.get("account") == sitter.account for s in table.seats
        ):
            raise TableError(409, "already_seated", "your account has a seat here already")
        table.seats[open_seats[0]] = sitter.seat(token)
        if table.public and len(open_seats) == 1:
            return _begin(table, now)  # the last stranger sat down: the game starts
        return []

    return change(client, table_id, seat_me, lifetimes, now), token


def start(
    client: redis.Redis[str], table_id: str, seat: int | None, lifetimes: Lifetimes, now: int
) -> Changed:
    """The creator starts: open seats become bots at R9's default level; round 1 begins. A
    rematch starts only once every human seat agreed (the creator's start is the creator's
    consent): 409 ``rematch_declined`` / ``rematch_not_agreed``."""

    def begin(table: Table) -> Events:
        member(table, seat)
        if seat != 0:
            raise TableError(403, "forbidden", "only the table's creator starts the game")
        if table.status != "waiting":
            raise TableError(409, "already_started", "this table's game has started")
        if table.agreed is not None:
            if table.declined is not None:
                raise TableError(409, REMATCH_DECLINED, "the rematch was declined")
            missing = [n for n in table.humans() if n != 0 and n not in table.agreed]
            if missing:
                raise TableError(
                    409, REMATCH_NOT_AGREED, f"seats {missing} have not agreed to the rematch"
                )
            table.agreed = sorted({*table.agreed, 0})
        return _begin(table, now)

    return change(client, table_id, begin, lifetimes, now)


def _begin(table: Table, now: int) -> Events:
    """Round 1 begins (R2): open seats become bots at R9's default level."""
    kind = table.kind
    unseated = table.open_seats()
    table.seats = [
        {"kind": "bot", "level": kind.default_level} if n in unseated else s
        for n, s in enumerate(table.seats)
    ]
    table.first_seats = [dict(s) for s in table.seats]
    table.timed_out = [0] * table.players
    rules = kind.rules_of(table.players, table.options)
    repeat = table.seed
    seeds = new_seed if repeat is None else (lambda: bytes.fromhex(repeat))
    session, events = kind.start(rules, table.engine_seats(), seeds)
    table.status = "playing"
    _after(table, session, now)
    return events


def member(table: Table, seat: int | None) -> int:
    if seat is None:
        raise TableError(403, "forbidden", "you have no seat at this table")
    return seat


def _after(
    table: Table, session: Session, now_ms: int, same_turn: tuple[int, int] | None = None
) -> None:
    """Store the session; set the turn timer's deadline when a human is to act (R9). The timer
    is per turn: while ``same_turn`` (the mover's seat and round) still acts, e.g. after a draw,
    the deadline stays."""
    table.session = session.to_json()
    table.resign = None if session.finished else table.resign
    table.bot_due_ms = now_ms if session.bot_due and not session.finished else None
    if session.finished:
        table.status = "finished"
        table.deadline_ms = None
        return
    turn = session.turn
    if same_turn == (turn, session.round) and table.deadline_ms is not None:
        return
    human = turn is not None and table.seats[turn]["kind"] == "human"
    table.deadline_ms = now_ms + table.turn_timer * 1000 if human and table.turn_timer else None


def play(
    client: redis.Redis[str],
    table_id: str,
    seat: int | None,
    seq: int,
    move: str,
    lifetimes: Lifetimes,
    now: int,
) -> Changed:
    """A seated human's move (its game's notation: F2, Pik Dame's ``cut K``), then the bots'
    answers."""

    def move_on(table: Table) -> Events:
        me = member(table, seat)
        if table.seq != seq:
            raise Stale(table_id)
        if table.status != "playing":
            raise TableError(409, "not_playing", f"the table is {table.status}")
        session = table.loaded()
        # an action of its own (Pik Dame's cut): the first turn after it gets its own time
        turn = (me, session.round) if table.kind.in_turn(move) else None
        events = session.play(move, me, new_seed)
        if me < len(table.timed_out):
            table.timed_out[me] = 0  # the player is back: the timer's count starts anew
        table.moved = [*table.moved, *[0] * (table.players - len(table.moved))]
        table.moved[me] += 1
        _after(table, session, now, turn)
        return events

    return change(client, table_id, move_on, lifetimes, now)


def play_bots(
    client: redis.Redis[str], table_id: str, seq: int, lifetimes: Lifetimes, now: int
) -> Changed | None:
    """One step of the bots' worker (service.tables.bots): if the table is still at ``seq`` with
    a bot due, that bot's move and the other bots' answers up to a human or the next deferred
    bot, committed as one change (its streams hear it). A job for a seq that has moved on, or a
    table with no bot due, does nothing (None)."""

    def step(table: Table) -> Events:
        if table.status != "playing" or table.seq != seq or table.bot_due_ms is None:
            raise TurnMoved
        session = table.loaded()
        events = session.play_bot(new_seed)
        if not events:
            raise TurnMoved  # no bot to move after all: nothing to write
        _after(table, session, now)
        return events

    try:
        return change(client, table_id, step, lifetimes, now)
    except (TurnMoved, TableError):
        return None


def autoplay(
    client: redis.Redis[str], table_id: str, seq: int, lifetimes: Lifetimes, now: int
) -> Changed | None:
    """The turn timer (R9): if the table is still at ``seq`` and its deadline has passed, the
    bot logic plays the human's turn. A job for a seq that has moved on does nothing (None)."""

    def expire(table: Table) -> Events:
        if table.status != "playing" or table.seq != seq or table.deadline_ms is None:
            raise TurnMoved
        if table.deadline_ms > now:
            raise TurnMoved  # not yet (a clock behind): the job is scheduled again by the caller
        session = table.loaded()
        turn = session.turn
        assert turn is not None
        if len(table.timed_out) < table.players:
            table.timed_out = [*table.timed_out, *[0] * (table.players - len(table.timed_out))]
        table.timed_out[turn] += 1
        if table.rated and table.timed_out[turn] >= TIMEOUT_RESIGN:
            # Leaving a rated game: the absent player resigns it (a loss for the ratings).
            table.forfeits = [*table.forfeits, turn]
            events = session.resign(turn)
            table.resign = None
        else:
            events = session.autoplay_turn(turn, new_seed)
        _after(table, session, now)
        return events

    try:
        return change(client, table_id, expire, lifetimes, now, by_timer=True)
    except (TurnMoved, TableError):
        return None


def set_level(
    client: redis.Redis[str],
    table_id: str,
    seat: int | None,
    target: int,
    level: str,
    lifetimes: Lifetimes,
    now: int,
) -> Changed:
    """Any human at the table changes a bot's level (R9), from the bot's next move on."""

    def relevel(table: Table) -> Events:
        member(table, seat)
        if not 0 <= target < table.players:
            raise TableError(404, "unknown_seat", f"the table has no seat {target}")
        if table.seats[target]["kind"] != "bot":
            raise TableError(409, "not_a_bot", f"seat {target} is not a bot")
        if level not in table.kind.levels:
            raise TableError(422, "bad_value", f"a level is one of {', '.join(table.kind.levels)}")
        if table.status == "finished":
            raise TableError(409, "finished", "the game is over")
        table.seats[target] = {"kind": "bot", "level": level}
        if table.session is not None:
            session = table.loaded()
            session.set_level(target, level)
            table.session = session.to_json()
        return []

    return change(client, table_id, relevel, lifetimes, now)


def resign(
    client: redis.Redis[str], table_id: str, seat: int | None, lifetimes: Lifetimes, now: int
) -> tuple[Changed, list[int]]:
    """Propose or agree to resign (R8): the game ends once every seated human agreed (at
    once against bots alone). Returns the change and the seats still to agree."""
    pending: list[int] = []

    def agree(table: Table) -> Events:
        me = member(table, seat)
        if table.status != "playing":
            raise TableError(409, "not_playing", f"the table is {table.status}")
        agreed = [*(table.resign or []), *([] if me in (table.resign or []) else [me])]
        pending[:] = [n for n in table.humans() if n not in agreed]
        if not table.resign:
            table.resign_declined = None  # a new proposal: the last one's "no" is history
        if pending:
            table.resign = agreed
            return []
        session = table.loaded()
        events = session.resign(agreed[0])  # the proposer's word, recorded (R8)
        table.resign = None
        _after(table, session, now)
        return events

    return change(client, table_id, agree, lifetimes, now), pending


def decline_resign(
    client: redis.Redis[str], table_id: str, seat: int | None, lifetimes: Lifetimes, now: int
) -> Changed:
    """A seated human says no to the pending resign proposal (R8: all must agree): the proposal
    ends and the game goes on; ``T.resign_declined`` names who said no (the proposer's "no"
    withdraws it). 409 ``not_playing``, ``no_resign_proposal``."""

    def refuse(table: Table) -> Events:
        me = member(table, seat)
        if table.status != "playing":
            raise TableError(409, "not_playing", f"the table is {table.status}")
        if not table.resign:
            raise TableError(409, NO_RESIGN_PROPOSAL, "no resign proposal is pending")
        table.resign = None
        table.resign_declined = me
        return []

    return change(client, table_id, refuse, lifetimes, now)


def claimable(table: Table, target: int, connected: list[bool]) -> bool:
    """Whether the other seats may claim the game against ``target`` now (docs/TABLES.md
    "Claiming an away seat's game"): a seated human, away (no live stream), whose turn the
    timer has played at least once since the seat's own last move (R9)."""
    if table.status != "playing" or not 0 <= target < table.players:
        return False
    seat = table.seats[target]
    if seat["kind"] != "human" or not seat.get("name"):
        return False
    timed = table.timed_out[target] if target < len(table.timed_out) else 0
    return timed >= 1 and not connected[target]


def claim(
    client: redis.Redis[str],
    table_id: str,
    seat: int | None,
    target: int,
    lifetimes: Lifetimes,
    now: int,
) -> Changed:
    """Another seated human claims the game against the away seat ``target``: the game ends as
    ``target``'s forfeit (``T.forfeits``, last place, never the winner; at a rated table a loss
    for the ratings), recorded as its resign (R8). 404 ``unknown_seat``, 422 ``bad_value`` (your
    own seat, a bot), 409 ``not_playing`` / ``not_claimable``."""
    found = load(client, table_id)
    present = connected(client, table_id, found.players if found else 0, now)

    def take(table: Table) -> Events:
        me = member(table, seat)
        if table.status != "playing":
            raise TableError(409, "not_playing", f"the table is {table.status}")
        if not 0 <= target < table.players:
            raise TableError(404, "unknown_seat", f"the table has no seat {target}")
        if target == me or table.seats[target]["kind"] != "human":
            raise TableError(422, "bad_value", "claim the game against another human's seat")
        if len(present) != table.players or not claimable(table, target, present):
            raise TableError(
                409,
                NOT_CLAIMABLE,
                "a game is claimed against a seat that is away after the timer played its turn",
            )
        table.forfeits = [*table.forfeits, target]
        table.claimed_by = me
        session = table.loaded()
        events = session.resign(target)
        table.resign = None
        _after(table, session, now)
        return events

    return change(client, table_id, take, lifetimes, now)


def rematch(
    client: redis.Redis[str], table_id: str, seat: int | None, lifetimes: Lifetimes, now: int
) -> Table:
    """A new waiting table with the same seats, rules and game (any seated human asks, once the
    game is over): every human keeps their seat, token and session. The asker agreed; it starts
    once every human seat did (:func:`answer_rematch`, the creator's :func:`start`). Asking again
    gives the same rematch; 409 ``rematch_declined`` once a seat declined it."""
    made: list[Table] = []

    def again(table: Table) -> Events:
        me = member(table, seat)
        if table.status != "finished":
            raise TableError(409, "not_finished", "a rematch follows a finished game")
        if table.rematch is not None:
            return []
        seats = [dict(s) for s in table.seats]
        if table.rated:
            for s in seats:  # strangers see the ratings as they are now
                if s.get("account"):
                    skill = ratings.read(client, table.game, s["account"])
                    s["rating"], s["provisional"] = skill.rating, skill.provisional
        new = Table(
            id=secrets.token_hex(8),
            game=table.game,
            players=table.players,
            options=dict(table.options),
            turn_timer=table.turn_timer,
            seats=seats,
            invite=secrets.token_urlsafe(9),
            created_ms=now,
            public=table.public,
            rated=table.rated,
            matched=table.matched,
            # every human's consent: strangers' starts once all agreed, friends' by the creator
            agreed=[me],
            rematch_of=table.id,
        )
        table.rematch = new.id
        made.append(new)
        return []

    done = change(client, table_id, again, lifetimes, now, announce=False)
    new = _follower(client, done.table, made, done.table.rematch, "the rematch", lifetimes, now)
    if new.declined is not None:
        raise TableError(409, REMATCH_DECLINED, "the rematch was declined")
    return new


def answer_rematch(
    client: redis.Redis[str],
    table_id: str,
    seat: int | None,
    lifetimes: Lifetimes,
    now: int,
    *,
    agree: bool = True,
) -> Changed:
    """``seat``'s answer to a rematch (a waiting table with ``agreed``): accept, or decline,
    which ends the offer for everyone (it never starts). Strangers' rematch starts once every
    seated human accepted; friends' waits for the creator's start. Accepting again, or a
    started rematch one accepted, changes nothing. 409 ``not_a_rematch``, ``rematch_declined``,
    ``already_started``."""

    def consent(table: Table) -> Events:
        me = member(table, seat)
        if table.agreed is None:
            raise TableError(409, NOT_A_REMATCH, "this table is no rematch offer")
        if table.status != "waiting":
            if agree and me in table.agreed:
                return []
            raise TableError(409, "already_started", "this table's game has started")
        if table.declined is not None:
            if agree:
                raise TableError(409, REMATCH_DECLINED, "the rematch was declined")
            return []
        if not agree:
            table.declined = me
            return []
        if me not in table.agreed:
            table.agreed = sorted([*table.agreed, me])
        if table.from_lobby and all(n in table.agreed for n in table.humans()):
            return _begin(table, now)
        return []

    return change(client, table_id, consent, lifetimes, now)


def agree_rematch(
    client: redis.Redis[str], table_id: str, seat: int | None, lifetimes: Lifetimes, now: int
) -> Changed:
    """``seat`` accepts the rematch (:func:`answer_rematch`)."""
    return answer_rematch(client, table_id, seat, lifetimes, now, agree=True)


def repeat(
    client: redis.Redis[str], table_id: str, seat: int | None, lifetimes: Lifetimes, now: int
) -> Table:
    """A repeat ("Wiederholen", the seed page) of a game one seed deals whole (Gin's): a new
    waiting table that deals the same seeded match again, with the same seats (every human keeps
    seat, token and session). A running match against bots alone is resigned first (nothing to
    undo: its cards stay as played); with another human at the table it must be over (409
    ``not_finished``). Asking again gives the same table. Tables are unranked, so is the
    repeat."""
    made: list[Table] = []

    def again(table: Table) -> Events:
        me = member(table, seat)
        if not table.kind.repeatable:
            raise TableError(422, "bad_value", "only a Gin match can be dealt again")
        if table.status == "waiting":
            raise TableError(409, "not_playing", "the table is waiting")
        events: Events = []
        if table.status == "playing":
            if [n for n in table.humans() if n != me]:
                raise TableError(409, "not_finished", "with a friend, repeat a finished match")
            session = table.loaded()
            events = session.resign(me)
            table.resign = None
            _after(table, session, now)
        if table.repeated is not None:
            return events
        seed = table.kind.match_seed(table.loaded())
        seats = [dict(s) for s in (table.first_seats or table.seats)]
        new = Table(
            id=secrets.token_hex(8),
            game=table.game,
            players=table.players,
            options=dict(table.options),
            turn_timer=table.turn_timer,
            seats=seats,
            invite=secrets.token_urlsafe(9),
            created_ms=now,
            repeat_of=table.id,
            seed=seed,
        )
        table.repeated = new.id
        made.append(new)
        return events

    done = change(client, table_id, again, lifetimes, now, announce=False)
    return _follower(client, done.table, made, done.table.repeated, "the repeat", lifetimes, now)


def _follower(
    client: redis.Redis[str],
    old: Table,
    made: list[Table],
    follower_id: str | None,
    what: str,
    lifetimes: Lifetimes,
    now: int,
) -> Table:
    """After a rematch or a repeat was noted on the old table: write the new table if this call
    made it (announced like any change), then announce the old table, so every seated player's
    stream of it sends a message naming the new table, which exists by then (asking again
    announces again: a friend whose notice was lost hears it now), and answer the new one."""
    if made:
        pipe = client.pipeline(transaction=True)
        _write(pipe, made[0], [], [], lifetimes, now)
        pipe.execute()
        _announce(client, made[0], lifetimes)
    _announce(client, old, lifetimes)
    found = load(client, str(follower_id))
    if found is None:
        raise TableError(404, "unknown_table", f"{what} has expired")
    return found


# --- presence ----------------------------------------------------------------------------------


def connected(client: redis.Redis[str], table_id: str, players: int, now_ms: int) -> list[bool]:
    """Per seat: whether some live stream of it is open now (each stream's lease in the
    presence set: :mod:`service.tables.stream_leases`)."""
    return _connected(client.zrangebyscore(keys.table_presence(table_id), now_ms, "+inf"), players)


__all__ = [
    "TIMERS",
    "Changed",
    "Lifetimes",
    "SeatRead",
    "Table",
    "TableError",
    "TableRead",
    "agree_rematch",
    "answer_rematch",
    "autoplay",
    "change",
    "claim",
    "claimable",
    "connected",
    "create",
    "decline_resign",
    "events_after",
    "join",
    "load",
    "new_seed",
    "play",
    "play_bots",
    "read_answer",
    "read_for_seat",
    "rematch",
    "repeat",
    "resign",
    "result_of",
    "set_level",
    "start",
]


def new_player() -> str:
    """A fresh anonymous player id (kept in the session cookie, service.web.identity.remember)."""
    return secrets.token_hex(8)
