"""A player's own finished games ("Meine Spiele"): every daily attempt (ranked and practice),
table and Gin match a player finished, newest first, each linking to its replay.

Flask-free, shared by the attempts' and the tables' writes. One sorted set per player id
(``keys.player_games``: a small JSON summary of the game -> when it finished, ms on the app's
clock), written once when a game finishes, kept to the newest :data:`KEEP` entries. A game the
store has dropped since (a practice attempt past its day, an expired table) is left out when the
list is read: only games whose replay can still be shown are listed. An account reads the lists
of every player id attached to it (service.accounts.store).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Final

import redis

from service import games
from service.common import keys

KEEP: Final = 50  # entries per player id; the list shows at most this many
#: How long a player's list lives after its last write (a duration, never a moment): a year, so
#: an archived daily attempt (kept for good) stays listed while its player comes back.
LIFETIME_S: Final = 365 * 24 * 3600


def note(client: redis.Redis[str], player: str, summary: dict[str, Any], finished_ms: int) -> None:
    """Add one finished game to ``player``'s list (its newest :data:`KEEP` stay). Idempotent: the
    same summary is one member."""
    key = keys.player_games(player)
    member = json.dumps(summary, sort_keys=True, separators=(",", ":"))
    pipe = client.pipeline(transaction=True)
    pipe.zadd(key, {member: finished_ms})
    pipe.zremrangebyrank(key, 0, -(KEEP + 1))
    pipe.expire(key, LIFETIME_S)
    pipe.execute()


def attempt_summary(
    attempt_id: str, game: str, date: str, ranked: bool, score: int | None
) -> dict[str, Any]:
    return {
        "type": "attempt",
        "id": attempt_id,
        "game": game,
        "date": date,
        "ranked": ranked,
        "score": score,
    }


def table_summary(table_id: str, game: str, players: int) -> dict[str, Any]:
    return {"type": "table", "id": table_id, "game": game, "players": players}


def replay_url(summary: dict[str, Any]) -> str:
    """The page showing the game again (its game's replay viewer, templates/<game>/replay.html)."""
    if summary["type"] == "table":
        return f"/tables/{summary['id']}/replay"
    return games.get(summary["game"]).pages.replay_url(summary["id"])


def listing(client: redis.Redis[str], players: Iterable[str]) -> list[dict[str, Any]]:
    """The finished games of ``players`` (one person's ids) that still exist, newest first, at
    most :data:`KEEP`: each summary with ``finished_ms`` and its ``replay`` page."""
    found: dict[str, tuple[dict[str, Any], int]] = {}
    for player in sorted(set(players)):
        for member, score in client.zrevrange(keys.player_games(player), 0, KEEP - 1, True):
            summary = json.loads(member)
            key = f"{summary['type']}:{summary['id']}"
            if key not in found or found[key][1] < int(score):
                found[key] = (summary, int(score))
    newest = sorted(found.values(), key=lambda item: (-item[1], item[0]["id"]))[:KEEP]
    pipe = client.pipeline(transaction=False)
    for summary, _ in newest:
        if summary["type"] == "table":
            pipe.exists(keys.table(summary["id"]))
            pipe.exists(keys.table(summary["id"]))
        else:
            pipe.exists(keys.attempt(summary["id"]))
            pipe.hexists(keys.ARCHIVED, summary["id"])
    there = pipe.execute()
    games = []
    for n, (summary, finished_ms) in enumerate(newest):
        if there[2 * n] or there[2 * n + 1]:
            games.append(summary | {"finished_ms": finished_ms, "replay": replay_url(summary)})
    return games
