"""The Gin daily's verification as the worker runs it, beside Pik Dame's daily in one run.

    .venv/bin/python -m bench.bench_gin_daily [--games 20] [--repeats 3]

Plays ``--games`` Gin daily matches (a player against the strong bot to 100) and as
many Pik Dame daily rounds through the API (in-process app, a real Redis; the player's moves by a
seeded strategy), then times ``worker.verify.verify`` on each finished attempt:
read the attempt from Redis, pin the record to the day's setup, replay every move from the day's
seed with every bot move recomputed by the record's released bots, rank it once and record the
verdict. Each repeat forgets the verdicts and rankings first. Writes bench/results/gin_daily.md.
No test asserts a timing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import platform
import random
import statistics
import time
from typing import Any

import redis

from bench.loadkit import ROOT, command_line, start_redis, write_result
from engine.gin import arrange, from_mask, names, parse_card, to_mask
from service.app import create_app
from service.common import keys
from worker.verify import verify

RESULT = ROOT / "bench" / "results" / "gin_daily.md"
SECRET = b"bench-secret"
DAY = "2026-11-30"


def _app(url: str) -> Any:
    clock = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
    logging.getLogger("pikdame.access").disabled = True
    return create_app(
        {
            "REDIS_URL": url,
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_NOW": lambda: clock,
            "PIKDAME_LIMITS_ENABLED": False,
            "PIKDAME_RANK_ANONYMOUS": True,
        }
    )


def _gin_move(view: dict[str, Any], rng: random.Random) -> str:
    """A seeded player, so the corpus holds different matches: knock when the deadwood allows
    (G6), else discard the card leaving the least deadwood, or now and then a random one."""
    phase = view["phase"]
    if phase in ("upcard", "draw"):
        if view["can_take"] and rng.random() < 0.3:
            return "take"
        return "pass" if phase == "upcard" else "draw"
    if phase == "defend":
        return str(view["suggestion"])
    hand = [c for c in view["hand"] if c != view["taken"]]
    mask = to_mask(parse_card(c) for c in view["hand"])
    options = sorted((arrange(mask & ~(1 << parse_card(c))), c) for c in hand)
    (deadwood, melds), card = options[0]
    if deadwood <= 10:
        groups = " | ".join(" ".join(names(from_mask(m))) for m in melds)
        return f"knock {card} {groups}".rstrip()
    if rng.random() < 0.25:
        card = rng.choice(hand)
    return f"discard {card}"


def _pikdame_move(view: dict[str, Any], rng: random.Random) -> str:
    if view["phase"] == "draw":
        return "draw" if view["can_draw"] else "resign"
    return f"discard {rng.choice(view['hand'])}"


def play(app: Any, games: int, game: str) -> list[str]:
    """Finish ``games`` ranked attempts of ``game``; returns their ids."""
    rng = random.Random(5)
    ids = []
    for i in range(games):
        client = app.test_client()
        body = client.post(
            f"/api/daily/{DAY}/attempts", json={"name": f"{game[0]}{i}", "game": game}
        ).get_json()
        attempt = body["attempt"]
        headers = {"Authorization": f"Bearer {body['token']}"}
        while attempt["status"] == "playing":
            view = attempt["view"]
            move = _gin_move(view, rng) if game == "gin" else _pikdame_move(view, rng)
            response = client.post(
                f"/api/attempts/{attempt['id']}/moves",
                json={"move": move, "seq": attempt["seq"]},
                headers=headers,
            )
            assert response.status_code == 200, response.get_json()
            attempt = response.get_json()["attempt"]
        ids.append(attempt["id"])
    return ids


def reset(client: redis.Redis[str], ids: list[str]) -> None:
    """Forget every verdict and ranking, so the next repeat verifies from scratch."""
    for pattern in ("pd:day:*", "pd:player:*", "pd:alltime*", "pd:{o:*", "rq:*"):
        for key in client.scan_iter(pattern, count=1000):
            client.delete(key)
    pipe = client.pipeline(transaction=False)
    for aid in ids:
        pipe.hset(keys.attempt(aid), "verification", "queued")
        pipe.hdel(keys.attempt(aid), "reason")
    pipe.execute()


def times(client: redis.Redis[str], ids: list[str]) -> tuple[list[float], list[float], int]:
    """Wall-clock and CPU (thread) seconds of each verification, and the moves verified."""
    wall, cpu = [], []
    for aid in ids:
        w, c = time.perf_counter(), time.thread_time()
        result = verify(client, aid, SECRET, client)  # rankings on the same server
        cpu.append(time.thread_time() - c)
        wall.append(time.perf_counter() - w)
        assert result["status"] == "verified", result
    moves = sum(int(client.hget(keys.attempt(a), "seq") or 0) for a in ids)
    return wall, cpu, moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    server = start_redis()
    try:
        client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
        app = _app(server.url)
        corpora = {"gin": play(app, args.games, "gin"), "pikdame": play(app, args.games, "pikdame")}
        samples: dict[str, tuple[list[float], list[float]]] = {g: ([], []) for g in corpora}
        moves: dict[str, int] = {}
        for _ in range(args.repeats):  # interleaved: both see the same machine noise
            for game, ids in corpora.items():
                reset(client, [i for c in corpora.values() for i in c])
                wall, cpu, moves[game] = times(client, ids)
                samples[game][0].extend(wall)
                samples[game][1].extend(cpu)
    finally:
        server.stop()

    def ms(values: list[float], q: float) -> str:
        ordered = sorted(values)
        if q == 0.5:
            return f"{1000 * statistics.median(ordered):.1f}"
        return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"

    label = {
        "gin": "Gin daily match to 100 vs the strong bot",
        "pikdame": "Pik Dame daily round vs three zen bots (reference)",
    }
    lines = [
        "## The Gin daily's verification, as the worker runs it",
        "",
        f"Command: `{command_line('bench.bench_gin_daily', argv)}`",
        f"Machine: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, a real redis-server; {args.repeats} interleaved repeats of "
        f"{args.games} attempts per game. Load average after the run: "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}.",
        "Each figure is one call of `worker.verify.verify` (the RQ job's work without RQ): the "
        "attempt read from Redis, the record pinned to the day (seats, commitment, released "
        "engine), every move replayed from the day's seed with every bot move recomputed, "
        "ranked once, the verdict recorded. Goal for Gin: median ≤ 100 ms.",
        "",
        "| daily | moves per record | clock | p50 ms | p99 ms | max ms |",
        "| --- | ---: | --- | ---: | ---: | ---: |",
    ]
    for game, (wall, cpu) in samples.items():
        per = moves[game] / args.games
        for clock, values in (("wall", wall), ("CPU", cpu)):
            lines.append(
                f"| {label[game]} | {per:.0f} | {clock} | {ms(values, 0.5)} | "
                f"{ms(values, 0.99)} | {ms(values, 1.0)} |"
            )
    write_result(RESULT, [*lines, ""])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
