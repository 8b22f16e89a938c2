"""A table's documents for one seat: the store read here (one round trip each, into one
:class:`~service.tables.store.TableRead`), then handed as that value to the presenter
(service.tables.documents), which reads nothing. Used by the routes (service.tables.api_tables)
and the live stream (service.tables.stream)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis

from service.tables import documents
from service.tables import store as tables
from service.tables.store import Table


def table_doc(
    client: redis.Redis[str], table: Table, seat: int | None, now_ms: int
) -> dict[str, Any]:
    """``T`` as ``seat`` (None: not seated) may see it, with the seats' presence and the turn
    timer's marks read from the table's keys."""
    game = documents.facts(table, seat)
    read = tables.read_answer(client, table, documents.listed(table, game), now_ms, seat)
    return documents.table_of(read, seat, now_ms, game)


def move_answer(
    client: redis.Redis[str], table: Table, after: int, seat: int, now_ms: int
) -> dict[str, Any]:
    """A move's answer: ``T`` and the events with seq in (``after``, the table's seq] (the
    move's own: another seat's later move may be in the log already) in ``seat``'s view, read
    with the presence, the view's marked moves and the mutes in one round trip."""
    game = documents.facts(table, seat)
    listed = documents.listed(table, game)
    read = tables.read_answer(client, table, listed, now_ms, seat, after)
    return documents.answer(read, seat, now_ms, game)


def events_doc(
    client: redis.Redis[str], table: Table, after: int, seat: int | None, upto: int | None = None
) -> list[dict[str, Any]]:
    """The events with seq in (``after``, ``upto``] in ``seat``'s view (``upto`` None: to the
    log's end)."""
    return documents.events_json(
        tables.events_after(client, table.id, after, upto), seat, table.kind
    )


@dataclass(frozen=True, slots=True)
class Sent:
    """One SSE message and the little a stream keeps of the table it was made of until its
    next message: not the table itself (its session, seats and rules are a few hundred objects,
    and a stream waits seconds to minutes between messages: kept by a thousand streams they
    were a gevent worker's largest share of long-lived objects; docs/TABLES.md)."""

    seq: int
    followers: tuple[str | None, str | None]  # documents.followers: the rematch, the repeat
    finished: bool
    public: bool
    text: str


def stream_read(
    client: redis.Redis[str], table_id: str, seat: int, after: int, now_ms: int
) -> Sent | None:
    """One SSE message with what the stream keeps of the table it was made of: the events
    after ``after`` up to the table's seq and the table, in ``seat``'s view, read together
    with the seats' presence and the seat's mutes (one transaction: the message's id is the
    seq its events end at; a timer table's listed events the message's own do not hold take a
    second round trip); None when the table is gone (expired)."""
    read = tables.read_for_seat(client, table_id, after, seat, now_ms)
    if read is None:
        return None
    table = read.table
    events = documents.events_json(read.events, seat, table.kind)
    game = documents.facts(table, seat)
    listed = documents.listed(table, game)  # none: no round trip
    since = table.seq - listed  # the listed events are those with seq > since
    if not listed:
        logged = []
    elif after <= since:  # read already: the message's events hold them
        logged = [e for e in read.events if e["seq"] > since]
    else:
        logged = tables.events_after(client, table.id, since, table.seq)
    whole = tables.TableRead(table, read.events, read.connected, logged, read.muted)
    doc = documents.table_of(whole, seat, now_ms, game)
    text = documents.stream_text(table, events, now_ms, doc)
    return Sent(
        table.seq, documents.followers(table), table.status == "finished", table.public, text
    )


def stream_message(
    client: redis.Redis[str], table_id: str, seat: int, after: int, now_ms: int
) -> tuple[int, str] | None:
    """:func:`stream_read`'s message with its seq."""
    sent = stream_read(client, table_id, seat, after, now_ms)
    return None if sent is None else (sent.seq, sent.text)
