"""API.md's ``T`` and the live stream's messages, in one seat's view (R10).

Every card comes from the game's own view function (its adapter's ``facts``), every event
through :func:`seen_by`: another seat's face-down card (R4.3, G6) stays hidden. Presenters get
data and read nothing: the callers read the store once (service.tables.reads, one
:class:`~service.tables.store.TableRead` an answer) and hand the value here; this module never
gets a Redis client (tests/service/test_table_answer.py). Flask-free, so the stream's generator
can build its messages outside a request.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from service.games.adapter import Tables
from service.tables.store import TIMEOUT_RESIGN, Table, TableRead, claimable, result_of


def iso_ms(ms: int | None) -> str | None:
    if ms is None:
        return None
    at = dt.datetime.fromtimestamp(ms / 1000, dt.UTC)
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def seen_by(event: dict[str, Any], seat: int | None, kind: Tables) -> dict[str, Any]:
    """A stored event as ``seat`` may see it (R10): another seat's face-down card as the game
    hides it (R4.3: a bare ``discard``; G6: ``knock ?? <groups>``, as in the Gin view)."""
    move = event["move"]
    if event.get("face_down") and event["seat"] != seat:
        move = kind.hidden(move)
    seen: dict[str, Any] = {"seat": event["seat"], "move": move}
    if event.get("timer"):
        seen["timer"] = True  # the turn timer played it (R9), for everyone to see
    return seen


def facts(table: Table, seat: int | None) -> dict[str, Any]:
    """``T``'s game fields in ``seat``'s view, from the game's adapter."""
    if table.session is not None:
        return table.kind.facts(table.loaded(), seat)
    return {  # the game has not started: every game's fields, and the game's own
        "round": 0,
        "dealer": None,
        "turn": None,
        "totals": [0] * table.players,
        "commitment": None,
        "rounds": [],
        "result": None,
        "view": None,
        **table.kind.table_fields,
    }


def listed(table: Table, game: dict[str, Any]) -> int:
    """How many of the log's last events ``seat``'s view (in ``game``, :func:`facts`) lists as
    its moves, where the turn timer's marks (R9) are shown there too; 0 for none."""
    view = game["view"]
    if not (table.kind.view_lists_moves and table.turn_timer and view is not None):
        return 0
    history = view["history"]
    return len(history) if history and table.seq - len(history) >= 0 else 0


def table_json(
    table: Table,
    seat: int | None,
    now_ms: int,
    game: dict[str, Any],
    connected: list[bool],
    logged: list[dict[str, Any]],
    muted: list[int],
) -> dict[str, Any]:
    """``T`` as ``seat`` (None: not seated, a finished table's public page) may see it: the
    game's fields ``game`` (:func:`facts`), which seats have a live stream (``connected``) and
    the log's events the view lists (``logged``, :func:`listed`) and the seats whose phrases
    ``seat`` muted (``muted``)."""
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
            if table.rated and s.get("rating") is not None:  # a casual table shows none
                shown["rating"] = s["rating"]
                shown["provisional"] = s.get("provisional", False)
            if n < len(table.timed_out):
                shown["timed_out"] = table.timed_out[n]
            if table.status == "playing" and s.get("name") is not None:
                # the others may end the game as this seat's forfeit (docs/TABLES.md)
                shown["claimable"] = claimable(table, n, connected)
                if table.rated:  # the timer rule: missed turns left before it resigns the seat
                    missed = table.timed_out[n] if n < len(table.timed_out) else 0
                    shown["forfeit_after"] = max(0, TIMEOUT_RESIGN - missed)
        seats.append(shown)
    if logged:
        _mark_timer_moves(game["view"]["history"], logged)
    return {
        "id": table.id,
        "game": table.game,
        "rules": _rules(table),
        "seats": seats,
        "status": table.status,
        "round": game["round"],
        "dealer": game["dealer"],
        "totals": game["totals"],
        "seq": table.seq,
        "seat": seat,
        "view": game["view"],
        "deadline": iso_ms(table.deadline_ms),
        "now": iso_ms(now_ms),  # the server's clock: a page counts down deadline − now
        "commitment": game["commitment"],
        "rounds": game["rounds"],
        "creator": 0,
        "invite": table.invite if seat is not None else None,
        "turn": game["turn"],
        **{key: game[key] for key in table.kind.table_fields},  # the game's own (its adapter's)
        "pending_resign": table.resign,
        "resign_declined": table.resign_declined,
        "rematch": table.rematch,
        "rematch_of": table.rematch_of,
        "repeat_of": table.repeat_of,
        "repeated": table.repeated,
        "result": result_of(table, game["result"]),
        "public": table.public,
        "rated": table.rated,
        "matched": table.matched is not None,
        "forfeits": table.forfeits,
        "rating_changes": table.rating_changes,
        "rematch_agreed": table.agreed,
        "rematch_declined": table.declined,
        "muted": muted,
    }


def table_of(
    read: TableRead, seat: int | None, now_ms: int, game: dict[str, Any]
) -> dict[str, Any]:
    """``T`` of a read (:func:`table_json`): ``game`` is :func:`facts` of its table."""
    return table_json(read.table, seat, now_ms, game, read.connected, read.logged, read.muted)


def answer(read: TableRead, seat: int, now_ms: int, game: dict[str, Any]) -> dict[str, Any]:
    """A move's answer (API.md "Tables"): ``T`` and the move's events, in ``seat``'s view."""
    events = events_json(read.events, seat, read.table.kind)
    return {"table": table_of(read, seat, now_ms, game), "events": events}


def _rules(table: Table) -> dict[str, Any]:
    return table.rules_json()


def _mark_timer_moves(history: list[dict[str, Any]], logged: list[dict[str, Any]]) -> None:
    """The view's moves are the last ones of the table's log: those the turn timer played (R9)
    get ``"timer": true`` there too, so a reload's move list says so."""
    if len(logged) != len(history):
        return  # a log that does not match (never expected): no mark rather than a wrong one
    for shown, event in zip(history, logged, strict=True):
        if event.get("timer") and event["seat"] == shown["seat"]:
            shown["timer"] = True


def invite_preview(table: Table) -> dict[str, Any]:
    """What an invite's page shows before joining: the game, its rules and who sits where (no
    card, no token, no player id): a friend sees which game they are asked to."""
    seats = [
        {"kind": "human", "name": s.get("name")}
        if s["kind"] == "human"
        else {"kind": "bot", "level": s["level"]}
        for s in table.seats
    ]
    rules = _rules(table)
    return {"game": table.game, "status": table.status, "rules": rules, "seats": seats}


def events_json(
    events: list[dict[str, Any]], seat: int | None, kind: Tables
) -> list[dict[str, Any]]:
    """Stored events in ``seat``'s view."""
    return [seen_by(e, seat, kind) for e in events]


def followers(table: Table) -> tuple[str | None, str | None]:
    """The tables that follow this one (its rematch, its repeat), as ``T`` names them."""
    return table.rematch, table.repeated


def stream_text(
    table: Table, events: list[dict[str, Any]], now_ms: int, doc: dict[str, Any]
) -> str:
    """One SSE message: ``events`` (in the seat's view) up to the table's seq and the table's
    ``T`` (``doc``)."""
    message = {
        "seq": table.seq,
        "events": events,
        "deadline": iso_ms(table.deadline_ms),
        "now": iso_ms(now_ms),
        "table": doc,
    }
    data = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    return f"id: {table.seq}\nevent: table\ndata: {data}\n\n"
