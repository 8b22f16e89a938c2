"""The replay viewer's document: every position (F5) of a finished game of a closed day.

Built from the live attempt while its hash is kept, from the archive afterwards,
and cached as JSON: it never changes once the day has closed, and stepping a game through the
engine costs ~20 ms for ~100 KB.
"""

from __future__ import annotations

import json
from typing import Any

import redis

from service import games
from service.common import clock, keys
from service.common.config import Settings
from service.dailies import archive, store
from service.errors import DayOpen, UnknownReplay

CACHE_S = 3600


def _record(
    client: redis.Redis[str], store_of: archive.Archive, attempt_id: str, settings: Settings
) -> tuple[str, str, dict[str, Any]]:
    """(date, daily game, the record with its seed)."""
    attempt = store.load(client, attempt_id)
    if attempt is not None:
        if attempt.status != "finished" or not clock.is_closed(attempt.date, settings):
            raise DayOpen(attempt_id)
        daily = attempt.daily
        seed = store.attempt_seed(attempt, settings.secret)
        return attempt.date, attempt.kind, daily.daily_record(attempt.played, seed)
    item = archive.archived_entry(client, store_of, attempt_id)
    if item is None:
        raise UnknownReplay(attempt_id)
    return str(item["date"]), str(item.get("game", games.DEFAULT)), item["record"]


def _document(
    date: str, game: str, record: dict[str, Any], steps: dict[str, Any]
) -> dict[str, Any]:
    """``{"date", "record", **steps}``; a marked daily game's names its game after the date."""
    marked = {"game": game} if games.get(game).marked else {}
    return {"date": date, **marked, "record": record, **steps}


def document(
    client: redis.Redis[str], store_of: archive.Archive, attempt_id: str, settings: Settings
) -> str:
    """``{"date", "record", "positions"}`` as JSON text (a marked daily game's names its
    ``game``; Gin's adds each hand's ``deals``, docs/GIN_DAILY.md); raises
    :class:`~service.errors.UnknownReplay` or :class:`~service.errors.DayOpen`."""
    cached = client.get(keys.replay(attempt_id))
    if cached is not None:
        return cached
    date, game, record = _record(client, store_of, attempt_id, settings)
    doc = _document(date, game, record, games.daily(game).replay_steps(record))
    text = json.dumps(doc, separators=(",", ":"))
    client.set(keys.replay(attempt_id), text, ex=CACHE_S)
    return text


# --- the owner's own replay while the day is open ------------------------------------------------
#
# The owner of a finished attempt sees it again right after finishing, while everyone else waits
# for the close. The day's seed and deal stay secret until then (every player of the day gets the
# same deal, F4): the early document shows every step as seat 0 saw it at the table, the same
# facts the attempt's view and its log (without seed) gave its owner. Never cached: after the
# close the public document (above) takes its place.


def owner_document(attempt: store.Attempt, settings: Settings) -> str:
    """The owner's replay of their finished ``attempt`` before its day has closed: like
    :func:`document` (``"seen_by": 0`` added), every position as seat 0 saw it and the record
    without its seed (``deal.seed``/``seeds.seed`` null, the moves as seat 0 saw them). The
    caller has checked that the attempt is finished and the caller's."""
    assert attempt.status == "finished"
    daily = attempt.daily
    game = attempt.played
    steps = daily.owner_steps(game, store.attempt_seed(attempt, settings.secret))
    doc = _document(attempt.date, attempt.kind, daily.daily_record(game, None), steps)
    doc["seen_by"] = 0
    return json.dumps(doc, separators=(",", ":"))
