"""Playing an event's deals (docs/EVENTS.md, "Playing a deal"): who started which deal, starting
the next one, and the close that folds the abandoned deals in. Flask-free.

A deal is played as a daily attempt (service.dailies.store: the same hash, moves, tokens and
verification), dealt from the event's seed (F4e) and marked with its ``event`` (``WEEK/N``);
the attempt's ``date`` is the week's Sunday, so the attempt closes with the event (moves until
Sunday 24:00 plus the grace). What the event adds is its own key space, in the event's hash
tag (service.events.store.tag):

- ``:p:PLAYER``: hash deal n -> attempt id, every deal the player started (ranked or not): the
  deals in order, each once, and the mark that the player has seen deal n (no rehearsal);
- ``:started``: hash attempt id -> ``PLAYER/N``, the ranked starts, which the close reads for
  the abandoned deals;
- ``:s:PLAYER``: set of deals the player has seen through a device that signed in (no
  rehearsal across a sign-in, :func:`carry_over`);
- ``:names``: hash player -> the name of their latest ranked start (the standings show it);
- ``:live``: the live standings' document, computed anew once 20 s old (api_events);
- ``:final``: the final standings' document, written once at the close (a deleted account's
  name rewritten in it: :func:`erase_names`);
- ``:live:places``, ``:final:places``: each document's place index (service.events.places),
  written with it: a page of the standings and the caller's own place without the document.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

import redis

from engine.core.events import ends_at, event_seed, opens_at
from service import games
from service.common import keys
from service.dailies import store as attempts
from service.events import places, store
from service.games.adapter import EVENT

#: The daily games whose event is offered: those that declare it (``EVENT``: their adapter deals
#: an event deal in the event's shape, docs/EVENTS.md): Pik Dame's deal is its daily round
#: against three Zen-Meister bots, Gin's one hand against the strong bot.
EVENT_GAMES: Final = tuple(name for name in games.offering(EVENT) if name in games.DAILY_GAMES)


def player_key(game: str, week: str, player: str) -> str:
    """Hash deal n -> attempt id: every deal ``player`` started."""
    return f"{store.tag(game, week)}:p:{player}"


def seen_key(game: str, week: str, player: str) -> str:
    """Set of deal numbers ``player`` has seen through another id (a device that signed in
    without being attached: :func:`carry_over`)."""
    return f"{store.tag(game, week)}:s:{player}"


def started_key(game: str, week: str) -> str:
    """Hash attempt id -> ``PLAYER/N``: the ranked starts."""
    return f"{store.tag(game, week)}:started"


def names_key(game: str, week: str) -> str:
    """Hash player -> name shown in the standings."""
    return f"{store.tag(game, week)}:names"


def final_key(game: str, week: str) -> str:
    """The final standings (JSON), once the event has closed and every record is judged."""
    return f"{store.tag(game, week)}:final"


def keep_s(closes: dt.datetime, now: dt.datetime, keep_days: int) -> int:
    """Seconds from ``now`` until ``keep_days`` after the event's close ``closes``: how long its
    deals and per-entrant keys live (docs/EVENTS.md, "Retention"; a duration, as the daily's
    expiries: Redis counts it on its own clock)."""
    return max(1, int((closes + dt.timedelta(days=keep_days) - now).total_seconds()))


def live_key(game: str, week: str) -> str:
    """The live standings (JSON), computed anew once FRESH_S old (service.events.api_events)."""
    return f"{store.tag(game, week)}:live"


def last_day(week: str) -> str:
    """The week's Sunday: an event attempt's ``date``, which closes (clock.closes_at) exactly when
    the event does (service.events.weeks.closes_at: Sunday 24:00 plus the grace)."""
    return (ends_at(week) - dt.timedelta(days=1)).date().isoformat()


def event_of(game: str, week: str, n: int) -> str:
    """An attempt's ``event`` field."""
    return f"{week}/{n}"


def started(client: redis.Redis[str], game: str, week: str, player: str) -> dict[int, str]:
    """Deal n -> attempt id of every deal ``player`` started."""
    return {int(n): a for n, a in client.hgetall(player_key(game, week, player)).items()}


def seen_by(client: redis.Redis[str], game: str, week: str, players: Iterable[str], n: int) -> bool:
    """Whether any of ``players`` (the caller's ids: an account's attached devices too) has
    started deal ``n``, ranked or not, or seen it through a device that signed in since: it has
    seen the deal (no ranked play of it then)."""
    pipe = client.pipeline(transaction=False)
    for player in players:
        pipe.hexists(player_key(game, week, player), str(n))
        pipe.sismember(seen_key(game, week, player), str(n))
    return any(pipe.execute())


def carry_over(client: redis.Redis[str], week: str, source: str, target: str) -> None:
    """Player ``target`` (an account's home player) has seen every deal of ``week`` that player
    ``source`` (the device signing up or in) started, in every game's event: a rehearsal "ohne
    Wertung" never earns a ranked play of the deal (as service.dailies.seen.carry_over)."""
    for game in EVENT_GAMES:
        started = client.hkeys(player_key(game, week, source))
        if started:
            client.sadd(seen_key(game, week, target), *started)
            left = client.ttl(player_key(game, week, source))  # the event's retention
            if left > 0:
                client.expire(seen_key(game, week, target), left)


@dataclass(frozen=True)
class Started:
    """A deal just started: its number, the attempt and its bearer token (shown once)."""

    n: int
    attempt: attempts.Attempt
    token: str
    game: object


def start(
    client: redis.Redis[str],
    *,
    secret: bytes,
    game: str,
    week: str,
    n: int,
    name: str,
    player: str,
    ranked: bool,
    now_ms: int,
    keep_s: int,
) -> Started | None:
    """Start deal ``n`` for ``player``: the attempt (the daily's, with the event's seed), claimed
    once per player and deal (HSETNX on the player's hash: two concurrent starts make one);
    None when the deal was started meanwhile. The attempt, its token and the event's keys it
    writes live ``keep_s`` seconds (:func:`keep_s`: the retention)."""
    played = games.offering(EVENT)[game].event_new(event_seed(secret, game, week, n), name)

    def claim(attempt_id: str) -> bool:
        if not client.hsetnx(player_key(game, week, player), str(n), attempt_id):
            return False
        pipe = client.pipeline(transaction=True)
        pipe.expire(player_key(game, week, player), keep_s)
        if ranked:
            pipe.hset(started_key(game, week), attempt_id, f"{player}/{n}")
            pipe.hset(names_key(game, week), player, name)
            pipe.expire(started_key(game, week), keep_s)
            pipe.expire(names_key(game, week), keep_s)
        pipe.execute()
        return True

    made = attempts.create_event_attempt(
        client,
        date=last_day(week),
        event=event_of(game, week, n),
        name=name,
        player=player,
        ranked=ranked,
        game=played,
        now_ms=now_ms,
        kind=game,
        claim=claim,
        keep_s=keep_s,
    )
    if made is None:
        return None
    attempt, token = made
    return Started(n, attempt, token, played)


def names(client: redis.Redis[str], game: str, week: str) -> dict[str, str]:
    return dict(client.hgetall(names_key(game, week)))


@dataclass(frozen=True)
class Closing:
    """What the close found: the abandoned ranked deals it folded, and whether every finished
    ranked deal is judged (else the standings are not final yet)."""

    abandoned: int
    judged: bool


def close(
    client: redis.Redis[str], rankings: redis.Redis[str], game: str, week: str, at_ms: int
) -> Closing:
    """After the close (the caller checks the clock): every ranked deal never finished counts as
    played with the field's worst verified score on that deal (issue 42), folded in with the
    close as its finish ``at_ms``. Idempotent (a fold is once per player and deal). A deal
    nobody finished verified has no worst score: its abandoner stays without it. Nothing is
    folded while a finished ranked deal still waits for its verdict (``judged`` False): the
    field's worst may still change."""
    starts = client.hgetall(started_key(game, week))
    pipe = client.pipeline(transaction=False)
    ids = sorted(starts)
    for attempt_id in ids:
        pipe.hmget(keys.attempt(attempt_id), ["status", "verification"])
    states = pipe.execute()
    pending = []
    for attempt_id, (status, verification) in zip(ids, states, strict=True):
        if status == "finished":
            if verification not in ("verified", "rejected"):
                return Closing(0, False)  # the field's worst may still change: not yet
        else:
            pending.append(starts[attempt_id])
    abandoned = 0
    for entry in pending:
        player, _, n = entry.rpartition("/")
        worst = rankings.zrange(store.deal_key(game, week, int(n)), 0, 0, withscores=True)
        if worst and store.fold(rankings, game, week, player, int(n), int(worst[0][1]), at_ms):
            abandoned += 1
    return Closing(abandoned, True)


def erase_names(
    client: redis.Redis[str], players: Iterable[str], placeholder: str, weeks: Iterable[str]
) -> int:
    """A deleted account's players shown as ``placeholder`` ("gelöscht") in every event of
    ``weeks`` they entered (docs/EVENTS.md, "Retention"): the standings' name, their deals'
    attempts (their cached replays dropped), the final standings kept since the close and their
    place index (rewritten), the live ones and their index dropped (computed anew on the next
    read). Their results stay in the field, so nobody else's matchpoints change. Returns the
    events touched."""
    ids = sorted(set(players))
    if not ids:
        return 0
    events = [(game, week) for week in weeks for game in EVENT_GAMES]
    pipe = client.pipeline(transaction=False)
    for game, week in events:
        pipe.exists(*(player_key(game, week, player) for player in ids))
    entered = [event for event, count in zip(events, pipe.execute(), strict=True) if int(count)]
    for game, week in entered:
        for player in ids:
            for attempt_id in client.hvals(player_key(game, week, player)):
                if client.exists(keys.attempt(attempt_id)):  # (an expired one is not made again)
                    client.hset(keys.attempt(attempt_id), "name", placeholder)
                client.delete(keys.replay(attempt_id))
            if client.hexists(names_key(game, week), player):
                client.hset(names_key(game, week), player, placeholder)
        client.delete(live_key(game, week), places.index_key(game, week, False))
        places.rename(client, places.index_key(game, week, True), ids, placeholder)
        kept = client.get(final_key(game, week))
        if kept is not None:
            doc = json.loads(kept)
            for line in [*doc["entries"], *doc["incomplete"]]:
                if line["player"] in ids:
                    line["name"] = placeholder
            client.set(final_key(game, week), json.dumps(doc, separators=(",", ":")))
    return len(entered)


def is_open(week: str, now: dt.datetime) -> bool:
    """Whether a deal of ``week`` may start at ``now``: from Monday 00:00 to Sunday 24:00 UTC."""
    return opens_at(week) <= now < ends_at(week)
