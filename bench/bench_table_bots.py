"""A human's move at a Meister table, off the request (docs/TABLES.md "Bots off the request"):
the move's answer with the Meister left to the bots' worker, beside the same human moves with the
Meister moving inline (as a table's bots moved before), and the bots worker's steps.

Gin tables of Ada (the tests' scripted player) against the Meister, no turn timer, each played to
the end of its first hand through the app (Flask's test client, a real redis-server); each step
of the bots' worker is ``service.tables.store.play_bots`` called in this process, as the job
does. Then each table's moves are played again in one ``GinMatch`` with the Meister inline, from
the table's seed, timing each human move's ``play`` (the human's move and the bots' answers); the
moves must come out the same (G9). Wall-clock milliseconds (``time.perf_counter``): what a
player waits for.

    .venv/bin/python -m bench.bench_table_bots --tables 6
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import redis

from engine.core.records import Seat
from engine.gin.match import GinMatch
from service.tables import store as tables
from tests.support.api import caller
from tests.support.gin_player import gin_choice
from tests.support.servers import start_redis
from tests.support.service_app import Clock, make_app

RESULT = Path(__file__).resolve().parent / "results" / "table_bots.md"
SEATS = [{"kind": "human"}, {"kind": "bot", "level": "meister"}]


def quantiles(xs: list[float]) -> str:
    ordered = sorted(xs)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{len(xs)} | {statistics.median(xs):.1f} | {p90:.1f} | {max(xs):.1f}"


def measure(count: int) -> tuple[list[float], list[float], list[float]]:
    server = start_redis()
    try:
        app = make_app(server.url, Clock(), PIKDAME_BOT_QUEUE="bots-bench")
        rdb: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
        answer_ms: list[float] = []
        step_ms: list[float] = []
        inline_ms: list[float] = []
        life = tables.Lifetimes(3600, 3600)
        for _ in range(count):
            spec = {"game": "gin", "name": "Ada", "seats": SEATS, "rules": {"turn_timer": None}}
            made = app.test_client().post("/api/tables", json=spec).get_json()
            table_id = made["table"]["id"]
            ada = caller(app.test_client(), made["token"])
            table = ada("POST", f"/api/tables/{table_id}/start", {})[1]["table"]
            while not table["rounds"]:
                stored = tables.load(rdb, table_id)
                assert stored is not None
                if stored.bot_due_ms is not None:
                    start = time.perf_counter()
                    tables.play_bots(rdb, table_id, stored.seq, life, 0)
                    step_ms.append((time.perf_counter() - start) * 1000)
                    table = ada("GET", f"/api/tables/{table_id}", None)[1]["table"]
                    continue
                move = {"move": gin_choice(table["view"]), "seq": table["seq"]}
                start = time.perf_counter()
                status, body = ada("POST", f"/api/tables/{table_id}/moves", move)
                answer_ms.append((time.perf_counter() - start) * 1000)
                assert status == 200, body
                table = body["table"]
            stored = tables.load(rdb, table_id)
            assert stored is not None and stored.session is not None
            moves = [(e["seat"], e["move"]) for e in tables.events_after(rdb, table_id, 0)]
            seed = bytes.fromhex(stored.session["record"]["seeds"]["seed"])
            inline = GinMatch.start(seed, (Seat("human", name="Ada"), Seat("bot", level="meister")))
            for seat, text in moves:
                if seat == 0 and len(inline.moves) < len(moves):
                    start = time.perf_counter()
                    inline.play(text, 0)
                    inline_ms.append((time.perf_counter() - start) * 1000)
            assert inline.moves[: len(moves)] == moves  # G9: the same moves
        return answer_ms, inline_ms, step_ms
    finally:
        server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=6)
    args = parser.parse_args()
    answer, inline, step = measure(args.tables)
    load = os.getloadavg()[0]
    RESULT.write_text(
        f"""## The Meister off the request (bench/bench_table_bots.py, issue 40 item 8)

A human's move at a Gin table against the Meister: the move's answer (its bots' answers stop
before the Meister, whose move the bots' worker makes: docs/TABLES.md "Bots off the request"),
beside the same human moves played with the Meister inline, as a table's bots moved before; and
the bots worker's steps. {args.tables} tables, each to the end of its first hand; the moves came
out the same both ways. Wall-clock milliseconds on the project's 2-core machine shared with other
sessions (load average {load:.1f}):

```
.venv/bin/python -m bench.bench_table_bots --tables {args.tables}
```

| what a request (or step) does | moves | p50 ms | p90 ms | max ms |
| --- | ---: | ---: | ---: | ---: |
| the answer to `POST /api/tables/{{id}}/moves`, the Meister off it | {quantiles(answer)} |
| the same human moves, the Meister inline (`GinMatch.play`, no HTTP) | {quantiles(inline)} |
| one step of the bots' worker (`store.play_bots`) | {quantiles(step)} |
"""
    )
    print(RESULT.read_text())


if __name__ == "__main__":
    main()
