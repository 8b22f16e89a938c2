"""Helpers for Gin at tables (docs/TABLES.md "Games", GIN.md): a scripted player that reads only
its seat's view, and the check that an answer names no card the seat may not know (G9, R10)."""

from __future__ import annotations

import json
from typing import Any

import redis

from engine.gin import from_mask, names, public_moves
from engine.gin.match import GinMatch
from service.tables import store as tables
from tests.support.gin_player import gin_choice
from tests.support.tables import CARD

__all__ = [
    "assert_gin_nothing_hidden",
    "gin_choice",
    "gin_hidden",
    "gin_hidden_in",
    "timer_played_first_turn",
]


def gin_hidden_in(match: GinMatch, seat: int) -> set[str]:
    """The cards of ``match``'s running hand ``seat`` may not know: the stock, the other hand
    (until a knock by the other seat or a defence shows it) and the other seat's face-down knock
    card (G6), less every card ``seat`` saw face up in this hand: named in a move as ``seat`` saw
    it (a discard the other then took stays known even if it is later knocked with face down),
    taken by the other seat, or on the pile."""
    state = match.state
    other = 1 - seat
    knock = state.knock
    hidden = set(names(state.stock))
    if not (knock is not None and (knock.seat == other or state.defence is not None)):
        hidden |= set(names(from_mask(state.hands[other])))
    if knock is not None and knock.seat == other and knock.card is not None:
        hidden |= set(names([knock.card]))
    known = {c for _, text in public_moves(state.history, seat) for c in CARD.findall(text)}
    known |= set(names(from_mask(state.took[other]))) | set(names(state.discard))
    return hidden - known


def gin_hidden(client: redis.Redis[str], table_id: str, seat: int) -> set[str]:
    """:func:`gin_hidden_in` of a table's running hand, read from its stored session."""
    table = tables.load(client, table_id)
    assert table is not None and table.session is not None
    return gin_hidden_in(GinMatch.from_json(table.session), seat)


def assert_gin_nothing_hidden(
    client: redis.Redis[str], table_id: str, seat: int, answer: dict[str, Any]
) -> None:
    """``answer`` (``{"table": T, "events"?: [...]}`` for ``seat``) names no hidden card of the
    running hand and not the seed while the match runs. Events of an earlier hand may name
    cards that are hidden again after the next deal: only the running hand's are checked."""
    table = tables.load(client, table_id)
    assert table is not None and table.session is not None
    if table.status == "finished":
        return
    hidden = gin_hidden(client, table_id, seat)
    record = table.session["record"]
    doc = {k: v for k, v in answer["table"].items() if k not in ("id", "invite", "rematch")}
    text = json.dumps(doc)
    assert record["seeds"]["seed"] not in json.dumps(answer)
    leaked = set(CARD.findall(text)) & hidden
    assert not leaked, f"hidden cards {leaked} in {text}"
    view = answer["table"]["view"]
    current = len(view["history"]) if view else 0
    for event in answer.get("events", [])[-current:] if current else []:
        leaked = set(CARD.findall(event["move"])) & hidden
        assert not leaked, f"hidden cards {leaked} in {event}"


def timer_played_first_turn(
    client: redis.Redis[str], lifetimes: tables.Lifetimes, now_ms: int
) -> tuple[str, int, int]:
    """A Gin table (Ada, a plain bot) with a 30 s turn timer whose first turn the timer played
    (R9): Ada's view lists the moves with their marks. Returns (id, the seq before the timer's
    moves, the seq after them and the bot's answers)."""
    made, _ = tables.create(
        client,
        "gin",
        "Ada",
        "p-ada",
        [{"kind": "human"}, {"kind": "bot", "level": "plain"}],
        {"hand_out_double": False, "strict_1000": False},
        30,
        lifetimes,
        now_ms,
    )
    table = tables.start(client, made.id, 0, lifetimes, now_ms).table
    assert table.deadline_ms is not None
    done = tables.autoplay(client, made.id, table.seq, lifetimes, table.deadline_ms)
    assert done is not None
    return made.id, table.seq, done.table.seq
