"""Attempts in Redis: the live game (state + append-only record) in one hash per attempt.

Flask-free, shared by the web and the worker. A move is one load and one save under WATCH, so two
requests for the same attempt can never both apply: the loser sees a changed ``seq`` (409 stale).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, TypeVar, cast

import redis

from engine.core.events import event_seed
from service import games
from service.common import keys, names, played
from service.errors import AttemptExists, NameTaken, Stale


@dataclass(frozen=True)
class Expiry:
    """How long a new attempt's keys live, in seconds from now (service.dailies.archive.expiry_for):
    its token until its day no longer needs it; the attempt itself only when nothing will archive
    it. Durations, never moments: "now" is the app's clock, and Redis counts an EXPIRE's seconds
    on its own clock, so the two clocks never have to agree about a date."""

    token_s: int
    attempt_s: int | None


@dataclass(frozen=True)
class Attempt:
    """One attempt as stored: identity, the game and its verification facts."""

    id: str
    date: str
    name: str
    player: str
    token_hash: str
    ranked: bool
    status: str  # playing | finished
    seq: int
    game_json: str
    created_ms: int
    finished_ms: int | None
    verification: str | None  # None (unranked or playing) | queued | verified | rejected
    score: int | None  # the live round score of seat 0, set when the round ends
    turns: int | None  # the tie-break (the adapter's ``tie_break``: turns, hands …)
    reason: str | None
    kind: str = games.DEFAULT  # the daily game; stored only for a marked one
    #: An event deal's attempt (service.events: ``WEEK/N``, docs/EVENTS.md): its seed is the
    #: event's (F4e), its ``date`` the week's Sunday (so it closes with the event); None for a
    #: day's attempt, whose hash has no such field.
    event: str | None = None

    @property
    def daily(self) -> games.Daily:
        """The daily game's adapter, as the registry offers it (``games.DAILY``)."""
        return games.offering(games.DAILY)[self.kind]

    @property
    def analysis(self) -> games.Analysis:
        """The daily game's analysis (``games.ANALYSIS``; every daily game declares one)."""
        return games.offering(games.ANALYSIS)[self.kind]

    @property
    def played(self) -> Any:
        """The attempt's game as its adapter loads it (hidden cards inside)."""
        return self.daily.load(json.loads(self.game_json))

    def owned_by_token(self, token: str) -> bool:
        return hmac.compare_digest(token_hash(token), self.token_hash)

    @staticmethod
    def from_hash(h: dict[str, str]) -> Attempt:
        def opt_int(name: str) -> int | None:
            value = h.get(name, "")
            return int(value) if value != "" else None

        return Attempt(
            id=h["id"],
            date=h["date"],
            name=h["name"],
            player=h["player"],
            token_hash=h["token"],
            ranked=h["ranked"] == "1",
            status=h["status"],
            seq=int(h["seq"]),
            game_json=h["game"],
            created_ms=int(h["created"]),
            finished_ms=opt_int("finished"),
            verification=h.get("verification") or None,
            score=opt_int("score"),
            turns=opt_int("turns"),
            reason=h.get("reason") or None,
            kind=h.get("kind") or games.DEFAULT,
            event=h.get("event") or None,
        )


# What the owner check and the entity tag of an attempt's view need
# (service.dailies.api_attempts answers a client's unchanged copy with 304 from these): a few
# short fields, not the whole hash with its
# game record, which grows with every move.
HEAD_FIELDS: Final = (
    "id",
    "date",
    "player",
    "token",
    "ranked",
    "status",
    "seq",
    "verification",
    "kind",
)


@dataclass(frozen=True)
class AttemptHead:
    """The fields of :class:`Attempt` that say who may read it and which version it is."""

    id: str
    date: str
    player: str
    token_hash: str
    ranked: bool
    status: str
    seq: int
    verification: str | None
    kind: str = games.DEFAULT

    def owned_by_token(self, token: str) -> bool:
        return hmac.compare_digest(token_hash(token), self.token_hash)

    @staticmethod
    def from_values(values: list[str | None]) -> AttemptHead | None:
        """From ``HMGET key *HEAD_FIELDS``; None when the attempt does not exist."""
        attempt_id, date, player, token, ranked, status, seq, verification, kind = values
        if attempt_id is None:
            return None
        return AttemptHead(
            id=attempt_id,
            date=date or "",
            player=player or "",
            token_hash=token or "",
            ranked=ranked == "1",
            status=status or "",
            seq=int(seq or 0),
            verification=verification or None,
            kind=kind or games.DEFAULT,
        )


#: How long an attempt's rendered view stays for the read before Flask (service.dailies.
#: early_views): long enough for the reload or poll that follows a move, short enough that the
#: reset hour's hundreds of thousands of playing attempts hold one small view each for minutes,
#: not the day. A read after that renders it again (and stores it).
VIEW_TTL_S: Final = 300


def save_view(client: redis.Redis[str], attempt_id: str, tag: str, body: str) -> None:
    """Keep the owner's view ``body`` (the JSON answer of GET /api/attempts/{id}) as the view of
    entity tag ``tag``; an older tag's view in its place is simply replaced. ``client`` may be a
    transaction's pipeline (a move writes its view with the move)."""
    client.set(keys.attempt_view(attempt_id), f"{tag}\n{body}", ex=VIEW_TTL_S)


def view_of(stored: str | None, tag: str) -> str | None:
    """The stored view's body when it is the view of ``tag`` (the attempt's current version),
    else None: a move or a verdict since it was stored makes it stale."""
    if stored is None:
        return None
    stored_tag, _, body = stored.partition("\n")
    return body if stored_tag == tag else None


T = TypeVar("T")


def transaction(
    client: redis.Redis[str], body: Callable[[redis.client.Pipeline[str]], T], *watched: str
) -> T:
    """redis-py's optimistic transaction: WATCH ``watched``, run ``body`` (which reads, then
    calls ``multi()`` and queues its writes), EXEC; run again from the start when a watched key
    changed. Returns what ``body`` returned; an exception from ``body`` aborts, writing nothing."""
    result = client.transaction(body, *watched, value_from_callable=True)  # type: ignore[no-untyped-call]
    return cast(T, result)


class Played(NamedTuple):
    """What a move returns: the attempt and game after it (a Pik Dame Game or a GinMatch), the
    moves made (the player's and the bots' answers), and whether it finished the round (or
    match)."""

    attempt: Attempt
    game: Any
    events: list[tuple[int, str]]
    finished: bool


#: The owner's view after a move as (entity tag, JSON body), or None (not to be stored).
Renderer = Callable[[Attempt, Any, list[tuple[int, str]]], tuple[str, str] | None]


def _dumps(daily: games.Daily, game: Any) -> str:
    return json.dumps(daily.to_json(game), separators=(",", ":"))


def token_hash(token: str) -> str:
    """Only a token's SHA-256 is stored: a leaked database cannot act as a player."""
    return hashlib.sha256(token.encode()).hexdigest()


def load(client: redis.Redis[str], attempt_id: str) -> Attempt | None:
    h = client.hgetall(keys.attempt(attempt_id))
    return Attempt.from_hash(h) if h else None


def _fields(
    date: str, name: str, player: str, ranked: bool, game: Any, now_ms: int, kind: str
) -> tuple[str, dict[str | bytes, str | int | float | bytes]]:
    """A new attempt's id and hash fields (its token hash included, ``token`` holds the hash)."""
    daily = games.daily(kind)
    fields: dict[str | bytes, str | int | float | bytes] = {
        "id": secrets.token_hex(8),
        "date": date,
        "name": name,
        "player": player,
        "token": "",
        "ranked": "1" if ranked else "0",
        "status": "playing",
        "seq": str(daily.seq(game)),
        "game": _dumps(daily, game),
        "created": str(now_ms),
    }
    if daily.marked:  # the first daily game's attempt hash keeps its fields
        fields["kind"] = kind
    return str(fields["id"]), fields


def _write(
    client: redis.Redis[str],
    key: str,
    fields: dict[str | bytes, str | int | float | bytes],
    expiry: Expiry | None,
) -> None:
    def write_attempt(pipe: redis.client.Pipeline[str]) -> None:
        pipe.multi()
        pipe.hset(key, mapping=fields)
        if expiry is not None and expiry.attempt_s is not None:
            pipe.expire(key, expiry.attempt_s)

    transaction(client, write_attempt)


def _issue_token(
    client: redis.Redis[str], attempt_id: str, token: str, expiry: Expiry | None
) -> Attempt:
    client.set(
        keys.token(token_hash(token)), attempt_id, ex=None if expiry is None else expiry.token_s
    )
    stored = load(client, attempt_id)
    assert stored is not None
    return stored


def create(
    client: redis.Redis[str],
    *,
    date: str,
    name: str,
    player: str,
    ranked: bool,
    game: Any,
    now_ms: int,
    day_ordinal: int,
    expiry: Expiry | None = None,
    kind: str = games.DEFAULT,
) -> tuple[Attempt, str]:
    """Store a new attempt and return it with its bearer token (shown once, stored hashed).

    A ranked attempt claims the player's slot for the day and the look of its name in one
    transaction (on the day's slot), so two concurrent starts by one player yield one attempt and
    one ``AttemptExists``, and a look-alike of another player's name of the day ``NameTaken``.
    Slots, names, counts and ids are per daily game ``kind``.
    """
    attempt_id, fields = _fields(date, name, player, ranked, game, now_ms, kind)
    token = secrets.token_urlsafe(32)
    fields["token"] = token_hash(token)
    slot = keys.player_day(date, player, kind)
    lookalikes = keys.day_skeletons(date, kind)
    shape = names.skeleton(name)
    key = keys.attempt(attempt_id)

    def claim(pipe: redis.client.Pipeline[str]) -> None:
        existing = pipe.get(slot)
        if existing is not None:
            raise AttemptExists(str(existing))
        holder = pipe.hget(lookalikes, shape)
        if holder is not None and holder != player:
            raise NameTaken(name)
        pipe.multi()
        pipe.set(slot, attempt_id)
        pipe.hset(lookalikes, shape, player)
        pipe.incr(keys.day_count(date, kind))
        pipe.sadd(keys.day_ids(date, kind), attempt_id)

    # Three steps, each on one slot of a Redis Cluster (keys.attempt_tag, keys.day_tag): the
    # attempt first (nothing points at it yet), then the claim of the day's slot and the name's
    # look (the one transaction that decides), then the token. A start refused by the claim
    # deletes its unclaimed attempt; one that dies half way leaves at most an attempt no token
    # or slot points at (expiring with its day), never a slot or a token without its attempt.
    _write(client, key, fields, expiry)
    if ranked:
        try:
            transaction(client, claim, slot, lookalikes)
        except (AttemptExists, NameTaken):
            client.delete(key)
            raise
        # idempotent, read by the archive's index
        client.zadd(keys.days_index(kind), {date: day_ordinal})
    return _issue_token(client, attempt_id, token, expiry), token


def create_event_attempt(
    client: redis.Redis[str],
    *,
    date: str,
    event: str,
    name: str,
    player: str,
    ranked: bool,
    game: Any,
    now_ms: int,
    kind: str,
    claim: Callable[[str], bool],
    keep_s: int,
) -> tuple[Attempt, str] | None:
    """An event deal's attempt (service.events): stored as a day's attempt with its ``event``
    field, the same moves, verification and tokens, but none of a day's slots, counts or names.
    ``claim(attempt_id)`` (the event's own one-start-per-deal claim) runs after the attempt is
    written and before its token: when it answers False the attempt is deleted and None is
    returned. The attempt and its token live ``keep_s`` seconds (the event's retention:
    PIKDAME_EVENT_KEEP_DAYS after its close, docs/EVENTS.md)."""
    attempt_id, fields = _fields(date, name, player, ranked, game, now_ms, kind)
    token = secrets.token_urlsafe(32)
    fields["token"] = token_hash(token)
    fields["event"] = event
    key = keys.attempt(attempt_id)
    expiry = Expiry(token_s=keep_s, attempt_s=keep_s)
    _write(client, key, fields, expiry)
    if not claim(attempt_id):
        client.delete(key)
        return None
    return _issue_token(client, attempt_id, token, expiry), token


def attempt_seed(attempt: Attempt, secret: bytes) -> bytes:
    """The seed that dealt ``attempt``: its day's (F4), or an event deal's (F4e, ``WEEK/N``).
    Secret until its day (the event) has closed."""
    if attempt.event is None:
        return attempt.daily.seed(secret, attempt.date)
    week, n = attempt.event.split("/")
    return event_seed(secret, attempt.kind, week, int(n))


def attempt_for_token(client: redis.Redis[str], token: str) -> Attempt | None:
    """The attempt a bearer token was issued for, or None."""
    attempt_id = client.get(keys.token(token_hash(token)))
    return None if attempt_id is None else load(client, str(attempt_id))


def player_for_token(client: redis.Redis[str], token: str) -> str | None:
    """The player of the attempt a bearer token was issued for, or None (service.web.identity's
    token reader, registered by the app)."""
    attempt = attempt_for_token(client, token)
    return None if attempt is None else attempt.player


def attempt_for_player(
    client: redis.Redis[str], date: str, player: str, kind: str = games.DEFAULT
) -> str | None:
    value = client.get(keys.player_day(date, player, kind))
    return None if value is None else str(value)


def play(
    client: redis.Redis[str],
    attempt_id: str,
    seq: int,
    move: str,
    now_ms: int,
    check: Callable[[Attempt], None] | None = None,
    render: Renderer | None = None,
) -> Played | None:
    """Apply the player's move and the bots' answers; returns (attempt, game, events,
    just_finished), or None when there is no such attempt.

    ``render`` (the route's) turns the attempt and game after the move into the owner's view
    and its entity tag, or None: that view is written with the move, in its transaction (no
    round trip of its own), for the reads before Flask (:func:`save_view`).

    The attempt is read once, under WATCH: ``check`` (the caller's owner and phase checks) sees
    it before the move and may raise; the returned attempt and game are built from what was read
    and written, not read again. Raises :class:`Stale` when ``seq`` is not current (checked again
    at commit time through WATCH), an engine error for an illegal move; nothing is written then.
    """
    key = keys.attempt(attempt_id)

    def move_on(pipe: redis.client.Pipeline[str]) -> Played | None:
        h = cast(dict[str, str], pipe.hgetall(key))
        if not h:
            return None
        current = Attempt.from_hash(h)
        if check is not None:
            check(current)
        if current.seq != seq:
            raise Stale(attempt_id)
        daily = current.daily
        game = daily.load(json.loads(current.game_json))
        events = daily.play(game, move)
        update: dict[str, str] = {"seq": str(daily.seq(game)), "game": _dumps(daily, game)}
        finished = daily.finished(game)
        if finished:
            score, turns = daily.result(game)
            update |= {
                "status": "finished",
                "finished": str(now_ms),
                "score": str(score),
                "turns": str(turns),
            }
            if current.ranked:
                update["verification"] = "queued"
        if finished and current.ranked:
            # On the reconciler's list before the finish is stored (FINISHED is in another slot
            # of a Redis Cluster): a finish that is stored is always on it, and an entry whose
            # move did not commit is dropped by the reconciler (the attempt is not finished).
            client.zadd(keys.FINISHED, {attempt_id: now_ms})
        updated = Attempt.from_hash(h | update)
        view = None if render is None else render(updated, game, events)
        pipe.multi()
        pipe.hset(key, mapping=cast(dict[str | bytes, str], update))
        if view is not None:
            save_view(pipe, attempt_id, *view)
        return Played(updated, game, events, finished)

    result: Played | None = transaction(client, move_on, key)
    if result is not None and result.finished and result.attempt.event is None:
        # After the finish is stored (the list is in the player's slot): the player's own games
        # list it from now on ("Meine Spiele", service.common.played); an event's deal is listed
        # by its event (docs/EVENTS.md).
        done = result.attempt
        summary = played.attempt_summary(done.id, done.kind, done.date, done.ranked, done.score)
        played.note(client, done.player, summary, now_ms)
    return result
