"""API.md's ``T`` and the live stream's messages, in one seat's view (R10).

Every card comes from the game's own view function (``TableGame.facts``), every event through
:func:`service.tables.store.seen_by`: another seat's face-down going-out card (R4.3) stays a bare
``discard``. Flask-free, so the stream's generator can build its messages outside a request.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import redis

from service.common import keys
from service.tables import store as tables
from service.tables.store import Table


def iso_ms(ms: int | None) -> str | None:
    if ms is None:
        return None
    at = dt.datetime.fromtimestamp(ms / 1000, dt.UTC)
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def table_json(
    client: redis.Redis[str], table: Table, seat: int | None, now_ms: int
) -> dict[str, Any]:
    """``T`` as ``seat`` (None: not seated, a finished table's public page) may see it."""
    connected = tables.connected(client, table.id, table.players, now_ms)
    seats = []
    for n, s in enumerate(table.seats):
        shown: dict[str, Any] = {"kind": s["kind"]}
        if s["kind"] == "human":
            shown["name"] = s.get("name")
        else:
            shown["level"] = s["level"]
        shown["connected"] = connected[n]
        if s["kind"] == "human":
            # a seated human without a live stream while the game runs: the seat stays theirs
            shown["away"] = (
                table.status == "playing" and s.get("name") is not None and not connected[n]
            )
            if s.get("rating") is not None:
                shown["rating"] = s["rating"]
                shown["provisional"] = s.get("provisional", False)
            if n < len(table.timed_out):
                shown["timed_out"] = table.timed_out[n]
        seats.append(shown)
    facts: dict[str, Any]
    if table.session is not None:
        facts = table.kind.facts(table.loaded(), seat)
    else:
        facts = {
            "round": 0,
            "dealer": None,
            "cutter": None,
            "awaiting_cut": False,
            "turn": None,
            "lucky": [],
            "totals": [0] * table.players,
            "commitment": None,
            "rounds": [],
            "result": None,
            "view": None,
        }
    if table.game == "gin" and table.turn_timer and facts["view"] is not None:
        _mark_timer_moves(client, table, facts["view"]["history"])
    return {
        "id": table.id,
        "game": table.game,
        "rules": _rules(table),
        "seats": seats,
        "status": table.status,
        "round": facts["round"],
        "dealer": facts["dealer"],
        "totals": facts["totals"],
        "seq": table.seq,
        "seat": seat,
        "view": facts["view"],
        "deadline": iso_ms(table.deadline_ms),
        "now": iso_ms(now_ms),  # the server's clock: a page counts down deadline − now
        "commitment": facts["commitment"],
        "rounds": facts["rounds"],
        "creator": 0,
        "invite": table.invite if seat is not None else None,
        "turn": facts["turn"],
        "cutter": facts["cutter"],
        "awaiting_cut": facts["awaiting_cut"],
        "lucky": facts["lucky"],
        "pending_resign": table.resign,
        "rematch": table.rematch,
        "repeat_of": table.repeat_of,
        "repeated": table.repeated,
        "result": facts["result"],
        "public": table.public,
        "rated": table.rated,
        "matched": table.matched is not None,
        "forfeits": table.forfeits,
        "rating_changes": table.rating_changes,
        "rematch_agreed": table.agreed,
        "muted": muted(client, table.id, seat),
    }


def _rules(table: Table) -> dict[str, Any]:
    return table.rules_json()


def muted(client: redis.Redis[str], table_id: str, seat: int | None) -> list[int]:
    """The seats whose phrases ``seat`` muted (docs/LOBBY.md "Table talk"); [] for a reader."""
    if seat is None:
        return []
    stored = client.hget(keys.table_mutes(table_id), str(seat))
    return [] if stored is None else sorted(int(n) for n in json.loads(stored))


def _mark_timer_moves(
    client: redis.Redis[str], table: Table, history: list[dict[str, Any]]
) -> None:
    """Gin's view lists the running hand's moves, the last ones of the table's log: those the
    turn timer played (R9) get ``"timer": true`` there too, so a reload's move list says so."""
    first = table.seq - len(history) + 1
    if not history or first < 1:
        return
    stored = tables.events_after(client, table.id, first - 1, table.seq)
    if len(stored) != len(history):
        return  # a log that does not match (never expected): no mark rather than a wrong one
    for shown, event in zip(history, stored, strict=True):
        if event.get("timer") and event["seat"] == shown["seat"]:
            shown["timer"] = True


def invite_preview(table: Table) -> dict[str, Any]:
    """What an invite's page shows before joining: the game, its rules and who sits where (no
    card, no token, no player id): a friend sees which game they are asked to (issue 12)."""
    seats = [
        {"kind": "human", "name": s.get("name")}
        if s["kind"] == "human"
        else {"kind": "bot", "level": s["level"]}
        for s in table.seats
    ]
    rules = _rules(table)
    return {"game": table.game, "status": table.status, "rules": rules, "seats": seats}


def events_json(
    client: redis.Redis[str], table_id: str, after: int, seat: int | None, upto: int | None = None
) -> list[dict[str, Any]]:
    """The events with seq in (``after``, ``upto``] in ``seat``'s view (``upto`` None: to the
    log's end)."""
    return [tables.seen_by(e, seat) for e in tables.events_after(client, table_id, after, upto)]


def stream_message(
    client: redis.Redis[str], table_id: str, seat: int, after: int, now_ms: int
) -> tuple[int, str] | None:
    """One SSE message: the events after ``after`` up to the table's seq and the table, in
    ``seat``'s view, read together; None when the table is gone (expired)."""
    sent = stream_read(client, table_id, seat, after, now_ms)
    return None if sent is None else (sent[0].seq, sent[1])


def followers(table: Table) -> tuple[str | None, str | None]:
    """The tables that follow this one (its rematch, its Gin repeat), as ``T`` names them."""
    return table.rematch, table.repeated


def stream_read(
    client: redis.Redis[str], table_id: str, seat: int, after: int, now_ms: int
) -> tuple[Table, str] | None:
    """:func:`stream_message` with the table it was made of (the stream keeps what it named)."""
    read = tables.read_with_events(client, table_id, after)
    if read is None:
        return None
    table, stored = read  # one read: the message's id is the seq its events end at
    events = [tables.seen_by(e, seat) for e in stored]
    doc = {
        "seq": table.seq,
        "events": events,
        "deadline": iso_ms(table.deadline_ms),
        "now": iso_ms(now_ms),
        "table": table_json(client, table, seat, now_ms),
    }
    data = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    return table, f"id: {table.seq}\nevent: table\ndata: {data}\n\n"
