"""Retention and the archive of closed days.

Once a day has closed and every finished ranked attempt of it has its verdict, its records are
written to the archive, one compressed JSON-lines file per day (``YYYY-MM-DD.jsonl.gz``); each
line is ``{"attempt_id", "date", "name", "verification", "score", "turns", "reason", "record"}``
with ``record`` the game record (F6) including the day's published seed. A deleted account's name
is rewritten in the files already written (:func:`rename`: its name disappears from
every board, the archive included; the files are rewritten rather than names resolved at read
time, so a file copied or served as it is never names a deleted player). Both writers hold the
file's lock (:func:`file_lock`) around their read-modify-write. The day's attempt hashes
(the full hidden state, ~12.5 KB each), tokens and slots then expire after PIKDAME_KEEP_DAYS; the
ranking keys (a few bytes per attempt) stay, and replays are read from the archive.

Flask-free. :class:`Archive` is the storage interface: :class:`DirectoryArchive` writes files;
an S3-compatible store can implement the same three methods.

Each daily game has its own files: the first daily game's ``YYYY-MM-DD``, a marked one's
``<game>-YYYY-MM-DD`` (lines with ``"game": <game>`` and its own record, e.g. Gin's ``gin-log/1``);
the index ``pd:archived`` maps an attempt to its file's name.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import math
import os
import secrets
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import redis

from service import games
from service.common import clock, keys
from service.common.config import Settings
from service.dailies import store
from service.dailies.store import Attempt, Expiry
from service.errors import ArchiveBusy, DayNotClosed

DAY_S = 86400
LOCK_MS = 600_000  # an archive file's lock expires (a dead holder) after ten minutes
LOCK_WAIT_S = 120.0  # how long a writer waits for another's rewrite of the same file
LOCK_POLL_S = 0.05
# Release only the lock this holder took (its token): one that expired and was taken by another
# writer is left to that writer.
RELEASE_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@contextmanager
def file_lock(
    client: redis.Redis[str],
    file: str,
    wait_s: float = LOCK_WAIT_S,
    on_wait: Callable[[], None] | None = None,
) -> Iterator[None]:
    """Hold the lock of archive file ``file`` (a key on the state server with a random token and
    an expiry; released only by its holder): ``pikdame archive`` (:func:`archive_day`) and an
    account's deletion (:func:`rename`) each read, change and write a whole file, so without
    it one would overwrite the other's change. ``on_wait`` is called once if the lock is held by
    another writer (then we poll until it is free, at most ``wait_s``: else ArchiveBusy)."""
    key = keys.archive_lock(file)
    token = secrets.token_hex(16)
    deadline = time.monotonic() + wait_s
    waited = False
    while not client.set(key, token, nx=True, px=LOCK_MS):
        if not waited and on_wait is not None:
            on_wait()
        waited = True
        if time.monotonic() >= deadline:
            raise ArchiveBusy(f"the archive file {file} is being rewritten; try again")
        time.sleep(LOCK_POLL_S)
    try:
        yield
    finally:
        client.eval(RELEASE_LUA, 1, key, token)  # type: ignore[no-untyped-call]


class Archive(Protocol):
    """Where archived days live (a directory; an S3-compatible bucket would do the same)."""

    def write(self, date: str, data: bytes) -> None: ...

    def read(self, date: str) -> bytes | None: ...

    def has(self, date: str) -> bool: ...


@dataclass(frozen=True)
class DirectoryArchive:
    """``<root>/YYYY-MM-DD.jsonl.gz``, each written whole (temporary file, then rename)."""

    root: Path

    def path(self, date: str) -> Path:
        return self.root / f"{date}.jsonl.gz"

    def write(self, date: str, data: bytes) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=f".{date}.")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path(date))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def read(self, date: str) -> bytes | None:
        try:
            return self.path(date).read_bytes()
        except FileNotFoundError:
            return None

    def has(self, date: str) -> bool:
        return self.path(date).exists()


def from_settings(settings: Settings) -> Archive:
    return DirectoryArchive(settings.archive_dir)


def file_name(date: str, game: str = games.DEFAULT) -> str:
    """A day's archive file name (without the extension): per daily game."""
    return f"{game}-{date}" if games.get(game).marked else date


def parse_file_name(name: str) -> tuple[str, str]:
    """The (date, game) of a day's archive file name (``file_name``'s inverse)."""
    if name[:1].isdigit():
        return name, games.DEFAULT
    game, _, date = name.partition("-")
    return date, game


def archived_days(game: str = games.DEFAULT) -> str:
    """The zset of a daily game's archived days (the first daily game's keeps its name)."""
    return f"{keys.ARCHIVED_DAYS}:{game}" if games.get(game).marked else keys.ARCHIVED_DAYS


def day_attempt_ids(client: redis.Redis[str], date: str, game: str = games.DEFAULT) -> list[str]:
    """The ranked attempts of a day: their index set, or (days stored before it existed) the
    players' slots."""
    ids = set(client.smembers(keys.day_ids(date, game)))
    if not ids:
        slots = list(client.scan_iter(match=keys.player_day(date, "*", game), count=1000))
        ids = {str(v) for v in client.mget(slots) if v is not None} if slots else set()
    return sorted(ids)


def entry(attempt: Attempt, seed: bytes) -> dict[str, Any]:
    """One archive line: the attempt's public facts and its record with the seed (F6; a marked
    daily game's own record, e.g. Gin's ``gin-log/1``, the line naming its ``game``)."""
    daily = attempt.daily
    return {
        "attempt_id": attempt.id,
        "date": attempt.date,
        **({"game": daily.name} if daily.marked else {}),
        "name": attempt.name,
        "verification": attempt.verification,
        "score": attempt.score if attempt.verification == "verified" else None,
        "turns": attempt.turns if attempt.verification == "verified" else None,
        "reason": attempt.reason,
        "record": daily.daily_record(attempt.played, seed),
    }


def expiry_for(date: str, ranked: bool, settings: Settings) -> Expiry:
    """A ranked attempt's token lasts until a day after its day closed (the owner may read the
    verdict; afterwards the finished attempt is public); the attempt waits for the archive.
    A practice attempt (unranked, never archived) and its token last PIKDAME_KEEP_DAYS. Both are
    durations from the app's clock (store.Expiry), at least a second."""
    if not ranked:
        keep = settings.keep_days * DAY_S
        return Expiry(keep, keep)
    until = clock.closes_at(date, settings) + dt.timedelta(seconds=DAY_S)
    return Expiry(max(1, math.ceil((until - clock.now(settings)).total_seconds())), None)


def archive_day(
    client: redis.Redis[str],
    archive: Archive,
    date: str,
    settings: Settings,
    game: str = games.DEFAULT,
    on_wait: Callable[[], None] | None = None,
) -> int:
    """Archive the day's finished ranked records of ``game``, then let the day's attempts
    expire; returns how many records the day's file holds. Running it again keeps what was
    archived before. Under the file's lock (``on_wait``: :func:`file_lock`)."""
    if not clock.is_closed(date, settings):
        raise DayNotClosed(f"{date} has not closed yet")
    with file_lock(
        client, file_name(date, game), on_wait=on_wait
    ):  # against a deletion's rename of the file
        return _archive_day(client, archive, date, settings, game)


def _archive_day(
    client: redis.Redis[str], archive: Archive, date: str, settings: Settings, game: str
) -> int:
    """:func:`archive_day` holding the file's lock: the attempts are read under it, so a
    deletion's renamed names are either read here or rewritten in the file after."""
    seed = games.daily(game).seed(settings.secret, date)
    name = file_name(date, game)
    ids = day_attempt_ids(client, date, game)
    attempts = [a for a in map(lambda i: store.load(client, i), ids) if a]
    finished = [a for a in attempts if a.status == "finished"]
    if any(a.verification == "queued" for a in finished):
        raise DayNotClosed(f"{date} still has attempts waiting for their verdict")
    # Merged with what an earlier run wrote: the attempts it archived may have expired since.
    previous = archive.read(name)
    entries = {e["attempt_id"]: e for e in (read_lines(previous) if previous else [])}
    entries |= {a.id: entry(a, seed) for a in finished}
    lines = b"".join(
        json.dumps(entries[i], separators=(",", ":")).encode() + b"\n" for i in sorted(entries)
    )
    archive.write(name, gzip.compress(lines, mtime=0))
    keep_s = settings.keep_days * DAY_S
    with client.pipeline(transaction=False) as pipe:
        for a in finished:
            pipe.hset(keys.ARCHIVED, a.id, name)
            # the player's index, before the day's slots expire (a deleted account's names)
            pipe.hset(keys.player_attempts(a.player), a.id, name)
        pipe.zadd(archived_days(game), {date: clock.opens_at(date).toordinal()})
        for a in attempts:
            pipe.expire(keys.attempt(a.id), keep_s)
            pipe.expire(keys.token(a.token_hash), keep_s)
            pipe.expire(keys.player_day(date, a.player, game), keep_s)
        for key in (keys.day_ids(date, game), keys.day_skeletons(date, game)):
            pipe.expire(key, keep_s)
        pipe.execute()
    return len(entries)


def archive_closed_days(
    client: redis.Redis[str], archive: Archive, settings: Settings
) -> dict[str, int | str]:
    """Archive every closed day that has attempts and is not archived yet, of every daily game:
    its file name (Pik Dame's: the date) -> records written, or why not yet."""
    done: dict[str, int | str] = {}
    apply_renames(client, archive)  # a deletion's renames left while a file was busy
    for game in games.DAILY_GAMES:
        archived = set(client.zrange(archived_days(game), 0, -1))
        for date in client.zrange(keys.days_index(game), 0, -1):
            if date in archived or not clock.is_closed(date, settings):
                continue
            try:
                done[file_name(date, game)] = archive_day(client, archive, date, settings, game)
            except (DayNotClosed, ArchiveBusy) as e:  # the next run archives it
                done[file_name(date, game)] = str(e)
    return done


def sweep(client: redis.Redis[str], settings: Settings) -> int:
    """Give an expiry to what was stored before retention existed or slipped past it: an
    attempt of an archived day, a practice attempt of a closed day (with their tokens), and
    delete a token whose attempt is gone. Returns how many keys it touched. (A scan of the
    attempt and token keys: run by the hourly ``pikdame archive``, not by requests.)"""
    keep_s = settings.keep_days * DAY_S
    archived = {g: set(client.zrange(archived_days(g), 0, -1)) for g in games.DAILY_GAMES}
    touched = 0
    for key in client.scan_iter(match=keys.attempt("*"), count=1000):
        if client.ttl(key) != -1:
            continue
        date, ranked, token, kind = client.hmget(key, ["date", "ranked", "token", "kind"])
        if date is None:
            continue
        done = date in archived.get(kind or games.DEFAULT, set())
        if done or (ranked != "1" and clock.is_closed(date, settings)):
            client.expire(key, keep_s)
            if token:
                client.expire(keys.token(token), keep_s)
            touched += 1
    for key in client.scan_iter(match=keys.token("*"), count=1000):
        attempt_id = client.get(key)
        if attempt_id is None or client.ttl(key) != -1:
            continue
        if not client.exists(keys.attempt(attempt_id)):
            client.delete(key)
            touched += 1
    return touched


def archived_entry(
    client: redis.Redis[str], archive: Archive, attempt_id: str
) -> dict[str, Any] | None:
    """An archived attempt's line, found through the archive index, or None."""
    date = client.hget(keys.ARCHIVED, attempt_id)
    data = None if date is None else archive.read(date)
    if data is None:
        return None
    for item in read_lines(data):
        if item["attempt_id"] == attempt_id:
            return item
    return None


def rename_later(client: redis.Redis[str], file: str, attempt_ids: set[str], name: str) -> None:
    """Leave a rename for the next ``pikdame archive`` (:func:`apply_renames`): the file was
    being rewritten for longer than a web request waits."""
    client.hset(keys.ARCHIVE_RENAMES, mapping={f"{file}|{i}": name for i in sorted(attempt_ids)})


def apply_renames(client: redis.Redis[str], archive: Archive) -> int:
    """Carry out the renames left by :func:`rename_later`, each file under its lock; returns
    the lines changed."""
    pending: dict[tuple[str, str], set[str]] = {}
    fields = client.hgetall(keys.ARCHIVE_RENAMES)
    for field_name, name in sorted(fields.items()):
        file, _, attempt_id = field_name.partition("|")
        pending.setdefault((file, name), set()).add(attempt_id)
    changed = 0
    for (file, name), ids in sorted(pending.items()):
        changed += rename(archive, file, ids, name, client)
        client.hdel(keys.ARCHIVE_RENAMES, *(f"{file}|{i}" for i in sorted(ids)))
    return changed


def rename(
    archive: Archive,
    file: str,
    attempt_ids: set[str],
    name: str,
    client: redis.Redis[str] | None = None,
    on_wait: Callable[[], None] | None = None,
    wait_s: float = LOCK_WAIT_S,
) -> int:
    """Rewrite the day's file ``file`` (``file_name``) with ``name`` for the attempts
    ``attempt_ids`` (the line's name and the human seat's in its record, F6); returns the lines
    changed. The rest is kept byte for byte in order, so a second run changes nothing. With
    ``client`` (the state server) under the file's lock (:func:`file_lock`), so a concurrent
    ``pikdame archive`` of the day keeps the new names."""
    if client is None:
        return _rename(archive, file, attempt_ids, name)
    with file_lock(client, file, wait_s, on_wait):
        return _rename(archive, file, attempt_ids, name)


def _rename(archive: Archive, file: str, attempt_ids: set[str], name: str) -> int:
    data = archive.read(file)
    if data is None:
        return 0
    changed = 0
    lines = []
    for item in read_lines(data):
        if item["attempt_id"] in attempt_ids and item["name"] != name:
            item["name"] = name
            for seat in item["record"].get("seats", []):
                if seat.get("kind") == "human":
                    seat["name"] = name
            changed += 1
        lines.append(json.dumps(item, separators=(",", ":")).encode() + b"\n")
    if changed:
        archive.write(file, gzip.compress(b"".join(lines), mtime=0))
    return changed


def read_lines(data: bytes) -> Iterator[dict[str, Any]]:
    for line in gzip.decompress(data).splitlines():
        if line.strip():
            yield json.loads(line)
