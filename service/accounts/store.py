"""Accounts: who a player id belongs to, their passkeys, and the session generation.

Flask-free. An account owns one *home* player id (the ``player`` its signed-in sessions carry,
under which its attempts are stored) and any anonymous player ids attached to it (a device's
history before sign-up). :func:`account_of` maps any of them to the account, so per-player data
keyed by ``player`` (streaks, statistics, leagues) can be summed per account.

Keys (each account's keys share the hash tag ``{a:ID}``, each player's link ``{p:ID}``):

- ``pd:{a:ID}:account`` hash: name, player (home id), created_ms, generation, deleted
- ``pd:{a:ID}:creds`` set of credential ids (base64url)
- ``pd:{a:ID}:players`` set of player ids attached (the home id included)
- ``pd:{a:ID}:settings`` hash: the account's settings of the pages (deck, size, contrast, sound,
  lang), each field only once chosen
- ``pd:{p:PLAYER}:account`` string: the account id owning a player id
- ``pd:cred:{ID}`` hash: account, public_key (hex), sign_count, created_ms, label
- ``pd:{ch:ID}:challenge`` string with TTL: one WebAuthn challenge, consumed by GETDEL

Game state may live on a Redis Cluster, and accounts live with it: every transaction
here touches one account's ``{a:ID}`` keys only (one slot). The indexes that find an account from
elsewhere (a credential's hash, a player's link, ``pd:accounts``) are single-key writes made in
an order that leaves at worst an unreachable leftover if a process dies between two steps: the
account first, then what points to it; on removal, what points to it first.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import redis

from service import games
from service.common import keys
from service.common.keys import PREFIX
from service.common.ownership import (
    Account,
    account_key,
    player_link_key,
    players,
    players_key,
)
from service.dailies.archive import Archive, file_name, parse_file_name, rename, rename_later
from service.errors import ArchiveBusy

CHALLENGE_SECONDS: Final = 300
DELETED_NAME: Final = "gelöscht"
ACCOUNTS_BY_TIME: Final = f"{PREFIX}:accounts"  # zset account id -> created ms
RENAME_WAIT_S: Final = 5.0  # a deletion waits this long for an archive file being rewritten


def creds_key(account_id: str) -> str:
    return f"{PREFIX}:{{a:{account_id}}}:creds"


def settings_key(account_id: str) -> str:
    return f"{PREFIX}:{{a:{account_id}}}:settings"


def cred_key(credential_id: str) -> str:
    return f"{PREFIX}:cred:{credential_id}"


def challenge_key(handle: str) -> str:
    return f"{PREFIX}:{{ch:{handle}}}:challenge"


@dataclass(frozen=True)
class Credential:
    id: str  # base64url credential id
    account: str
    public_key: bytes
    sign_count: int
    created_ms: int
    label: str


def create(
    client: redis.Redis[str], name: str, credential: Credential, now_ms: int, account_id: str
) -> Account:
    """A new account with its first passkey and a fresh home player id: the account's own keys
    in one transaction on its slot, then the passkey, the player's link and the time index."""
    player = secrets.token_hex(8)
    pipe = client.pipeline(transaction=True)
    pipe.hset(
        account_key(account_id),
        mapping={"name": name, "player": player, "created_ms": now_ms, "generation": 0},
    )
    pipe.sadd(players_key(account_id), player)
    pipe.execute()
    add_credential(client, credential)
    client.set(player_link_key(player), account_id)
    client.zadd(ACCOUNTS_BY_TIME, {account_id: now_ms})
    return Account(account_id, name, player, now_ms, 0)


def add_credential(client: redis.Redis[str], credential: Credential) -> None:
    """The passkey's hash (its own slot), then its id in the account's set (the account's)."""
    client.hset(
        cred_key(credential.id),
        mapping={
            "account": credential.account,
            "public_key": credential.public_key.hex(),
            "sign_count": credential.sign_count,
            "created_ms": credential.created_ms,
            "label": credential.label,
        },
    )
    client.sadd(creds_key(credential.account), credential.id)


def credential(client: redis.Redis[str], credential_id: str) -> Credential | None:
    stored = client.hgetall(cred_key(credential_id))
    if not stored:
        return None
    h = stored
    return Credential(
        id=credential_id,
        account=h["account"],
        public_key=bytes.fromhex(h["public_key"]),
        sign_count=int(h["sign_count"]),
        created_ms=int(h["created_ms"]),
        label=h["label"],
    )


def credentials(client: redis.Redis[str], account_id: str) -> list[Credential]:
    """The account's passkeys, oldest first."""
    ids = sorted(m for m in client.smembers(creds_key(account_id)))
    found = [credential(client, i) for i in ids]
    return sorted((c for c in found if c is not None), key=lambda c: (c.created_ms, c.id))


def set_sign_count(client: redis.Redis[str], credential_id: str, sign_count: int) -> None:
    client.hset(cred_key(credential_id), "sign_count", sign_count)


def remove_credential(client: redis.Redis[str], account_id: str, credential_id: str) -> bool:
    """Remove one passkey of the account; False (and nothing removed) if it is not the
    account's: another account's passkey is never touched."""
    if not client.srem(creds_key(account_id), credential_id):
        return False
    client.delete(cred_key(credential_id))
    return True


def bump_generation(client: redis.Redis[str], account_id: str) -> int:
    """Sign out everywhere: sessions carrying an older generation are no longer signed in."""
    return int(client.hincrby(account_key(account_id), "generation", 1))


def attach(client: redis.Redis[str], account_id: str, player: str) -> bool:
    """Attach an anonymous player id (a device's history) to the account; False if the id
    already belongs to an account (its own or another's)."""
    if not client.set(player_link_key(player), account_id, nx=True):
        return False
    client.sadd(players_key(account_id), player)
    return True


def delete(client: redis.Redis[str], account_id: str) -> list[str]:
    """Delete the account: passkeys and links go, the account hash stays as a tombstone
    (``deleted``) so its scores read as "gelöscht". Returns its player ids (the caller renames
    them on the boards)."""
    ids = players(client, account_id)
    cred_ids = sorted(client.smembers(creds_key(account_id)))
    for cred in cred_ids:  # first: no passkey signs in to the account any more
        client.delete(cred_key(cred))
    pipe = client.pipeline(transaction=True)  # the account's own keys: one slot
    pipe.hset(account_key(account_id), mapping={"deleted": 1, "name": DELETED_NAME})
    pipe.hincrby(account_key(account_id), "generation", 1)
    pipe.delete(creds_key(account_id))
    pipe.delete(settings_key(account_id))
    pipe.execute()
    client.zrem(ACCOUNTS_BY_TIME, account_id)
    return ids


def settings_of(client: redis.Redis[str], account_id: str) -> dict[str, str]:
    """The account's page settings as stored (a field never chosen is absent)."""
    return dict(client.hgetall(settings_key(account_id)))


def save_settings(
    client: redis.Redis[str], account_id: str, changes: dict[str, str | None]
) -> None:
    """Set the given fields of the account's page settings (None forgets one), in one
    transaction on the account's slot."""
    pipe = client.pipeline(transaction=True)
    kept: dict[str | bytes, str] = {n: value for n, value in changes.items() if value is not None}
    if kept:
        pipe.hset(settings_key(account_id), mapping=kept)
    gone = [name for name, value in changes.items() if value is None]
    if gone:
        pipe.hdel(settings_key(account_id), *gone)
    pipe.execute()


def new_challenge(client: redis.Redis[str], value: bytes, context: str) -> str:
    """Store a WebAuthn challenge (single use, expiring) with its ``context`` (what answering it
    does, e.g. a JSON list ``["signup", account id, name]``); returns its handle."""
    handle = secrets.token_urlsafe(16)
    client.set(challenge_key(handle), f"{value.hex()}|{context}", ex=CHALLENGE_SECONDS)
    return handle


def take_challenge(client: redis.Redis[str], handle: str) -> tuple[bytes, str] | None:
    """The challenge under ``handle`` and its context, consumed (GETDEL): a replayed or expired
    handle gives None."""
    stored = client.getdel(challenge_key(handle))
    if stored is None:
        return None
    value, _, context = stored.partition("|")
    return bytes.fromhex(value), context


def erase_names(
    client: redis.Redis[str],
    rankings: redis.Redis[str],
    player_ids: list[str],
    archive: Archive | None = None,
    account_id: str | None = None,
    on_wait: Callable[[], None] | None = None,
    wait_s: float = RENAME_WAIT_S,
) -> int:
    """Show the players' names as "gelöscht" everywhere: on every day's board and the
    all-time one, in their attempts, and in the archive files already written (rewritten, see
    service.dailies.archive); drop their cached replay documents. Scores stay. Returns attempts
    renamed. ``client`` holds the game state, ``rankings`` the boards (never one operation on
    both). The attempts are found through the days' slots (days not archived yet) and the
    players' archive index (days archived, whose slots expire): deleting an account is rare.
    With ``account_id``, the account's owner name (league boards) is renamed too. Each file is
    rewritten under its lock, after the attempts were renamed (``on_wait``: service.dailies.archive
    .file_lock); a file busy for longer than ``wait_s`` is left to the next ``pikdame archive``
    (archive.rename_later)."""
    renamed = 0
    files: dict[str, set[str]] = {}
    for player in player_ids:
        # attempt id -> (date, game): the archived ones from the player's index (file names),
        # the others from each daily game's days not archived yet
        found = {
            attempt_id: parse_file_name(name)
            for attempt_id, name in client.hgetall(keys.player_attempts(player)).items()
        }
        for game in games.DAILY_GAMES:  # every daily game's boards
            dates = client.zrange(keys.days_index(game), 0, -1)
            pipe = client.pipeline(transaction=False)
            for date in dates:
                pipe.get(keys.player_day(date, player, game))
            for date, attempt_id in zip(dates, pipe.execute(), strict=True):
                if attempt_id is not None:
                    found[attempt_id] = (date, game)
        for attempt_id, (date, game) in sorted(found.items()):
            if client.exists(keys.attempt(attempt_id)):  # (an expired one is not made again)
                client.hset(keys.attempt(attempt_id), "name", DELETED_NAME)
            client.delete(keys.replay(attempt_id))
            if rankings.hexists(keys.day_names(date, game), attempt_id):
                rankings.hset(keys.day_names(date, game), attempt_id, DELETED_NAME)
            # the day's file, archived already or being archived now (its lock orders the two)
            archived_in = client.hget(keys.ARCHIVED, attempt_id) or file_name(date, game)
            files.setdefault(archived_in, set()).add(attempt_id)
            renamed += 1
        for game in games.DAILY_GAMES:
            if rankings.exists(keys.player(player, game)):
                rankings.hset(keys.player(player, game), "name", DELETED_NAME)
    owner = None if account_id is None else keys.owner(f"a:{account_id}")
    if owner is not None and rankings.hexists(owner, "name"):  # leagues' boards
        rankings.hset(owner, "name", DELETED_NAME)
    if archive is not None:
        for name, ids in sorted(files.items()):
            try:
                rename(archive, name, ids, DELETED_NAME, client, on_wait, wait_s)
            except ArchiveBusy:  # the next ``pikdame archive`` renames them (its lock first)
                rename_later(client, name, ids, DELETED_NAME)
    return renamed


def created_between(client: redis.Redis[str], start_ms: int, end_ms: int) -> list[tuple[str, int]]:
    """Accounts created in [start_ms, end_ms] with their creation time (pikdame suspicious)."""
    rows = client.zrangebyscore(ACCOUNTS_BY_TIME, start_ms, end_ms, withscores=True)
    return [(m, int(s)) for m, s in rows]


def note_account(client: redis.Redis[str], account_id: str, address: str) -> None:
    """Remember the address an account was created from (pikdame suspicious: many accounts
    from one address)."""
    client.hset(account_key(account_id), "address", address)
