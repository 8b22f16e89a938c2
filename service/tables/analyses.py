"""A table round's analysis (docs/ANALYSIS.md, docs/TABLES.md "Analysis"): one seat's play in one
round (Gin: hand) of a table's game, as an RQ job on the analyses' own queue
(service.common.analysis_queue, never the verification's) and its document cached per table,
round, seat, mode and engine version (a round's record never changes once it ended).

Who may ask what (:func:`check`), the replay rules': your own seat's round once it has ended,
while the game goes on; another seat's only once the whole game has ended (never a running
game). The game's adapter says when a round may be analysed in a mode (``table_analysable``):
Pik Dame's and Tausende's real deal once the round ended (its seed is in the record then, F3),
Gin's once the match ended (one seed deals the match, G3). The job (worker.jobs.analyse_table)
builds the game's record with its seeds inside the worker; the document holds no seed and, in
the ``view`` mode, nothing the seat did not see. Flask-free: the route and the worker share it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

import redis
from rq import Queue

from service.common import analysis_queue, keys
from service.common.analysis_queue import Asked
from service.common.config import Settings
from service.errors import RoundNotAnalysable, TableError
from service.tables import store as tables
from service.tables.store import Table

JOB_PATH: Final = "worker.jobs.analyse_table"
MODES: Final = ("view", "deal")
#: The table_analysable reasons by their answer's status.
STATUS: Final = {"round_running": 409, "seed_secret": 409}
MESSAGES: Final = {
    "round_running": "a round is analysed once it has ended",
    "seed_secret": "the real deal is analysed once its seed is revealed",
}


def check(table: Table, caller: int | None, seat: int | None, part: int | None, mode: str) -> int:
    """The seat whose round ``part`` the caller (seated at ``caller``, or None) may read in
    ``mode``; raises :class:`TableError`: 409 ``not_started``, 404 ``unknown_seat``, 409
    ``not_finished`` (another seat of a running game), 422 ``bad_value`` (no seat named by a
    caller without one; no round, or Gin's hand, named: ``part`` None), then the adapter's
    reason (404 ``unknown_round`` / ``unknown_hand``, 409 ``round_running``, 409
    ``seed_secret``)."""
    if table.session is None:
        raise TableError(409, "not_started", "the game has not started")
    if mode not in MODES:
        raise TableError(422, "bad_value", f"the mode is one of {', '.join(MODES)}")
    wanted = caller if seat is None else seat
    if wanted is not None and not 0 <= wanted < table.players:
        raise TableError(404, "unknown_seat", "no such seat")
    if wanted != caller and table.status != "finished":
        raise TableError(
            409, "not_finished", "another seat's analysis is public once the game has ended"
        )
    if wanted is None:
        raise TableError(422, "bad_value", "name the seat to analyse (?seat=N)")
    word = table.analysis.part_name
    if part is None:
        raise TableError(422, "bad_value", f"name the {word} to analyse (?{word}=N)")
    reason = table.analysis.table_analysable(table.loaded(), part, mode)
    if reason is not None:
        status = STATUS.get(reason, 404)
        message = MESSAGES.get(reason, f"no such {word}")
        raise TableError(status, reason, message)
    return wanted


def job_id(table: Table, part: int, seat: int, mode: str) -> str:
    """Deterministic per (table, round, seat, mode, engine version)."""
    return analysis_queue.safe_id(
        "analyse_table", table.id, str(part), str(seat), mode, table.kind.engine_version
    )


def cached(client: redis.Redis[str], table: Table, part: int, seat: int, mode: str) -> str | None:
    """The document as JSON text, or None while not computed."""
    return client.get(keys.table_analysis(table.id, part, seat, mode, table.kind.engine_version))


def enqueue(
    q: Queue,
    table: Table,
    part: int,
    seat: int,
    mode: str,
    admit: Callable[[], None] | None = None,
) -> Asked:
    """Queue the analysis once: ``queued``, or ``failed`` once after its job failed
    (``admit``: the caller's limit, service.common.analysis_queue.ask)."""
    return analysis_queue.ask(
        q, JOB_PATH, (table.id, part, seat, mode), job_id(table, part, seat, mode), admit=admit
    )


def compute(
    client: redis.Redis[str], table_id: str, part: int, seat: int, mode: str, settings: Settings
) -> bool:
    """Analyse ``seat``'s round (hand) ``part`` in ``mode`` and cache the document; False when
    the table is gone (expired). Idempotent: a second run rewrites the same document. Raises
    :class:`RoundNotAnalysable` when the round may not be analysed in that mode."""
    table = tables.load(client, table_id)
    if table is None:
        return False
    kind = table.kind
    session = table.loaded()
    analysis = table.analysis
    reason = analysis.table_analysable(session, part, mode) if mode in MODES else "bad_mode"
    if reason is not None or not 0 <= seat < table.players:
        raise RoundNotAnalysable(f"{table_id} {part} {seat} {mode}: {reason or 'unknown_seat'}")
    first = Table(**{**table.__dict__, "seats": table.first_seats or table.seats})
    record = kind.record(session, first.engine_seats())
    doc: dict[str, Any] = analysis.analyse(record, mode, part, seat)
    text = json.dumps(doc, separators=(",", ":"))
    key = keys.table_analysis(table_id, part, seat, mode, kind.engine_version)
    client.set(key, text, ex=settings.table_keep_days * 86400)
    return True
