"""The replay viewer's document: every position (F5) of a finished game of a closed day.

Built from the live attempt while its hash is kept, from the archive afterwards (issue 10.10),
and cached as JSON: it never changes once the day has closed, and stepping a game through the
engine costs ~20 ms for ~100 KB (issue 10.7).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import redis

from engine import Rules, State, view
from engine.gin import FACE_DOWN, GinMatch, HandState, from_mask, names, public_moves
from engine.gin import view as gin_view
from engine.gin.record import read_record
from service.common import clock, keys
from service.common.config import Settings
from service.dailies import archive, store
from service.errors import DayOpen, UnknownReplay
from service.games import dailies

CACHE_S = 3600
#: A card the owner did not see in an early replay (a bot's hand, the stock): written as Gin's
#: views write a face-down card.
HIDDEN = FACE_DOWN


def positions(
    record: dict[str, Any],
    seed: bytes,
    shown: Callable[[State], dict[str, Any]] = State.to_position,
) -> list[dict[str, Any]]:
    """The position after the deal and after each move (``push`` checks each move; showing a
    game needs no bot recomputation), each as ``shown`` writes it (by default all of it)."""
    deal = record["deal"]
    state = State.new_round(seed, Rules.from_json(record["rules"]), deal["dealer"], deal["cut"])
    steps = [shown(state)]
    for entry in record["moves"]:
        state.push(entry["move"], entry["seat"])
        steps.append(shown(state))
    return steps


def gin_steps(
    record: dict[str, Any],
    seed: bytes,
    shown: Callable[[HandState], dict[str, Any]] = HandState.to_position,
) -> dict[str, list[dict[str, Any]]]:
    """A Gin match's viewer steps (docs/GIN_DAILY.md): ``deals`` (each hand right after its
    deal, gin-position/1) and ``positions`` (the hand after each move; a hand-ending move shows
    that hand with its outcome), each as ``shown`` writes it (by default all of it)."""
    match = GinMatch(seed, read_record(record).seats)
    deals = [shown(match.state)]
    steps = []
    for entry in record["moves"]:
        state = match.state
        match.push(entry["move"], entry["seat"])
        steps.append(shown(state))
        if match.state is not state:  # the next hand was dealt
            deals.append(shown(match.state))
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
        raise UnknownReplay(attempt_id)
    return str(item["date"]), str(item.get("game", dailies.PIKDAME)), item["record"]


def document(
    client: redis.Redis[str], store_of: archive.Archive, attempt_id: str, settings: Settings
) -> str:
    """``{"date", "record", "positions"}`` as JSON text (a Gin match: ``{"date", "game": "gin",
    "record", "deals", "positions"}``); raises :class:`UnknownReplay` or :class:`DayOpen`."""
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


# --- the owner's own replay while the day is open ------------------------------------------------
#
# The owner of a finished attempt sees it again right after finishing, while everyone else waits
# for the close. The day's seed and deal stay secret until then (every player of the day gets the
# same deal, F4): the early document shows every step as seat 0 saw it at the table, the same
# facts the attempt's view and its log (without seed) gave its owner. Never cached: after the
# close the public document (above) takes its place.


def _seen(state: State) -> dict[str, Any]:
    """A Pik Dame position as seat 0 saw it (R10): the other hands and the stock face down (their
    sizes kept), ``removed`` without a bot's face-down going-out card (R4.3)."""
    position = state.to_position()
    position["hands"] = [
        hand if seat == 0 else [HIDDEN] * len(hand) for seat, hand in enumerate(position["hands"])
    ]
    position["stock"] = [HIDDEN] * len(position["stock"])
    if state.outcome is not None:  # only a finished round's view hides a card of ``removed``
        position["removed"] = view(state, 0).to_json()["removed"]
    return position


def _gin_seen(state: HandState) -> dict[str, Any]:
    """A Gin position as seat 0 saw it (G6, docs/GIN_DAILY.md): the bot's hand only where it was
    laid open (its knock or its defence), the stock face down, the bot's knock card face down."""
    position = state.to_position()
    seen = gin_view(state, 0)
    other = names(from_mask(seen.revealed)) if seen.revealed is not None else None
    position["hands"] = [position["hands"][0], other or [HIDDEN] * seen.other_size]
    position["stock"] = [HIDDEN] * len(position["stock"])
    position["knock"] = None if seen.knock is None else seen.knock.to_json()
    position["taken"] = position["taken"] if state.turn == 0 else None
    return position


def owner_document(attempt: store.Attempt, settings: Settings) -> str:
    """The owner's replay of their finished ``attempt`` before its day has closed: like
    :func:`document` (``"seen_by": 0`` added), every position as seat 0 saw it and the record
    without its seed (``deal.seed``/``seeds.seed`` null, the moves as seat 0 saw them). The
    caller has checked that the attempt is finished and the caller's."""
    assert attempt.status == "finished"
    doc: dict[str, Any]
    if attempt.kind == dailies.GIN:
        match = attempt.match
        full = match.to_record(reveal_seed=True)
        steps = gin_steps(full, bytes.fromhex(full["seeds"]["seed"]), _gin_seen)
        record = match.to_record(reveal_seed=False)
        record["moves"] = [{"seat": s, "move": m} for s, m in public_moves(match.moves, 0)]
        doc = {"date": attempt.date, "game": dailies.GIN, "record": record, **steps}
    else:
        game = attempt.game
        seed = dailies.PIKDAME_DAILY.seed(settings.secret, attempt.date)
        full = game.to_record(seed)
        steps_seen = positions(full, seed, _seen)
        record = game.to_record(None)
        record["moves"] = [{"seat": s, "move": m} for s, m in view(game.state, 0).history]
        doc = {"date": attempt.date, "record": record, "positions": steps_seen}
    doc["seen_by"] = 0
    return json.dumps(doc, separators=(",", ":"))
