"""A move's answer is read in one pass (issue 39): the route reads what the answer needs (the
move's events, the seats' presence, the log's marks the seat's view lists, R9, and the seat's
mutes) in one round trip after the move's commit, and the presenter (service.tables.documents)
presents that value and reads no Redis. Real Redis, the real route."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import redis

from service.tables import documents, reads, talk
from service.tables import store as tables
from service.web.redisconn import EXTENSION
from tests.support.gin_tables import gin_choice
from tests.support.service_app import Clock, make_app

if TYPE_CHECKING:
    TextRedis = redis.Redis[str]
else:
    TextRedis = redis.Redis

LIFETIMES = tables.Lifetimes(3600, 3600)
OPTIONS = {"hand_out_double": False, "strict_1000": False}
DOCUMENTS = Path(documents.__file__)
READS = {"GET", "MGET", "LRANGE", "ZRANGEBYSCORE", "HGET", "HGETALL", "EXISTS"}


class Trips(TextRedis):
    """A client of the real Redis that keeps its round trips: each as the names of the commands
    sent together (one command alone, or a pipeline's)."""

    def __init__(self, url: str) -> None:
        pool = redis.ConnectionPool.from_url(url, decode_responses=True)
        super().__init__(connection_pool=pool, decode_responses=True)
        self.trips: list[list[str]] = []

    def execute_command(self, *args: Any, **options: Any) -> Any:
        self.trips.append([str(args[0]).upper()])
        return super().execute_command(*args, **options)

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Any:
        pipe = super().pipeline(transaction, shard_hint)
        execute = pipe.execute

        def kept(raise_on_error: bool = True) -> Any:
            sent = [str(c[0][0]).upper() for c in pipe.command_stack]
            self.trips.append(["MULTI", *sent, "EXEC"] if pipe.transaction else sent)
            return execute(raise_on_error)

        pipe.execute = kept  # type: ignore[method-assign]
        return pipe


def timer_table(rdb: redis.Redis[str], now_ms: int) -> tuple[str, str, int]:
    """A Gin table (Ada, a plain bot) with a 30 s turn timer that played Ada's first turn (R9):
    her view lists moves with the timer's marks. Returns (id, Ada's token, the deadline)."""
    made, token = tables.create(
        rdb, "gin", "Ada", "p-ada", [{"kind": "human"}, {"kind": "bot", "level": "plain"}],
        OPTIONS, 30, LIFETIMES, now_ms,
    )  # fmt: skip
    table = tables.start(rdb, made.id, 0, LIFETIMES, now_ms).table
    assert table.deadline_ms is not None
    done = tables.autoplay(rdb, made.id, table.seq, LIFETIMES, table.deadline_ms)
    assert done is not None
    return made.id, token, table.deadline_ms


def test_a_moves_answer_reads_the_store_once_after_its_commit(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    """After the move's transaction (EXEC) and its announcement, the answer's reads are one
    pipeline: the move's events, the presence, the view's marked moves and the mutes (the
    answer used to read the log twice: its events, then the marks, in two round trips)."""
    now_ms = int(clock().timestamp() * 1000)
    table_id, token, deadline = timer_table(rdb, now_ms)
    talk.mute(rdb, table_id, 0, 1, True, 3600)
    clock.advance(milliseconds=deadline - now_ms)
    app = make_app(redis_url, clock)
    heads = {"Authorization": f"Bearer {token}"}
    api = app.test_client()
    table = api.get(f"/api/tables/{table_id}", headers=heads).get_json()["table"]
    trips = Trips(redis_url)
    app.extensions[EXTENSION] = trips
    move = {"move": gin_choice(table["view"]), "seq": table["seq"]}
    played = api.post(f"/api/tables/{table_id}/moves", json=move, headers=heads)
    assert played.status_code == 200, played.get_json()
    committed = max(n for n, trip in enumerate(trips.trips) if "EXEC" in trip)
    read = [t for t in trips.trips[committed + 1 :] if READS & set(t)]
    assert len(read) == 1, trips.trips
    assert read[0].count("LRANGE") == 1, read  # the move's events and the marks at once
    answer = played.get_json()
    assert answer["table"]["muted"] == [1]
    assert answer["events"] and answer["events"][0] == {"seat": 0, "move": move["move"]}
    assert any(e.get("timer") for e in answer["table"]["view"]["history"])  # the marks
    trips.close()


def test_the_presenter_presents_its_value_with_the_store_gone(
    rdb: redis.Redis[str], clock: Clock
) -> None:
    """With the value read, every key of the table deleted: the presenter's answer is the one
    read live (the timer's marks, R9, and the mutes in it), so it read nothing itself."""
    now_ms = int(clock().timestamp() * 1000)
    table_id, _, deadline = timer_table(rdb, now_ms)
    talk.mute(rdb, table_id, 0, 1, True, 3600)
    table = tables.load(rdb, table_id)
    assert table is not None
    after = table.seq - 2
    game = documents.facts(table, 0)
    read = tables.read_answer(rdb, table, documents.listed(table, game), deadline, 0, after)
    live = reads.move_answer(rdb, table, after, 0, deadline)
    assert any(e.get("timer") for e in live["table"]["view"]["history"])
    assert live["table"]["muted"] == [1] and len(live["events"]) == 2
    # the answer the route assembled before from two reads, byte for byte
    events = reads.events_doc(rdb, table, after, 0, upto=table.seq)
    before = {"table": reads.table_doc(rdb, table, 0, deadline), "events": events}
    assert json.dumps(live, ensure_ascii=False) == json.dumps(before, ensure_ascii=False)
    rdb.flushdb()
    assert documents.answer(read, 0, deadline, documents.facts(table, 0)) == live


def test_the_presenter_gets_no_client_and_calls_no_reader() -> None:
    """documents.py imports no Redis, none of its functions takes a client, and what it takes
    from the store reads nothing (no store function or Table method taking a client)."""
    tree = ast.parse(DOCUMENTS.read_text(encoding="utf-8"))
    imported: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update({a.asname or a.name: a.name for a in node.names})
        elif isinstance(node, ast.ImportFrom):
            imported.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
    assert not [m for m in imported.values() if "redis" in m.lower()], imported
    from_store = [n for n, m in imported.items() if m.startswith("service.tables.store.")]
    assert "TableRead" in from_store
    for name in from_store:
        used = getattr(tables, name)
        if inspect.isfunction(used):
            assert "client" not in inspect.signature(used).parameters, name
    for name, method in inspect.getmembers(tables.Table, inspect.isfunction):
        # what it calls on the value (Table.loaded, Table.rules_json) computes, reads nothing
        assert "client" not in inspect.signature(method).parameters, name
    for name, function in inspect.getmembers(documents, inspect.isfunction):
        if function.__module__ == documents.__name__:
            hints = inspect.signature(function).parameters.values()
            assert not [p for p in hints if "client" in p.name or "Redis" in str(p.annotation)], (
                name
            )
