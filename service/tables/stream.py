"""The live stream of a table (``GET /api/tables/{id}/events``) as Server-Sent Events.

One generator per connection. It sends everything after the seq the client last saw
(``Last-Event-ID`` or ``?after=``) read from the table's event log — so a reconnect resumes with
no gap whatever was published meanwhile — then one message per change. Changes are announced on
the table's Redis channel; each process listens with ONE pattern subscription (:class:`Hub`) and
wakes the streams of that table, so a thousand streams cost one Redis connection, not a thousand.
A comment line every heartbeat keeps proxies from closing the stream and renews its leases
(:mod:`service.tables.stream_leases`: the seat's presence and the caps per seat and address, taken
by the route before the first byte); the heartbeat also compares the log's length, so a notice
lost in a Redis reconnect delays a message by one heartbeat at most (on a finished table it
also compares the follow-up tables named: a rematch or a repeat adds no event). A stream ends
after ``PIKDAME_STREAM_SECONDS``; EventSource reconnects on its own with the last id. Runs under
gunicorn's gevent workers (deploy/gunicorn_stream.conf.py; docs/TABLES.md says why), where
threads are greenlets.

Teardown is quiet: when Redis goes away a stream ends with one log line (no traceback) and
EventSource comes back later; when the process is told to stop (:func:`shutdown`, from the
gunicorn config's SIGTERM) every stream ends at once, marks its seat absent and lets the worker
exit within its graceful timeout.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Final

import redis

from service.common import keys, metrics
from service.common.config import Settings
from service.tables import public, stream_leases, talk
from service.tables import store as tables
from service.tables.documents import followers
from service.tables.reads import stream_read
from service.tables.stream_leases import Caps, Lease
from service.web.logs import LOGGER

RETRY_MS: Final = 2000  # how soon EventSource reconnects after the stream ends
PATTERN: Final = keys.table_channel("*")  # pd:{t:*}:live


class Hub:
    """This process's one subscription to every table's channel (or, with another ``pattern``,
    to another family of channels: the lobby's, the quick match's tickets), fanning notices out
    to the streams waiting on that channel's id (each a queue)."""

    def __init__(self, client: redis.Redis[str], pattern: str = PATTERN) -> None:
        self.client = client
        self.pattern = pattern
        self.lock = threading.Lock()
        self.waiting: dict[str, set[queue.SimpleQueue[str]]] = {}
        self.thread: threading.Thread | None = None

    def join(self, table_id: str) -> queue.SimpleQueue[str]:
        inbox: queue.SimpleQueue[str] = queue.SimpleQueue()
        with self.lock:
            self.waiting.setdefault(table_id, set()).add(inbox)
            if self.thread is None:
                self.thread = threading.Thread(target=self._listen, name="table-hub", daemon=True)
                self.thread.start()
        return inbox

    def leave(self, table_id: str, inbox: queue.SimpleQueue[str]) -> None:
        with self.lock:
            inboxes = self.waiting.get(table_id)
            if inboxes is not None:
                inboxes.discard(inbox)
                if not inboxes:
                    del self.waiting[table_id]

    def _listen(self) -> None:
        start, end = self.pattern.split("*")
        while True:
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(self.pattern)
                while True:
                    message = pubsub.get_message(timeout=30.0)
                    if message is None:
                        continue
                    channel = str(message["channel"])
                    table_id = channel[len(start) : len(channel) - len(end)]
                    with self.lock:
                        inboxes = list(self.waiting.get(table_id, ()))
                    for inbox in inboxes:
                        inbox.put(str(message["data"]))
            except redis.RedisError:
                time.sleep(1)  # Redis away: the streams' heartbeats read the log meanwhile

    def wake_all(self) -> None:
        with self.lock:
            inboxes = [inbox for waiting in self.waiting.values() for inbox in waiting]
        for inbox in inboxes:
            inbox.put("shutdown")


_hubs: dict[tuple[int, str], Hub] = {}
_hubs_lock = threading.Lock()
_closing = threading.Event()


def shutdown() -> None:
    """The process is stopping: every open stream ends now (EventSource resumes elsewhere)."""
    _closing.set()
    with _hubs_lock:
        hubs = list(_hubs.values())
    for found in hubs:
        found.wake_all()


def _log_end(table_id: str, reason: str) -> None:
    entry = {
        "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "event": "stream_ended",
        "table": table_id,
        "reason": reason,
    }
    logging.getLogger(LOGGER).warning(json.dumps(entry, separators=(",", ":")))


def hub(client: redis.Redis[str], pattern: str = PATTERN) -> Hub:
    """The process's hub for this client and channel pattern (one per app and pattern)."""
    with _hubs_lock:
        found = _hubs.get((id(client), pattern))
        if found is None:
            found = _hubs[(id(client), pattern)] = Hub(client, pattern)
        return found


def closing() -> bool:
    """Whether the process is stopping (every stream ends)."""
    return _closing.is_set()


def log_end(channel: str, reason: str) -> None:
    _log_end(channel, reason)


def caps(settings: Settings) -> Caps:
    return Caps(settings.streams_per_seat, settings.streams_per_address, settings.heartbeat_seconds)


def _followers_changed(
    client: redis.Redis[str], table_id: str, named: tuple[str | None, str | None]
) -> bool:
    """Whether the finished table now names another rematch or repeat than ``named``."""
    now = tables.load(client, table_id)
    return now is not None and followers(now) != named


def stream(
    client: redis.Redis[str],
    lease: Lease,
    after: int | None,
    settings: Settings,
    now_ms: Callable[[], int],
) -> Iterator[str]:
    """The SSE text of one connection of ``lease.seat`` (a member: checked by the route, which
    took the lease; given back when the stream ends)."""
    metrics.stream_opened("table")
    try:
        yield from _stream(client, lease, after, settings, now_ms)
    except redis.RedisError as e:  # Redis away: end here; EventSource tries again later
        metrics.redis_error("stream")
        _log_end(lease.table_id, f"redis unavailable ({type(e).__name__})")
    finally:
        metrics.stream_closed("table")


def _stream(
    client: redis.Redis[str],
    lease: Lease,
    after: int | None,
    settings: Settings,
    now_ms: Callable[[], int],
) -> Iterator[str]:
    table_id, seat = lease.table_id, lease.seat
    listening = hub(client)
    inbox = listening.join(table_id)
    beat = settings.heartbeat_seconds
    channel = keys.table_channel(table_id)
    public_table = False
    try:
        client.publish(channel, "presence")
        said = talk.last_n(client, table_id)  # phrases said from now on are sent
        yield f"retry: {RETRY_MS}\n\n"
        # Without a last seq seen: the table as it is now, no backlog (LRANGE past the end).
        start = after if after is not None else 1 << 62
        sent = stream_read(client, table_id, seat, start, now_ms())
        if sent is None:
            return
        public_table = sent.public
        if public_table:
            public.announce(client, "presence")  # the lobby shows who is at the table
        # what the stream keeps between messages: the seq, the follow-ups named, finished or not
        last, named, ended = sent.seq, sent.followers, sent.finished
        yield sent.text
        sent = None  # the message's text is not kept while waiting
        ends = time.monotonic() + settings.stream_seconds
        next_beat = time.monotonic() + beat
        while time.monotonic() < ends and not _closing.is_set():
            notices = []
            with contextlib.suppress(queue.Empty):
                notices.append(inbox.get(timeout=max(0.0, min(next_beat, ends) - time.monotonic())))
            while not inbox.empty():
                notices.append(inbox.get_nowait())  # one message covers every change so far
            if _closing.is_set():
                return
            if talk.NOTICE in notices:
                for phrase in talk.since(client, table_id, said, seat):
                    said = max(said, phrase["n"])
                    yield f"event: phrase\ndata: {json.dumps(phrase, separators=(',', ':'))}\n\n"
            woken = any(n != talk.NOTICE for n in notices)  # a phrase changes no table
            if not woken and time.monotonic() >= next_beat:
                stream_leases.renew(client, lease, caps(settings), now_ms())
                next_beat = time.monotonic() + beat
                woken = client.llen(keys.table_events(table_id)) > last
                if not woken and ended:  # a rematch or repeat adds no event: its notice counts
                    woken = _followers_changed(client, table_id, named)
                yield ": beat\n\n"
            if woken:
                sent = stream_read(client, table_id, seat, last, now_ms())
                if sent is None:
                    return
                last, named, ended = sent.seq, sent.followers, sent.finished
                yield sent.text
                sent = None
    finally:
        listening.leave(table_id, inbox)
        try:
            stream_leases.give_back(client, lease)
            client.publish(channel, "presence")
            if public_table:
                public.announce(client, "presence")
        except redis.RedisError:
            pass  # its leases (presence too) run out on their own
