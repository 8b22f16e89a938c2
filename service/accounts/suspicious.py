"""Patterns worth an operator's look (``pikdame suspicious [DATE]``): the deal is the
same for everyone, so a second ranked attempt under another account, or one after an attempt
"ohne Wertung" of the same deal (a rehearsal), is the way to cheat. Lists, never judges: one
address (IPv6: /64) starting several ranked attempts of a day, an account created shortly before a
top score, many accounts from one address, an address starting an unranked attempt of the day
before a ranked one; the same accounts (or one address) meeting in rated table games again and
again, fresh accounts feeding one account and quick agreed resignations (rating manipulation by
arranged games, issue 38)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Final

import redis

from service import games
from service.accounts import store as accounts
from service.common import keys, ownership
from service.dailies import ranking, store
from service.games import GAMES
from service.tables import ratings

TOP: Final = 20  # the scores an account's age is checked against
FRESH_MS: Final = 30 * 60 * 1000  # "created minutes before": within half an hour
MANY_ACCOUNTS: Final = 3
#: Rated games two accounts (or two seats at one address) played together, within the pairings'
#: thirty days, from which the pair is listed.
REPEATED_PAIRINGS: Final = 3
#: An account that beat this many accounts or more in one of their first FRESH_GAMES rated games
#: (fresh accounts feeding one: docs/LOBBY.md "What a rated game counts") is listed.
FRESH_FEEDERS: Final = 3
FRESH_GAMES: Final = 3
#: Two accounts that ended this many rated games or more by an agreed resignation before
#: ratings.MIN_MOVES moves (not rated, but tried) are listed.
QUICK_ENDS: Final = 2


def report(client: redis.Redis[str], rankings: redis.Redis[str], date: str) -> dict[str, Any]:
    """The day's patterns, each a list sorted for stable output (``client``: game state and
    accounts; ``rankings``: the boards): the first daily game's at the top level as before, and
    each marked daily game's ranked starts and top scores under its name."""
    found = _day_report(client, rankings, date, games.DEFAULT)
    many = _many_accounts(client)
    out: dict[str, Any] = {"date": date, **found, "many_accounts_one_address": many}
    # rated tables (docs/LOBBY.md): the same accounts, or one address, meeting again and again
    out["rated_pairings"] = ratings.repeated_pairings(client, sorted(GAMES), REPEATED_PAIRINGS)
    out.update(_farming(client, sorted(GAMES)))
    for game in games.MARKED_DAILY_GAMES:
        out[game] = _day_report(client, rankings, date, game)
    return out


def _day_report(
    client: redis.Redis[str], rankings: redis.Redis[str], date: str, game: str
) -> dict[str, Any]:
    """One daily game's patterns of the day: shared addresses, fresh accounts at the top."""
    by_address: dict[str, list[str]] = defaultdict(list)
    for attempt_id, address in sorted(client.hgetall(keys.day_starts(date, game)).items()):
        by_address[address].append(attempt_id)
    shared = [
        {"address": a, "attempts": ids} for a, ids in sorted(by_address.items()) if len(ids) > 1
    ]
    fresh = []
    for entry in ranking.day_page(rankings, date, 0, TOP, game=game)["entries"]:
        attempt = store.load(client, entry["attempt_id"])
        if attempt is None:
            continue
        account_id = ownership.account_of(client, attempt.player)
        account = None if account_id is None else ownership.load(client, account_id)
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
    return {
        "shared_address": shared,
        "fresh_account_top_score": fresh,
        "rehearsed": _rehearsed(client, date, game, by_address),
    }


def _rehearsed(
    client: redis.Redis[str], date: str, game: str, ranked: dict[str, list[str]]
) -> list[dict[str, Any]]:
    """Addresses that started an attempt "ohne Wertung" of the day's deal before a ranked one
    (``ranked``: address -> its ranked attempt ids): the deal rehearsed, its cookie cleared or on
    another device (a device that saw the deal gets no ranked attempt: service.dailies.seen)."""
    unranked: dict[str, list[str]] = defaultdict(list)
    for attempt_id, address in client.hgetall(keys.day_unranked_starts(date, game)).items():
        if address in ranked:
            unranked[address].append(attempt_id)
    found = []
    for address, practice_ids in sorted(unranked.items()):
        first = min(_created_ms(client, i) for i in practice_ids)
        later = sorted(i for i in ranked[address] if _created_ms(client, i) > first)
        if later:
            found.append({"address": address, "unranked": sorted(practice_ids), "ranked": later})
    return found


def _created_ms(client: redis.Redis[str], attempt_id: str) -> int:
    """When an attempt was started; an expired one counts as never (it sorts last)."""
    created = client.hget(keys.attempt(attempt_id), "created")
    return int(created) if created is not None else 2**62


def _many_accounts(client: redis.Redis[str]) -> list[dict[str, Any]]:
    """Addresses that created MANY_ACCOUNTS accounts or more."""
    per_address: dict[str, list[str]] = defaultdict(list)
    for account_id, _ in accounts.created_between(client, 0, 2**62):
        source = client.hget(ownership.account_key(account_id), "address")
        if source:
            per_address[source].append(account_id)
    return [
        {"address": a, "accounts": ids}
        for a, ids in sorted(per_address.items())
        if len(ids) >= MANY_ACCOUNTS
    ]


def _farming(client: redis.Redis[str], games_: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Farming in the kept rated results (service.tables.ratings.results, newest 2000 a game):
    ``rated_fresh_feeders``, accounts that beat FRESH_FEEDERS accounts or more in one of those
    accounts' first FRESH_GAMES rated games; ``rated_quick_resignations``, pairs of accounts
    that ended QUICK_ENDS games or more before ratings.MIN_MOVES moves (not rated)."""
    feeders: list[dict[str, Any]] = []
    quick: list[dict[str, Any]] = []
    for game in games_:
        fed: dict[str, set[str]] = defaultdict(set)
        ended: dict[tuple[str, str], int] = defaultdict(int)
        for result in ratings.results(client, game):
            seats = result["seats"]
            if not result["counts"]:
                accounts_ = sorted({s["account"] for s in seats})
                for i, a in enumerate(accounts_):
                    for b in accounts_[i + 1 :]:
                        ended[(a, b)] += 1
                continue
            for winner in seats:
                for loser in seats:
                    fresh = loser["games"] < FRESH_GAMES and loser["account"] != winner["account"]
                    if fresh and winner["place"] < loser["place"]:
                        fed[winner["account"]].add(loser["account"])
        feeders += [
            {"game": game, "account": account, "fresh": sorted(losers)}
            for account, losers in sorted(fed.items())
            if len(losers) >= FRESH_FEEDERS
        ]
        quick += [
            {"game": game, "accounts": list(pair), "games": count}
            for pair, count in sorted(ended.items())
            if count >= QUICK_ENDS
        ]
    return {"rated_fresh_feeders": feeders, "rated_quick_resignations": quick}
