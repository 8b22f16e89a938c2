"""The live stream of a table (``GET /api/tables/{id}/events``) as Server-Sent Events.

One generator per connection: it subscribes to the table's channel, sends everything after the
seq the client last saw (``Last-Event-ID`` or ``?after=``) read from the table's event log — so a
reconnect resumes with no gap whatever was published meanwhile — then one message per change.
A comment line every heartbeat keeps proxies from closing it and renews the seat's presence.
It ends after ``PIKDAME_STREAM_SECONDS``; EventSource reconnects on its own with the last id.
Runs under gunicorn's gevent workers (deploy/gunicorn_stream.conf.py; docs/TABLES.md says why).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator

import redis

from service.data import keys, tables
from service.data.config import Settings
from service.table_docs import stream_message

RETRY_MS = 2000  # how soon EventSource reconnects after the stream ends


def stream(
    client: redis.Redis[str],
    table_id: str,
    seat: int,
    after: int | None,
    settings: Settings,
    now_ms: Callable[[], int],
) -> Iterator[str]:
    """The SSE text of one connection of ``seat`` (a member: checked by the route)."""
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(keys.table_channel(table_id))
    me = secrets.token_hex(4)
    beat = settings.heartbeat_seconds
    channel = keys.table_channel(table_id)
    try:
        tables.present(client, table_id, seat, me, now_ms() + 3 * beat * 1000)
        client.publish(channel, "presence")
        yield f"retry: {RETRY_MS}\n\n"
        # Without a last seq seen: the table as it is now, no backlog (LRANGE past the end).
        start = after if after is not None else 1 << 62
        first = stream_message(client, table_id, seat, start, now_ms())
        if first is None:
            return
        last, text = first
        yield text
        ends = time.monotonic() + settings.stream_seconds
        next_beat = time.monotonic() + beat
        while time.monotonic() < ends:
            message = pubsub.get_message(timeout=min(1.0, max(0.0, next_beat - time.monotonic())))
            if message is not None:
                while pubsub.get_message(timeout=0) is not None:
                    pass  # one message covers every change so far: it reads the log
                sent = stream_message(client, table_id, seat, last, now_ms())
                if sent is None:
                    return
                last, text = sent
                yield text
            if time.monotonic() >= next_beat:
                tables.present(client, table_id, seat, me, now_ms() + 3 * beat * 1000)
                next_beat = time.monotonic() + beat
                yield ": beat\n\n"
    finally:
        try:
            tables.absent(client, table_id, seat, me)
            client.publish(channel, "presence")
        except redis.RedisError:
            pass  # its presence entry runs out on its own
        pubsub.close()
