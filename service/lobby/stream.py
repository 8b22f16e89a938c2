"""The lobby's and a quick-match ticket's live streams (Server-Sent Events), on the tables' stream
machinery (:mod:`service.tables.stream`): one pattern subscription per process and family of
channels (:class:`~service.tables.stream.Hub`), the same ``retry``, heartbeat, lifetime, quiet
teardown and per-address cap, served by the gevent group (deploy/gunicorn_stream.conf.py).

The lobby's stream sends the whole lobby document (:func:`service.lobby.present.lobby`: public
facts only, never a card) at once and after each change, at most one per :data:`LOBBY_GAP_S`;
its heartbeat renews the viewer's lease (the lobby's ``online``) and re-reads the lobby (presence
leases run out without a notice). A ticket's stream sends ``M`` at once, on every change of the
ticket and at each heartbeat, and runs the ticket's pool's matching step every
:data:`STEP_S` while it waits (so players who only stream are matched and filled with bots on
time); it ends once the ticket is matched, left or expired.
"""

from __future__ import annotations

import contextlib
import json
import queue
import time
from collections.abc import Callable, Iterator
from typing import Final

import redis

from service.common import keys, metrics
from service.common.config import Settings
from service.lobby import matcher, present
from service.tables import stream as tables_stream
from service.tables.store import Lifetimes

LOBBY_GAP_S: Final = 0.25  # a burst of lobby changes becomes one message
STEP_S: Final = 1.0  # how often a waiting ticket's stream runs its pool's matching step
LOBBY_PATTERN: Final = keys.LOBBY_CHANNEL + "*"  # pd:lobby:live (the id part is empty)
MATCH_PATTERN: Final = keys.match_channel("*")


def _message(event: str, doc: dict[str, object]) -> str:
    return f"event: {event}\ndata: {json.dumps(doc, separators=(',', ':'), ensure_ascii=False)}\n\n"


def _same(a: dict[str, object], b: dict[str, object]) -> bool:
    return {k: v for k, v in a.items() if k != "now"} == {k: v for k, v in b.items() if k != "now"}


def lobby(
    client: redis.Redis[str],
    viewer: str,
    game: str | None,
    limit: int,
    settings: Settings,
    now_ms: Callable[[], int],
) -> Iterator[str]:
    """The lobby's SSE text for one viewer (``viewer``: its lease in the lobby's viewers)."""
    metrics.stream_opened("lobby")
    try:
        yield from _lobby(client, viewer, game, limit, settings, now_ms)
    except redis.RedisError as e:
        metrics.redis_error("stream")
        tables_stream.log_end("lobby", f"redis unavailable ({type(e).__name__})")
    finally:
        metrics.stream_closed("lobby")


def _lobby(
    client: redis.Redis[str],
    viewer: str,
    game: str | None,
    limit: int,
    settings: Settings,
    now_ms: Callable[[], int],
) -> Iterator[str]:
    listening = tables_stream.hub(client, LOBBY_PATTERN)
    inbox = listening.join("")
    beat = settings.heartbeat_seconds
    valid_ms = 3 * beat * 1000
    try:
        client.zadd(keys.LOBBY_VIEWERS, {viewer: now_ms() + valid_ms})
        client.publish(keys.LOBBY_CHANNEL, "viewer")
        yield f"retry: {tables_stream.RETRY_MS}\n\n"
        sent = present.lobby(client, now_ms(), game, limit)
        yield _message("lobby", sent)
        ends = time.monotonic() + settings.stream_seconds
        next_beat = time.monotonic() + beat
        while time.monotonic() < ends and not tables_stream.closing():
            try:
                inbox.get(timeout=max(0.0, min(next_beat, ends) - time.monotonic()))
                time.sleep(LOBBY_GAP_S)  # let a burst of changes settle into one message
            except queue.Empty:
                pass
            while not inbox.empty():
                inbox.get_nowait()
            if tables_stream.closing():
                return
            if time.monotonic() >= next_beat:
                now = now_ms()
                client.zadd(keys.LOBBY_VIEWERS, {viewer: now + valid_ms})
                client.zremrangebyscore(keys.LOBBY_VIEWERS, "-inf", f"({now}")
                next_beat = time.monotonic() + beat
                yield ": beat\n\n"
            doc = present.lobby(client, now_ms(), game, limit)
            if not _same(doc, sent):
                sent = doc
                yield _message("lobby", doc)
    finally:
        listening.leave("", inbox)
        try:
            client.zrem(keys.LOBBY_VIEWERS, viewer)
            client.publish(keys.LOBBY_CHANNEL, "viewer")
        except redis.RedisError:
            pass  # its lease runs out on its own


def match(
    client: redis.Redis[str],
    ticket_id: str,
    settings: Settings,
    now_ms: Callable[[], int],
    lifetimes: Lifetimes,
    schedule: matcher.Schedule,
) -> Iterator[str]:
    """A ticket's SSE text (its own player's: checked by the route)."""
    metrics.stream_opened("match")
    try:
        yield from _match(client, ticket_id, settings, now_ms, lifetimes, schedule)
    except redis.RedisError as e:
        metrics.redis_error("stream")
        tables_stream.log_end(f"match:{ticket_id}", f"redis unavailable ({type(e).__name__})")
    finally:
        metrics.stream_closed("match")


def _match(
    client: redis.Redis[str],
    ticket_id: str,
    settings: Settings,
    now_ms: Callable[[], int],
    lifetimes: Lifetimes,
    schedule: matcher.Schedule,
) -> Iterator[str]:
    listening = tables_stream.hub(client, MATCH_PATTERN)
    inbox = listening.join(ticket_id)
    beat = settings.heartbeat_seconds
    try:
        yield f"retry: {tables_stream.RETRY_MS}\n\n"
        ends = time.monotonic() + settings.stream_seconds
        next_beat = time.monotonic() + beat
        next_step = time.monotonic()
        sent: dict[str, object] | None = None
        while not tables_stream.closing():
            ticket = matcher.ticket(client, ticket_id)
            if ticket is None:
                return
            if ticket["status"] == "waiting":
                matcher.keep_alive(client, ticket_id, now_ms())
                if time.monotonic() >= next_step:
                    matcher.step_and_build(client, ticket["pool"], lifetimes, now_ms(), schedule)
                    next_step = time.monotonic() + STEP_S
                    ticket = matcher.ticket(client, ticket_id) or ticket
            doc = present.match(client, ticket, now_ms())
            over = doc["status"] != "waiting" and (doc["status"] != "matched" or doc["table"])
            if sent is None or not _same(doc, sent) or time.monotonic() >= next_beat:
                if sent is not None and _same(doc, sent):
                    yield ": beat\n\n"
                else:
                    yield _message("match", doc)
                sent = doc
                if time.monotonic() >= next_beat:
                    next_beat = time.monotonic() + beat
            if over or time.monotonic() >= ends:
                return
            wait = min(next_beat, next_step, ends) - time.monotonic()
            with contextlib.suppress(queue.Empty):
                inbox.get(timeout=max(0.05, wait))
            while not inbox.empty():
                inbox.get_nowait()
    finally:
        listening.leave(ticket_id, inbox)
