"""R9's turn timer plays a human's turn with the bot logic; every move it made says so, for
everyone (docs/TABLES.md "Turn timer"): its events in the log, in a move's answer, in every
seat's stream message and in Gin's view history carry ``"timer": true``; the bots' answers and
the players' own moves carry no mark. Real Redis, the real table code the worker runs."""

from __future__ import annotations

import json
from typing import Any

import redis

from service.common import keys
from service.tables import store as tables
from service.tables.reads import events_doc, stream_message, table_doc
from tests.support.gin_tables import gin_choice

NOW = 1_800_000_000_000  # the app's clock for these tables (ms)
LIFETIMES = tables.Lifetimes(3600, 3600)
OPTIONS = {"hand_out_double": False, "strict_1000": False}
HUMAN: dict[str, Any] = {"kind": "human"}


def logged(rdb: redis.Redis[str], table_id: str) -> list[dict[str, Any]]:
    return [json.loads(e) for e in rdb.lrange(keys.table_events(table_id), 0, -1)]


def streamed(rdb: redis.Redis[str], table_id: str, seat: int, after: int) -> dict[str, Any]:
    sent = stream_message(rdb, table_id, seat, after, NOW)
    assert sent is not None
    return dict(json.loads(sent[1].split("data: ", 1)[1]))


def expire(rdb: redis.Redis[str], table: tables.Table) -> tables.Changed:
    """The worker's job at the deadline (worker.jobs.table_turn_timeout)."""
    assert table.deadline_ms is not None
    done = tables.autoplay(rdb, table.id, table.seq, LIFETIMES, table.deadline_ms)
    assert done is not None
    return done


def test_r9_the_timers_cut_and_turn_are_marked_and_the_bots_answers_are_not(
    rdb: redis.Redis[str],
) -> None:
    made, _ = tables.create(
        rdb, "pikdame", "Ada", "p-ada", [HUMAN, {"kind": "bot", "level": "beginner"}],
        OPTIONS, 30, LIFETIMES, NOW,
    )  # fmt: skip
    table = tables.start(rdb, made.id, 0, LIFETIMES, NOW).table
    assert table.deadline_ms is not None  # Ada's cut (two seats: she cuts and starts, R2)
    cut = expire(rdb, table)
    assert [e["move"].split()[0] for e in logged(rdb, made.id)] == ["cut"]
    assert logged(rdb, made.id)[0]["timer"] is True
    turn = expire(rdb, cut.table)  # her first turn runs out too: draw … discard, then the bot
    log = logged(rdb, made.id)[cut.table.seq :]
    mine = [e for e in log if e["seat"] == 0]
    assert mine and log[: len(mine)] == mine  # her turn first
    assert all(e["timer"] is True for e in mine)
    assert log[len(mine) :] and all("timer" not in e for e in log[len(mine) :])
    for seat in (0, 1):  # every seat's stream says so, for her moves only
        events = streamed(rdb, made.id, seat, cut.table.seq)["events"]
        assert [bool(e.get("timer")) for e in events] == [e["seat"] == 0 for e in log]
    answered = events_doc(rdb, turn.table, cut.table.seq, 0, upto=turn.table.seq)
    assert [e.get("timer") for e in answered[: len(mine)]] == [True] * len(mine)
    # her own move afterwards is hers: no mark
    table = turn.table
    played = tables.play(rdb, made.id, 0, table.seq, "draw", LIFETIMES, NOW)
    assert "timer" not in logged(rdb, made.id)[played.table.seq - 1]
    assert "timer" not in streamed(rdb, made.id, 0, table.seq)["events"][0]


def test_the_timers_gin_moves_are_marked_in_the_events_and_the_views_history(
    rdb: redis.Redis[str],
) -> None:
    made, _ = tables.create(
        rdb, "gin", "Ada", "p-ada", [HUMAN, {"kind": "bot", "level": "plain"}],
        OPTIONS, 30, LIFETIMES, NOW,
    )  # fmt: skip
    table = tables.start(rdb, made.id, 0, LIFETIMES, NOW).table
    before = table.seq
    done = expire(rdb, table)
    log = logged(rdb, made.id)[before:]
    mine = [e for e in log if e["seat"] == 0]
    assert mine and log[: len(mine)] == mine and all(e["timer"] is True for e in mine)
    assert all("timer" not in e for e in log[len(mine) :])
    events = streamed(rdb, made.id, 0, before)["events"]
    assert [bool(e.get("timer")) for e in events] == [e["seat"] == 0 for e in log]
    view = table_doc(rdb, done.table, 0, NOW)["view"]
    history = view["history"]
    marked = [bool(e.get("timer")) for e in history]
    whole = logged(rdb, made.id)[len(logged(rdb, made.id)) - len(history) :]
    assert marked == [bool(e.get("timer")) for e in whole] and any(marked)
    # Ada's own move next: in the history unmarked
    move = gin_choice(view)
    played = tables.play(rdb, made.id, 0, done.table.seq, move, LIFETIMES, NOW)
    history = table_doc(rdb, played.table, 0, NOW)["view"]["history"]
    assert "timer" not in history[len(marked)]
    assert [bool(e.get("timer")) for e in history[: len(marked)]] == marked
