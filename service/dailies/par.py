"""The bot's par: what the Zen-Meister scores in the player's seat on the day's deal.

Computed once per day by a worker job (worker.jobs.compute_par) and stored; the API shows it
only to players who have finished (it tells something of the deal)."""

from __future__ import annotations

from typing import Final

import redis

from service.common import keys

JOB_PREFIX: Final = "par-"


def job_id(date: str) -> str:
    return f"{JOB_PREFIX}{date}"


def store(client: redis.Redis[str], date: str, score: int, turns: int) -> bool:
    """Keep the day's par once (HSETNX of both fields in one transaction); False if known."""
    pipe = client.pipeline(transaction=True)
    pipe.hsetnx(keys.par(date), "score", str(score))
    pipe.hsetnx(keys.par(date), "turns", str(turns))
    first, _ = pipe.execute()
    return bool(first)


def read(client: redis.Redis[str], date: str) -> dict[str, int] | None:
    h = client.hgetall(keys.par(date))
    if "score" not in h:
        return None
    return {"score": int(h["score"]), "turns": int(h["turns"])}
