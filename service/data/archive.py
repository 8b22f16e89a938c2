"""Retention and the archive of closed days (issue 10.10).

Once a day has closed and every finished ranked attempt of it has its verdict, its records are
written to the archive, one compressed JSON-lines file per day (``YYYY-MM-DD.jsonl.gz``); each
line is ``{"attempt_id", "date", "name", "verification", "score", "turns", "reason", "record"}``
with ``record`` the game record (F6) including the day's published seed. A deleted account's name
is rewritten in the files already written (:func:`rename`, issue 13: its name disappears from
every board, the archive included; the files are rewritten rather than names resolved at read
time, so a file copied or served as it is never names a deleted player). The day's attempt hashes
(the full hidden state, ~12.5 KB each), tokens and slots then expire after PIKDAME_KEEP_DAYS; the
ranking keys (a few bytes per attempt) stay, and replays are read from the archive.

Flask-free. :class:`Archive` is the storage interface: :class:`DirectoryArchive` writes files;
an S3-compatible store can implement the same three methods.

Each daily game has its own files (issue 14): Pik Dame's ``YYYY-MM-DD``, Gin's ``gin-YYYY-MM-DD``
(lines with ``"game": "gin"`` and a ``gin-log/1`` record); the index ``pd:archived`` maps an
attempt to its file's name.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import redis

from service.data import clock, dailies, keys, store
from service.data.config import Settings
from service.data.store import Attempt, Expiry

DAY_S = 86400


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


def file_name(date: str, game: str = dailies.PIKDAME) -> str:
    """A day's archive file name (without the extension): per daily game."""
    return date if game == dailies.PIKDAME else f"{game}-{date}"


def parse_file_name(name: str) -> tuple[str, str]:
    """The (date, game) of a day's archive file name (``file_name``'s inverse)."""
    if name[:1].isdigit():
        return name, dailies.PIKDAME
    game, _, date = name.partition("-")
    return date, game


def archived_days(game: str = dailies.PIKDAME) -> str:
    """The zset of a daily game's archived days (Pik Dame's keeps its name)."""
    return keys.ARCHIVED_DAYS if game == dailies.PIKDAME else f"{keys.ARCHIVED_DAYS}:{game}"


def day_attempt_ids(client: redis.Redis[str], date: str, game: str = dailies.PIKDAME) -> list[str]:
    """The ranked attempts of a day: their index set, or (days stored before it existed) the
    players' slots."""
    ids = set(client.smembers(keys.day_ids(date, game)))
    if not ids:
        slots = list(client.scan_iter(match=keys.player_day(date, "*", game), count=1000))
        ids = {str(v) for v in client.mget(slots) if v is not None} if slots else set()
    return sorted(ids)


def entry(attempt: Attempt, seed: bytes) -> dict[str, Any]:
    """One archive line: the attempt's public facts and its record with the seed (F6; a Gin
    attempt's ``gin-log/1``, the line marked ``"game": "gin"``)."""
    if attempt.kind == dailies.GIN:
        return {
            "attempt_id": attempt.id,
            "date": attempt.date,
            "game": dailies.GIN,
            "name": attempt.name,
            "verification": attempt.verification,
            "score": attempt.score if attempt.verification == "verified" else None,
            "turns": attempt.turns if attempt.verification == "verified" else None,
            "reason": attempt.reason,
            "record": attempt.match.to_record(reveal_seed=True),
        }
    return {
        "attempt_id": attempt.id,
        "date": attempt.date,
        "name": attempt.name,
        "verification": attempt.verification,
        "score": attempt.score if attempt.verification == "verified" else None,
        "turns": attempt.turns if attempt.verification == "verified" else None,
        "reason": attempt.reason,
        "record": attempt.game.to_record(seed),
    }


def expiry_for(date: str, ranked: bool, settings: Settings) -> Expiry:
    """A ranked attempt's token lasts until a day after its day closed (the owner may read the
    verdict; afterwards the finished attempt is public); the attempt waits for the archive.
    A practice attempt (unranked, never archived) and its token last PIKDAME_KEEP_DAYS."""
    now = int(clock.now(settings).timestamp())
    if not ranked:
        until = now + settings.keep_days * DAY_S
        return Expiry(until, until)
    return Expiry(int(clock.closes_at(date, settings).timestamp()) + DAY_S, None)


class NotReady(Exception):
    """The day cannot be archived yet: it is open, or verdicts are still due."""


def archive_day(
    client: redis.Redis[str],
    archive: Archive,
    date: str,
    settings: Settings,
    game: str = dailies.PIKDAME,
) -> int:
    """Archive the day's finished ranked records of ``game``, then let the day's attempts
    expire; returns how many records the day's file holds. Running it again keeps what was
    archived before."""
    if not clock.is_closed(date, settings):
        raise NotReady(f"{date} has not closed yet")
    seed = dailies.of(game).seed(settings.secret, date)
    name = file_name(date, game)
    ids = day_attempt_ids(client, date, game)
    attempts = [a for a in map(lambda i: store.load(client, i), ids) if a]
    finished = [a for a in attempts if a.status == "finished"]
    if any(a.verification == "queued" for a in finished):
        raise NotReady(f"{date} still has attempts waiting for their verdict")
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
    for game in dailies.NAMES:
        archived = set(client.zrange(archived_days(game), 0, -1))
        for date in client.zrange(keys.days_index(game), 0, -1):
            if date in archived or not clock.is_closed(date, settings):
                continue
            try:
                done[file_name(date, game)] = archive_day(client, archive, date, settings, game)
            except NotReady as e:
                done[file_name(date, game)] = str(e)
    return done


def sweep(client: redis.Redis[str], settings: Settings) -> int:
    """Give an expiry to what was stored before retention existed or slipped past it: an
    attempt of an archived day, a practice attempt of a closed day (with their tokens), and
    delete a token whose attempt is gone. Returns how many keys it touched. (A scan of the
    attempt and token keys: run by the hourly ``pikdame archive``, not by requests.)"""
    keep_s = settings.keep_days * DAY_S
    archived = {g: set(client.zrange(archived_days(g), 0, -1)) for g in dailies.NAMES}
    touched = 0
    for key in client.scan_iter(match=keys.attempt("*"), count=1000):
        if client.ttl(key) != -1:
            continue
        date, ranked, token, kind = client.hmget(key, ["date", "ranked", "token", "kind"])
        if date is None:
            continue
        done = date in archived.get(kind or dailies.PIKDAME, set())
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


def rename(archive: Archive, file: str, attempt_ids: set[str], name: str) -> int:
    """Rewrite the day's file ``file`` (``file_name``) with ``name`` for the attempts
    ``attempt_ids`` (the line's name and the human seat's in its record, F6); returns the lines
    changed. The rest is kept byte for
    byte in order, so a second run changes nothing."""
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
