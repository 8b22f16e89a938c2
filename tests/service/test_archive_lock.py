"""The archive's files are rewritten by two writers: ``pikdame archive`` (archive_day) and an
account's deletion (archive.rename: its name disappears from every board, the archive
included). Each holds the file's lock (a token key with expiry on the state server) around its
read-modify-write, so neither loses the other's change. Interleaved by hand: the deletion runs
while the archive is between reading and writing the file."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
from flask import Flask

from service.accounts import store as accounts
from service.common import keys
from service.dailies import archive
from service.errors import ArchiveBusy
from service.web.redisconn import settings_of
from tests.support.accounts import ORIGIN, sign_up
from tests.support.api import resign_at_once
from tests.support.authenticator import Authenticator
from tests.support.service_app import SECRET, Clock, make_app
from worker.verify import verify


@dataclass(frozen=True)
class PausingArchive(archive.DirectoryArchive):
    """A real directory archive that runs ``during`` once, inside the first read of a file: the
    moment a writer has read what it will change and not written yet."""

    during: list[Callable[[], None]] = field(default_factory=list)

    def read(self, date: str) -> bytes | None:
        data = super().read(date)
        while self.during:
            self.during.pop()()
        return data


def _lines(store: archive.Archive, name: str) -> dict[str, dict[str, object]]:
    data = gzip.decompress(store.read(name) or b"")
    return {e["attempt_id"]: e for e in map(json.loads, data.splitlines())}


@pytest.fixture
def day(
    redis_url: str, rdb: redis.Redis[str], rankings: redis.Redis[str], clock: Clock, tmp_path: Path
) -> tuple[Flask, list[str], str]:
    """A closed day with Adelheid's and Bob's verified attempts, each under an account."""
    app = make_app(redis_url, clock, PIKDAME_ARCHIVE_DIR=str(tmp_path / "archive"))
    ada, bob = app.test_client(), app.test_client()
    sign_up(ada, Authenticator(ORIGIN), "Adelheid")
    sign_up(bob, Authenticator(ORIGIN), "Bob")
    ids = [resign_at_once(c, clock.today, n)[0] for c, n in ((ada, "Adelheid"), (bob, "Bob"))]
    assert [verify(rdb, a, SECRET, rankings)["status"] for a in ids] == ["verified"] * 2
    date = clock.today
    clock.moment = dt.datetime(2026, 12, 1, 3, 0, tzinfo=dt.UTC)  # closed (24:00 + grace)
    return app, ids, date


def _delete_in_thread(
    rdb: redis.Redis[str], rankings: redis.Redis[str], store: archive.Archive, player: str
) -> tuple[threading.Thread, threading.Event]:
    """Delete Adelheid's names (as the account's deletion does) in another thread; the event is
    set when it waits for the file's lock or has finished, whichever comes first."""
    progress = threading.Event()

    def erase() -> None:
        try:
            accounts.erase_names(rdb, rankings, [player], store, on_wait=progress.set)
        finally:
            progress.set()

    return threading.Thread(target=erase), progress


@pytest.mark.parametrize("first_run", [True, False])
def test_a_deletion_during_the_archive_run_keeps_both_changes(
    day: tuple[Flask, list[str], str],
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    tmp_path: Path,
    first_run: bool,
) -> None:
    """With the archive (``pikdame archive`` of a day, first or again): the account is
    deleted after the archive read the day and before it wrote the file. The file holds every
    attempt and the deleted name is gone from it."""
    app, ids, date = day
    store = PausingArchive(tmp_path / "archive")
    if first_run is False:
        archive.archive_day(rdb, store, date, settings_of(app))
    player = rdb.hget(keys.attempt(ids[0]), "player") or ""
    thread, progress = _delete_in_thread(rdb, rankings, store, player)

    def delete_now() -> None:
        thread.start()
        assert progress.wait(60)  # the deletion waits for the lock (or, unlocked, is done)

    store.during.append(delete_now)
    assert archive.archive_day(rdb, store, date, settings_of(app)) == 2
    thread.join(60)
    assert not thread.is_alive()
    lines = _lines(store, date)
    assert sorted(lines) == sorted(ids)
    assert lines[ids[0]]["name"] == accounts.DELETED_NAME
    assert lines[ids[1]]["name"] == "Bob"
    assert not rdb.exists(keys.archive_lock(date))  # released


def test_the_lock_is_released_only_by_its_holder(rdb: redis.Redis[str]) -> None:
    """A lock that expired and was taken by another writer is not released by the first."""
    with archive.file_lock(rdb, "2026-11-30"):
        rdb.set(keys.archive_lock("2026-11-30"), "another writer's token")
    assert rdb.get(keys.archive_lock("2026-11-30")) == "another writer's token"
    with pytest.raises(ArchiveBusy), archive.file_lock(rdb, "2026-11-30", wait_s=0):
        pass


def test_a_deletion_finding_the_file_busy_leaves_the_rename_to_the_next_archive_run(
    day: tuple[Flask, list[str], str],
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    tmp_path: Path,
) -> None:
    """A web request does not wait minutes for an archive run: a deletion that finds the file
    locked past its wait leaves the rename, and the next ``pikdame archive`` carries it out."""
    app, ids, date = day
    store = archive.DirectoryArchive(tmp_path / "archive")
    archive.archive_day(rdb, store, date, settings_of(app))
    player = rdb.hget(keys.attempt(ids[0]), "player") or ""
    rdb.set(keys.archive_lock(date), "a long archive run's token")
    accounts.erase_names(rdb, rankings, [player], store, wait_s=0)
    assert _lines(store, date)[ids[0]]["name"] == "Adelheid"  # not yet: the file was busy
    rdb.delete(keys.archive_lock(date))  # that run ended
    archive.archive_closed_days(rdb, store, settings_of(app))
    lines = _lines(store, date)
    assert lines[ids[0]]["name"] == accounts.DELETED_NAME and lines[ids[1]]["name"] == "Bob"
    assert not rdb.exists(keys.ARCHIVE_RENAMES)
