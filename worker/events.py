"""Verify an event deal's record (docs/EVENTS.md, "Verification") exactly as a daily record:
replayed from its seed (the event's, F4e) with every bot move recomputed by its adapter's
``event_judge`` (the daily's ``judge`` against the event deal's setup); once verified, its score
is folded into the event's standings (service.events.store.fold). Flask-free and clock-free.

The job is the daily's (worker.jobs.verify_attempt, queued by the attempts' move route and
requeued by the reconciler under the same id): it hands an attempt with an ``event`` field here.
The steps and their order are worker.verify's: judge, fold (idempotent, on the rankings
server), then record the verdict with the daily's script (on the state server), so a job that
dies between the two is retried, folds nothing twice and records the verdict.
"""

from __future__ import annotations

import json

import redis

from engine.core.errors import UnknownRelease
from service import games
from service.common import connect, keys
from service.dailies import store as attempts
from service.errors import AttemptNotFinished, EngineMismatch, NotReplicated
from service.events import store
from service.games.adapter import EVENT
from worker.verify import Verification, finished_attempt, record_verdict


def verified_event(
    client: redis.Redis[str],
    attempt_id: str,
    secret: bytes,
    rankings: redis.Redis[str],
    replicas: int = 0,
    stored: dict[str, str] | None = None,
) -> Verification:
    """Judge the event deal's record, fold a verified score, record the verdict; a second run
    finds the verdict and changes nothing. ``stored``: the attempt's hash if already read."""
    if stored is None:
        stored = client.hgetall(keys.attempt(attempt_id))
    attempt = finished_attempt(stored, attempt_id)
    if attempt.event is None:
        raise AttemptNotFinished(f"attempt {attempt_id} is not an event deal")
    if attempt.verification in ("verified", "rejected"):
        done = {"attempt_id": attempt_id, "status": attempt.verification, "new": False}
        return Verification(done, attempt)
    event = games.offering(EVENT)[attempt.kind]
    record = json.loads(attempt.game_json)["record"]
    seed = attempts.attempt_seed(attempt, secret)
    try:
        verdict = event.event_judge(record, seed, attempt.name, attempt.score)
    except UnknownRelease as e:
        raise EngineMismatch(e.message) from None
    status, turns = verdict.status, verdict.tie_break
    if status == "verified":
        assert verdict.score is not None and turns is not None
        week, n = attempt.event.split("/")
        at = attempt.finished_ms or 0
        store.fold(rankings, attempt.kind, week, attempt.player, int(n), verdict.score, at)
        if not connect.acknowledged(rankings, replicas):
            raise NotReplicated(attempt_id)
    return record_verdict(client, attempt, status, turns, verdict.reason)
