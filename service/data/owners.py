"""Who a per-player datum belongs to: the ONE mapping from the service's player id (the session's
or bearer token's player, service.identity) to the id streaks, statistics and leagues are kept
under, so an account (service.data.accounts) gathers every device's history under one owner."""

from __future__ import annotations

import redis

from service.data import accounts


def owner_of(client: redis.Redis[str], player: str) -> str:
    """``a:<account>`` for a player id linked to an account, else ``p:<player id>``."""
    account = accounts.account_of(client, player)
    return f"a:{account}" if account is not None else f"p:{player}"
