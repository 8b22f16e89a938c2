"""The quick match (docs/LOBBY.md "Quick match"): a queue per pool in Redis, matched by steps that
any process may run (a request, a match stream, the worker's sweep), each step one Lua script
(:mod:`service.lobby.scripts`), and the tables built from the groups the steps made.

A pool is what a player asks for: the game, the seats, the turn timer, rated or casual. Within a
pool, players of similar rating meet: each ticket accepts ratings within a range that widens the
longer it waits (:data:`BASE_RANGE` + :data:`WIDEN_PER_S` per second, at most
:data:`WIDEST_RANGE`), both tickets of a pair must accept each other, and after the wait the
player chose (``bots_after``) the free seats are given to bots. A group becomes a table whose id
is the group's, built by whoever made it; a builder that died is replaced by the next sweep (the
table is written only if absent, the seats' tokens are fixed once in the group's hash), so every
group gets exactly one table and every player at most one seat.

Flask-free: the routes, the stream group and the worker use it.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import redis

from service.common import keys, metrics
from service.errors import TableError
from service.games import GAMES, HOUSE_RULES, TABLES, offering
from service.lobby import scripts
from service.tables import public, ratings
from service.tables import store as tables
from service.tables.store import Changed, Lifetimes, Sitter, Table

BASE_RANGE: Final = 50  # rating points a new ticket accepts either side
WIDEN_PER_S: Final = 20  # and this many more per second waited
WIDEST_RANGE: Final = 800  # reached after 37.5 s
BOTS_AFTER_S: Final = 20  # the default wait before bots fill the free seats
SCAN: Final = 200  # tickets one step looks at as anchors (the cursor goes round the pool)
SIDE: Final = 8  # nearest candidates looked at on each side of an anchor's rating
GROUPS_PER_STEP: Final = 25  # groups one step makes at most
STEP_GAP_MS: Final = 250  # a pool's polls, streams and sweeps step it at most this often
ALIVE_MS: Final = 30_000  # a ticket nobody polled or streamed for this long is dropped
TICKET_TTL_S: Final = 600  # a ticket's hash (and the player's pointer) after its last change
REBUILD_MS: Final = 10_000  # a group without its table this long is built by the sweep
PREFIX: Final = keys.MATCH_TAG

_JOIN = scripts.with_prefix(scripts.JOIN, PREFIX)
_LEAVE = scripts.with_prefix(scripts.LEAVE, PREFIX)
_ALIVE = scripts.with_prefix(scripts.ALIVE, PREFIX)
_STEP = scripts.with_prefix(scripts.STEP, PREFIX)


@dataclass(frozen=True)
class Pool:
    """What a ticket waits for; its name keys its sorted sets."""

    game: str
    seats: int
    timer: int
    rated: bool

    @property
    def name(self) -> str:
        return f"{self.game}.{self.seats}.{self.timer}.{'rated' if self.rated else 'casual'}"

    @staticmethod
    def parse(name: str) -> Pool:
        game, seats, timer, kind = name.split(".")
        return Pool(game, int(seats), int(timer), kind == "rated")


@dataclass(frozen=True)
class Seeker:
    """Who queues: as seated later (a :class:`Sitter`), with the rating matched on."""

    player: str
    name: str
    account: str | None
    rating: int
    provisional: bool
    address: str | None


def _eval(client: redis.Redis[str], script: str, keys_: list[str], *args: Any) -> Any:
    return client.eval(script, len(keys_), *keys_, *args)  # type: ignore[no-untyped-call]


def join(
    client: redis.Redis[str],
    seeker: Seeker,
    pool: Pool,
    bots_after_s: int | None,
    now_ms: int,
    release: str | None = None,
) -> tuple[bool, str]:
    """Queue the seeker (``bots_after_s`` None: keep waiting for people). Returns (queued, the
    ticket): (False, its live ticket) when the player waits already or holds a matched ticket
    other than ``release`` (the one whose table the caller found over: :func:`held`)."""
    ticket = secrets.token_hex(8)
    fields: dict[str, Any] = {
        "player": seeker.player,
        "name": seeker.name,
        "account": seeker.account or "",
        "rating": seeker.rating,
        "provisional": int(seeker.provisional),
        "address": seeker.address or "",
        "alive": now_ms + ALIVE_MS,
        "bots_after": -1 if bots_after_s is None else bots_after_s * 1000,
        "game": pool.game,
        "seats": pool.seats,
        "timer": pool.timer,
        "rated": int(pool.rated),
    }
    flat = [x for pair in fields.items() for x in pair]
    queued, which = _eval(
        client,
        _JOIN,
        [
            keys.match_player(seeker.player),
            keys.match_ticket(ticket),
            keys.MATCH_POOLS,
            keys.match_pool(pool.name, "rating"),
            keys.match_pool(pool.name, "since"),
        ],
        ticket,
        pool.name,
        now_ms,
        TICKET_TTL_S,
        release or "",
        *flat,
    )
    return bool(queued), str(which)


def held(
    client: redis.Redis[str],
    found: dict[str, str],
    lifetimes: Lifetimes,
    now_ms: int,
    schedule: Schedule,
) -> dict[str, str] | None:
    """A matched ticket that still holds its player (issue 38): its table unfinished with the
    player seated. Its table is built first if its builder has not yet (or died). None: the
    ticket is over (its game finished, the player left the seat, the table gone), and its
    player may queue again (``release`` it in :func:`join`)."""
    if found.get("status") != "matched":
        return None
    if not found.get("table") and found.get("match"):
        build(client, found["match"], lifetimes, now_ms, schedule)
        found = ticket(client, found["id"]) or found
    table_id = found.get("table")
    table = tables.load(client, table_id) if table_id else None
    if table is None or table.status == "finished":
        return None
    if table.seat_of(None, found.get("player")) is None:
        return None
    return found


def leave(client: redis.Redis[str], player: str) -> tuple[str, str]:
    """Leave the queue at once: ("left", ticket), ("matched", ticket) when a table was found
    already, or ("none", …) when the player waits for nothing."""
    status, ticket = _eval(client, _LEAVE, [keys.match_player(player)])
    return str(status), str(ticket)


def current(client: redis.Redis[str], player: str) -> dict[str, str] | None:
    """The player's latest ticket (its hash with ``id``), or None."""
    ticket = client.get(keys.match_player(player))
    if ticket is None:
        return None
    stored = client.hgetall(keys.match_ticket(ticket))
    return None if not stored else {"id": ticket, **stored}


def ticket(client: redis.Redis[str], ticket_id: str) -> dict[str, str] | None:
    stored = client.hgetall(keys.match_ticket(ticket_id))
    return None if not stored else {"id": ticket_id, **stored}


def keep_alive(client: redis.Redis[str], ticket_id: str, now_ms: int) -> str | None:
    """The player still waits (a poll, a stream's heartbeat): its ticket counts ALIVE_MS more."""
    status = _eval(client, _ALIVE, [keys.match_ticket(ticket_id)], now_ms + ALIVE_MS, TICKET_TTL_S)
    return None if status is None else str(status)


def range_after(waited_ms: int) -> int:
    """The rating range a ticket accepts after waiting ``waited_ms`` (as the step computes it)."""
    return int(min(WIDEST_RANGE, BASE_RANGE + WIDEN_PER_S * waited_ms / 1000))


@dataclass(frozen=True)
class Group:
    """A group one step made: its id (its table's), how many bots, its tickets (longest first)."""

    id: str
    bots: int
    tickets: tuple[str, ...]


def step(client: redis.Redis[str], pool: str, now_ms: int, gap_ms: int = 0) -> list[Group]:
    """One matching step of a pool (one script): the groups it made, their tickets out of the
    pool and marked ``matched``. Their tables are built by :func:`build`. With ``gap_ms``, a
    step within that long after the pool's last one does nothing (polls, streams, sweeps:
    :data:`STEP_GAP_MS`); a join steps at once (0)."""
    ids = [secrets.token_hex(8) for _ in range(GROUPS_PER_STEP)]
    seats = Pool.parse(pool).seats
    out = _eval(
        client,
        _STEP,
        [
            keys.match_pool(pool, "rating"),
            keys.match_pool(pool, "since"),
            keys.match_pool(pool, "cursor"),
            keys.MATCH_MADE,
            keys.MATCH_POOLS,
            keys.match_pool(pool, "stepped"),
        ],
        pool,
        seats,
        now_ms,
        BASE_RANGE,
        WIDEN_PER_S * 1000,
        WIDEST_RANGE,
        SCAN,
        SIDE,
        gap_ms,
        *ids,
    )
    groups = []
    i = 0
    while i < len(out):
        group_id, bots, count = str(out[i]), int(out[i + 1]), int(out[i + 2])
        groups.append(Group(group_id, bots, tuple(str(t) for t in out[i + 3 : i + 3 + count])))
        i += 3 + count
    return groups


Schedule = Callable[[Table], None]


def default_options(game: str, rated: bool) -> dict[str, bool]:
    """A matched table's options: the house rules its game declares, all off (R9, R12.8); hints
    off at a rated table (a seat's hint is the exact optimiser: no help in a rated game)."""
    house = offering(HOUSE_RULES).get(game)
    options = dict.fromkeys(house.options if house is not None else (), False)
    if offering(TABLES)[game].hints:
        options["hints"] = not rated
    return options


def build(
    client: redis.Redis[str], group_id: str, lifetimes: Lifetimes, now_ms: int, schedule: Schedule
) -> Table | None:
    """The group's table, made and started (idempotent: a second builder finds it made and
    started), and every ticket told its table and its seat's token. None: the group is gone."""
    group = client.hgetall(keys.match_group(group_id))
    if not group:
        client.zrem(keys.MATCH_MADE, group_id)
        return None
    pool = Pool.parse(group["pool"])
    ids = group["tickets"].split(",")
    held_facts = [client.hgetall(keys.match_ticket(t)) for t in ids]
    client.hsetnx(
        keys.match_group(group_id),
        "tokens",
        json.dumps([secrets.token_urlsafe(32) for _ in ids]),
    )
    tokens = json.loads(client.hget(keys.match_group(group_id), "tokens") or "[]")
    kind = GAMES[pool.game]
    seats: list[dict[str, Any]] = []
    for facts, token in zip(held_facts, tokens, strict=True):
        sitter = Sitter(
            facts.get("name") or "?",
            facts.get("player") or secrets.token_hex(8),
            account=facts.get("account") or None,
            # shown at a rated table only: a casual game moves no rating (issue 38)
            rating=int(facts.get("rating") or ratings.NEW.rating) if pool.rated else None,
            provisional=facts.get("provisional") == "1",
            address=facts.get("address") or None,
        )
        seats.append(sitter.seat(token))
    seats += [{"kind": "bot", "level": kind.default_level}] * int(group["bots"])
    tables.create_seated(
        client,
        group_id,
        pool.game,
        seats,
        default_options(pool.game, pool.rated),
        pool.timer,
        lifetimes,
        now_ms,
        rated=pool.rated,
        matched=group_id,
    )
    table: Table | None
    try:
        done: Changed = tables.start(client, group_id, 0, lifetimes, now_ms)
        table = done.table
        if table.deadline_ms is not None:
            schedule(table)
    except TableError:
        table = tables.load(client, group_id)  # started by another builder
    for facts in held_facts:  # seated now (a second builder finds the table named already)
        if facts.get("since") and not facts.get("table"):
            waited_s = max(0, now_ms - int(facts["since"])) / 1000
            metrics.TIME_TO_SEAT.labels(pool.game).observe(waited_s)
    pipe = client.pipeline(transaction=False)
    keep = max(TICKET_TTL_S, lifetimes.idle)  # as long as the table may run (issue 38)
    for t, token, facts in zip(ids, tokens, held_facts, strict=True):
        pipe.hset(keys.match_ticket(t), mapping={"table": group_id, "token": token})
        pipe.expire(keys.match_ticket(t), keep)
        if facts.get("player"):
            pipe.expire(keys.match_player(facts["player"]), keep)
    pipe.hset(keys.match_group(group_id), "table", group_id)
    pipe.zrem(keys.MATCH_MADE, group_id)
    pipe.execute()
    for t in ids:  # not in the pipeline: a cluster's refuses PUBLISH there
        client.publish(keys.match_channel(t), "matched")
    return table


def step_and_build(
    client: redis.Redis[str],
    pool: str,
    lifetimes: Lifetimes,
    now_ms: int,
    schedule: Schedule,
    gap_ms: int = STEP_GAP_MS,
) -> list[Group]:
    """A step of one pool (unless it was stepped within ``gap_ms``) and the tables of the
    groups it made."""
    groups = step(client, pool, now_ms, gap_ms)
    for group in groups:
        build(client, group.id, lifetimes, now_ms, schedule)
    if groups:
        public.announce(client, "queue")  # the lobby's queue counts changed
    return groups


def sweep(
    client: redis.Redis[str], lifetimes: Lifetimes, now_ms: int, schedule: Schedule
) -> list[Group]:
    """Every pool's step, and the groups whose builder died (REBUILD_MS without a table):
    what the worker runs every few seconds, so tickets match and bots fill without a request."""
    made: list[Group] = []
    for pool in sorted(client.smembers(keys.MATCH_POOLS)):
        made += step_and_build(client, pool, lifetimes, now_ms, schedule)
    for group_id in client.zrangebyscore(keys.MATCH_MADE, 0, now_ms - REBUILD_MS):
        build(client, group_id, lifetimes, now_ms, schedule)
    return made


def waiting(client: redis.Redis[str]) -> dict[str, int]:
    """Tickets waiting per game (the lobby shows the queue's size)."""
    pools = sorted(client.smembers(keys.MATCH_POOLS))
    pipe = client.pipeline(transaction=False)
    for pool in pools:
        pipe.zcard(keys.match_pool(pool, "since"))
    counts: dict[str, int] = {}
    for pool, count in zip(pools, pipe.execute() if pools else [], strict=True):
        game = Pool.parse(pool).game
        counts[game] = counts.get(game, 0) + int(count)
    return counts


__all__ = [
    "ALIVE_MS",
    "BASE_RANGE",
    "BOTS_AFTER_S",
    "STEP_GAP_MS",
    "WIDEN_PER_S",
    "WIDEST_RANGE",
    "Group",
    "Pool",
    "Seeker",
    "build",
    "current",
    "held",
    "join",
    "keep_alive",
    "leave",
    "range_after",
    "step",
    "step_and_build",
    "sweep",
    "waiting",
]
