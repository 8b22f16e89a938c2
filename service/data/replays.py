"""The replay viewer's document: every position (F5) of a finished game of a closed day.

Built from the live attempt while its hash is kept, from the archive afterwards (issue 10.10),
and cached as JSON: it never changes once the day has closed, and stepping a game through the
engine costs ~20 ms for ~100 KB (issue 10.7).
"""

from __future__ import annotations

import json
from typing import Any

import redis

from engine import Rules, State
from engine.gin import GinMatch
from engine.gin.record import read_record
from service.data import archive, clock, dailies, keys, store
from service.data.config import Settings

CACHE_S = 3600


class Unknown(Exception):
    """No such attempt, neither stored nor archived."""


class DayOpen(Exception):
    """The attempt is unfinished, or its day has not closed: its seed is still secret."""


def positions(record: dict[str, Any], seed: bytes) -> list[dict[str, Any]]:
    """The position after the deal and after each move (``push`` checks each move; showing a
    game needs no bot recomputation)."""
    deal = record["deal"]
    state = State.new_round(seed, Rules.from_json(record["rules"]), deal["dealer"], deal["cut"])
    steps = [state.to_position()]
    for entry in record["moves"]:
        state.push(entry["move"], entry["seat"])
        steps.append(state.to_position())
    return steps


def gin_steps(record: dict[str, Any], seed: bytes) -> dict[str, list[dict[str, Any]]]:
    """A Gin match's viewer steps (docs/GIN_DAILY.md): ``deals`` (each hand right after its
    deal, gin-position/1) and ``positions`` (the hand after each move; a hand-ending move shows
    that hand with its outcome)."""
    match = GinMatch(seed, read_record(record).seats)
    deals = [match.state.to_position()]
    steps = []
    for entry in record["moves"]:
        state = match.state
        match.push(entry["move"], entry["seat"])
        steps.append(state.to_position())
        if match.state is not state:  # the next hand was dealt
            deals.append(match.state.to_position())
    return {"deals": deals, "positions": steps}


def _record(
    client: redis.Redis[str], store_of: archive.Archive, attempt_id: str, settings: Settings
) -> tuple[str, str, dict[str, Any]]:
    """(date, daily game, the record with its seed)."""
    attempt = store.load(client, attempt_id)
    if attempt is not None:
        if attempt.status != "finished" or not clock.is_closed(attempt.date, settings):
            raise DayOpen(attempt_id)
        if attempt.kind == dailies.GIN:
            return attempt.date, dailies.GIN, attempt.match.to_record(reveal_seed=True)
        seed = dailies.PIKDAME_DAILY.seed(settings.secret, attempt.date)
        return attempt.date, dailies.PIKDAME, attempt.game.to_record(seed)
    item = archive.archived_entry(client, store_of, attempt_id)
    if item is None:
        raise Unknown(attempt_id)
    return str(item["date"]), str(item.get("game", dailies.PIKDAME)), item["record"]


def document(
    client: redis.Redis[str], store_of: archive.Archive, attempt_id: str, settings: Settings
) -> str:
    """``{"date", "record", "positions"}`` as JSON text (a Gin match: ``{"date", "game": "gin",
    "record", "deals", "positions"}``); raises :class:`Unknown` or :class:`DayOpen`."""
    cached = client.get(keys.replay(attempt_id))
    if cached is not None:
        return cached
    date, game, record = _record(client, store_of, attempt_id, settings)
    doc: dict[str, Any]
    if game == dailies.GIN:
        seed = bytes.fromhex(record["seeds"]["seed"])
        doc = {"date": date, "game": game, "record": record, **gin_steps(record, seed)}
    else:
        seed = bytes.fromhex(record["deal"]["seed"])
        doc = {"date": date, "record": record, "positions": positions(record, seed)}
    text = json.dumps(doc, separators=(",", ":"))
    client.set(keys.replay(attempt_id), text, ex=CACHE_S)
    return text
