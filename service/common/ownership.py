"""Whose a player id is: the account it is linked to (its home id or an attached device's) and
the *owner* per-player data is kept under (streaks, statistics, leagues: ``a:<account>`` or
``p:<player>``). The read side of the accounts every domain asks (who is signed in, whose attempt
this is); service.accounts.store writes them. Flask-free.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis

from service.common.keys import PREFIX


def account_key(account_id: str) -> str:
    return f"{PREFIX}:{{a:{account_id}}}:account"


def players_key(account_id: str) -> str:
    return f"{PREFIX}:{{a:{account_id}}}:players"


def player_link_key(player: str) -> str:
    return f"{PREFIX}:{{p:{player}}}:account"


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    player: str  # the home player id of signed-in sessions
    created_ms: int
    generation: int  # bumped by "sign out everywhere": older sessions no longer count


def account_of(client: redis.Redis[str], player_id: str) -> str | None:
    """The account owning ``player_id`` (its home id or an attached anonymous one), else None."""
    return client.get(player_link_key(player_id))


def load(client: redis.Redis[str], account_id: str) -> Account | None:
    stored = client.hgetall(account_key(account_id))
    if not stored or stored.get("deleted") == "1":
        return None
    h = stored
    return Account(
        id=account_id,
        name=h["name"],
        player=h["player"],
        created_ms=int(h["created_ms"]),
        generation=int(h.get("generation", "0")),
    )


def players(client: redis.Redis[str], account_id: str) -> list[str]:
    return sorted(m for m in client.smembers(players_key(account_id)))


def owner_of(client: redis.Redis[str], player: str) -> str:
    """``a:<account>`` for a player id linked to an account, else ``p:<player id>``."""
    account = account_of(client, player)
    return f"a:{account}" if account is not None else f"p:{player}"
