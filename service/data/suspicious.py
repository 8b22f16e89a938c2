"""Patterns worth an operator's look (issue 13, ``pikdame suspicious [DATE]``): the deal is the
same for everyone, so a second ranked attempt under another account is the way to cheat. Lists,
never judges: one address (IPv6: /64) starting several ranked attempts of a day, an account
created shortly before a top score, many accounts from one address."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Final

import redis

from service.data import accounts, keys, ranking, store

KEEP_SECONDS: Final = 30 * 86400  # how long a day's start addresses are kept for review
TOP: Final = 20  # the scores an account's age is checked against
FRESH_MS: Final = 30 * 60 * 1000  # "created minutes before": within half an hour
MANY_ACCOUNTS: Final = 3


def note_start(
    client: redis.Redis[str], date: str, attempt_id: str, address: str, game: str = keys.PIKDAME
) -> None:
    """Remember which address started a ranked attempt (per daily game)."""
    pipe = client.pipeline(transaction=False)
    pipe.hset(keys.day_starts(date, game), attempt_id, address)
    pipe.expire(keys.day_starts(date, game), KEEP_SECONDS)
    pipe.execute()


def note_account(client: redis.Redis[str], account_id: str, address: str) -> None:
    client.hset(accounts.account_key(account_id), "address", address)


def report(client: redis.Redis[str], rankings: redis.Redis[str], date: str) -> dict[str, Any]:
    """The day's patterns, each a list sorted for stable output (``client``: game state and
    accounts; ``rankings``: the boards)."""
    by_address: dict[str, list[str]] = defaultdict(list)
    for attempt_id, address in sorted(client.hgetall(keys.day_starts(date)).items()):
        by_address[address].append(attempt_id)
    shared = [
        {"address": a, "attempts": ids} for a, ids in sorted(by_address.items()) if len(ids) > 1
    ]
    fresh = []
    for entry in ranking.day_page(rankings, date, 0, TOP)["entries"]:
        attempt = store.load(client, entry["attempt_id"])
        if attempt is None:
            continue
        account_id = accounts.account_of(client, attempt.player)
        account = None if account_id is None else accounts.load(client, account_id)
        if account is not None and 0 <= attempt.created_ms - account.created_ms <= FRESH_MS:
            fresh.append(
                {
                    "rank": entry["rank"],
                    "score": entry["score"],
                    "attempt_id": attempt.id,
                    "account": account.id,
                    "minutes_before": (attempt.created_ms - account.created_ms) // 60000,
                }
            )
    per_address: dict[str, list[str]] = defaultdict(list)
    for account_id, _ in accounts.created_between(client, 0, 2**62):
        source = client.hget(accounts.account_key(account_id), "address")
        if source:
            per_address[source].append(account_id)
    many = [
        {"address": a, "accounts": ids}
        for a, ids in sorted(per_address.items())
        if len(ids) >= MANY_ACCOUNTS
    ]
    return {
        "date": date,
        "shared_address": shared,
        "fresh_account_top_score": fresh,
        "many_accounts_one_address": many,
    }
