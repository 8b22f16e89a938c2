"""A stream message's seq and its events agree (docs/TABLES.md, "The live stream": no gap, no
event twice), whenever a move lands while the message is read.

A message is the events after the last seq sent and the table; its ``id`` is the seq the next
message resumes from. A move committed between reading the table and reading the log used to
land in both that message (its events) and the next (the old seq), e.g. ``id: 25`` with
``[seat 1 discard, seat 0 draw]`` and ``id: 26`` with ``seat 0 draw`` again. Here a real move is
committed on the real Redis after each command the message's reading sends, in turn. A move's
answer read its events the same way, up to the log's end: another seat's move committed
meanwhile was in it too."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
import redis

from service.common import config, connect
from service.tables import store as tables
from service.tables import talk
from service.tables.reads import Sent, stream_message, stream_read, table_doc
from service.web.redisconn import EXTENSION
from tests.support.gin_tables import timer_played_first_turn
from tests.support.service_app import Clock, make_app

if TYPE_CHECKING:
    TextRedis = redis.Redis[str]
else:
    TextRedis = redis.Redis

NOW = 1_800_000_000_000  # the app's clock for these tables (ms); nothing here depends on it
LIFETIMES = tables.Lifetimes(3600, 3600)
OPTIONS = {"hand_out_double": False, "strict_1000": False}


class Interleaved(TextRedis):
    """A client of the real Redis that runs ``between`` right after its ``at``-th command, or
    after the first one after it when ``between`` answers False (not possible yet); once. A
    pipeline's commands go out together and count as none here."""

    def __init__(self, url: str, at: int, between: Callable[[], bool | None]) -> None:
        pool = redis.ConnectionPool.from_url(url, decode_responses=True)
        super().__init__(connection_pool=pool, decode_responses=True)
        self.at = at
        self.between = between
        self.sent = 0
        self.done = False

    def execute_command(self, *args: Any, **options: Any) -> Any:
        answer = super().execute_command(*args, **options)
        self.sent += 1
        if self.sent >= self.at and not self.done:
            self.done = self.between() is not False
        return answer


def seat_zero_to_draw(rdb: redis.Redis[str], turn_timer: int = 0) -> tuple[str, int]:
    """A started table (Ada and a bot) after Ada's cut, a draw and a discard and the bot's
    answer: the log holds events of both seats and Ada is to draw. Returns (id, seq)."""
    table, _ = tables.create(
        rdb,
        "pikdame",
        "Ada",
        "p-ada",
        [{"kind": "human"}, {"kind": "bot", "level": "beginner"}],
        OPTIONS,
        turn_timer,
        LIFETIMES,
        NOW,
    )
    done = tables.start(rdb, table.id, 0, LIFETIMES, NOW)
    done = tables.play(rdb, table.id, 0, done.table.seq, "cut 12", LIFETIMES, NOW)
    done = tables.play(rdb, table.id, 0, done.table.seq, "draw", LIFETIMES, NOW)
    hand = done.table.kind.facts(done.table.loaded(), 0)["view"]["hand"]
    done = tables.play(rdb, table.id, 0, done.table.seq, f"discard {max(hand)}", LIFETIMES, NOW)
    assert done.table.kind.facts(done.table.loaded(), 0)["turn"] == 0
    return table.id, done.table.seq


class Counted(TextRedis):
    """A client of the real Redis that counts its round trips: a command sent alone, or a
    pipeline's commands sent together."""

    def __init__(self, url: str) -> None:
        pool = redis.ConnectionPool.from_url(url, decode_responses=True)
        super().__init__(connection_pool=pool, decode_responses=True)
        self.trips = 0

    def execute_command(self, *args: Any, **options: Any) -> Any:
        self.trips += 1
        return super().execute_command(*args, **options)

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Any:
        pipe = super().pipeline(transaction, shard_hint)
        execute = pipe.execute

        def counted(raise_on_error: bool = True) -> Any:
            self.trips += 1
            return execute(raise_on_error)

        pipe.execute = counted  # type: ignore[method-assign]
        return pipe


def message(text: str) -> tuple[int, dict[str, Any]]:
    """A message's ``id`` and its document."""
    lines = text.splitlines()
    assert lines[0].startswith("id: ") and lines[2].startswith("data: ")
    return int(lines[0].removeprefix("id: ")), json.loads(lines[2].removeprefix("data: "))


@pytest.mark.parametrize("at", range(1, 9))
def test_a_move_landing_while_a_message_is_read_is_sent_once(
    redis_url: str, rdb: redis.Redis[str], at: int
) -> None:
    table_id, seq = seat_zero_to_draw(rdb)
    ran: list[int] = []

    def ada_draws() -> None:
        done = tables.play(rdb, table_id, 0, seq, "draw", LIFETIMES, NOW)
        ran.append(done.table.seq)

    reader = Interleaved(redis_url, at, ada_draws)
    first = stream_message(reader, table_id, 0, seq, NOW)
    assert first is not None
    if not ran:  # the message sent fewer commands than ``at``: the move lands after it
        ada_draws()
    second = stream_message(rdb, table_id, 0, first[0], NOW)
    assert second is not None
    sent = [message(first[1]), message(second[1])]
    resumed_from = seq
    for event_id, doc in sent:
        assert event_id == doc["seq"] == doc["table"]["seq"]
        assert event_id == resumed_from + len(doc["events"])  # its events: exactly those seqs
        resumed_from = event_id
    events = [e for _, doc in sent for e in doc["events"]]
    assert events == [{"seat": 0, "move": "draw"}]  # the move, once
    assert resumed_from == ran[0]
    reader.close()


@pytest.mark.parametrize("at", range(1, 9))
def test_a_moves_answer_holds_its_own_events_whatever_lands_meanwhile(
    redis_url: str, rdb: redis.Redis[str], clock: Clock, at: int
) -> None:
    """docs/TABLES.md: a move's answer holds "the moves the request caused"; Bob's draw,
    committed while Ada's discard is answered, is in the next read, not in her answer."""
    app = make_app(redis_url, clock)
    seats = [{"kind": "human"}] * 2
    made = app.test_client().post("/api/tables", json={"name": "Ada", "seats": seats})
    assert made.status_code == 201, made.get_json()
    table_id, ada = made.get_json()["table"]["id"], made.get_json()["token"]
    invite = made.get_json()["invite"]
    joined = app.test_client().post(f"/api/tables/join/{invite}", json={"name": "Bob"})
    assert joined.status_code == 200, joined.get_json()
    api = app.test_client()
    heads = {"Authorization": f"Bearer {ada}"}
    table = api.post(f"/api/tables/{table_id}/start", json={}, headers=heads).get_json()["table"]
    for move in ("cut 12", "draw"):
        body = {"move": move, "seq": table["seq"]}
        played = api.post(f"/api/tables/{table_id}/moves", json=body, headers=heads)
        assert played.status_code == 200, played.get_json()
        table = played.get_json()["table"]
    bob_seat = tables.load(rdb, table_id).seat_of(joined.get_json()["token"], None)  # type: ignore[union-attr]

    def bob_draws() -> bool:
        now = tables.load(rdb, table_id)
        assert now is not None
        if now.kind.facts(now.loaded(), bob_seat)["turn"] != bob_seat:
            return False  # Ada's discard is not in yet
        tables.play(rdb, table_id, bob_seat, now.seq, "draw", LIFETIMES, NOW)
        return True

    app.extensions[EXTENSION] = Interleaved(redis_url, at, bob_draws)
    discard = {"move": f"discard {max(table['view']['hand'])}", "seq": table["seq"]}
    answer = api.post(f"/api/tables/{table_id}/moves", json=discard, headers=heads).get_json()
    assert answer["events"] == [{"seat": 0, "move": discard["move"]}]
    assert answer["table"]["seq"] == table["seq"] + 1


def test_a_stream_keeps_what_its_message_names_not_the_table(rdb: redis.Redis[str]) -> None:
    """Between two messages a stream holds its last seq, the follow-up tables named and
    whether the table finished: plain values, not the table (its session and seats, hundreds of
    objects for each of a worker's streams to hold for seconds or minutes)."""
    table_id, seq = seat_zero_to_draw(rdb)
    sent = stream_read(rdb, table_id, 0, 0, NOW)
    assert sent is not None
    assert (sent.seq, sent.followers, sent.finished, sent.public) == (
        seq,
        (None, None),
        False,
        False,
    )
    assert message(sent.text)[0] == seq
    kept = [getattr(sent, name) for name in Sent.__slots__]
    assert all(isinstance(v, (int, bool, str, tuple)) for v in kept)
    assert stream_read(rdb, "gone", 0, 0, NOW) is None


def test_pooled_connections_read_into_a_small_buffer(redis_url: str) -> None:
    """Each pooled connection holds its reply buffer for life: 16 KB, not redis-py's 64 KB (a
    stream worker under load fills its pool of 100)."""
    client = connect.client(config.load({"REDIS_URL": redis_url}), redis_url)
    assert client.ping()
    connection = client.connection_pool.get_connection()
    try:
        assert connection._socket_read_size == connect.READ_BUFFER == 16 * 1024
        assert client.set("big", "x" * 100_000) and len(client.get("big")) == 100_000
    finally:
        client.connection_pool.release(connection)
        client.delete("big")
        client.close()


@pytest.mark.parametrize(
    ("made", "trips"),
    [("pikdame", 1), ("pikdame timed", 1), ("gin", 1), ("gin resumed", 2)],
)
def test_a_message_is_one_round_trip_and_the_routes_table(
    redis_url: str, rdb: redis.Redis[str], made: str, trips: int
) -> None:
    """A stream reads its table, the events since its last seq, the seats' presence and its
    seat's mutes in one transaction: one round trip a message, as many messages as a move has
    streams. A Gin timer table's view lists the log's marks (R9), which need the table first:
    taken from the message's own events when they hold them (a stream from before the listed
    moves), else one more round trip (a stream resumed after the first of them). The message's
    ``T`` is the one the route answers (reads.table_doc)."""
    if made.startswith("gin"):
        table_id, after, last = timer_played_first_turn(rdb, LIFETIMES, NOW)
        if made.endswith("resumed"):
            after = last - 1
    else:
        table_id, seq = seat_zero_to_draw(rdb, 30 if made.endswith("timed") else 0)
        after = seq - 1
    talk.mute(rdb, table_id, 0, 1, True, 3600)  # Ada mutes the bot: her T names it
    counted = Counted(redis_url)
    sent = stream_read(counted, table_id, 0, after, NOW)
    assert sent is not None
    assert counted.trips == trips
    table = tables.load(rdb, table_id)
    assert table is not None
    doc = message(sent.text)[1]["table"]
    assert doc == table_doc(rdb, table, 0, NOW)
    assert doc["muted"] == [1]
    counted.close()
