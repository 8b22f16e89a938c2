"""Published reads: the reset hour's hottest public reads, written as files that nginx serves.

At the reset hour every player opens today's challenge and today's board. nginx's micro-cache
answers them a second at a time, yet a hit costs nginx a good fifth more than a static file: it
reads the app's headers back from its cache file, hashes the key and looks it up
(bench/results/front.md). The publisher, ``python -m service.publish`` (one on every
nginx host, deploy/systemd/pikdame-publish.service), asks the app for these reads once a second,
as an anonymous client, and writes the answers, the app's very bytes, plain and gzipped, into a
directory for the next second; nginx answers such a read with the current second's file and
passes it on to the app and its micro-cache when there is none (deploy/nginx/published.conf).

The reads are today's challenge and the first page of today's board, for every daily game, and
the standings of this week's and last week's tournament for every game that offers one
(docs/EVENTS.md), each as the site's pages ask it (templates/static/js/lib/api.js, rankings.js:
the same path, the same arguments in the same order), since nginx matches the request exactly.
nginx finds a read's file as a static file under a root made of the second, a tag its maps give
the request's arguments (deploy/nginx/http.conf's ``$pikdame_published_*``: ``default`` for the
unmarked daily, API v1's own, ``game-<name>`` for another) and ``gzip`` when the client accepts it
(``$pikdame_gzip``); the file's path is the request's: ``<second>/default/api/daily``,
``<second>/game-gin/api/leaderboard/<date>``, ``<second>/defaultgzip/api/daily``.

Each second's files live in ``<root>/<second>/`` (``<second>`` as nginx's ``$time_iso8601``
spells it: local time, its zone's offset with a colon), written whole under a hidden name and
renamed into place, so nginx sees a second's directory complete or not at all. nginx reads only
the current second's directory, so an answer is served at most two seconds after the app gave
it, as the micro-cache's ``max-age=1, stale-while-revalidate=1`` allows; a publisher that stops
or falls behind leaves nothing that nginx would still serve.

What is published is what the app answers an anonymous GET: a 200 whose Cache-Control is exactly
:data:`CACHE_CONTROL` (published.conf sends the same words with the file) and that sets no
cookie. A read the app computes at most every so often (an event's standings: O(entrants), kept
in Redis and recomputed once older than ``service.events.api_events.FRESH_S``) is a *kept* read:
asked every :data:`STANDINGS_S` seconds by :meth:`Publisher.refresh`, in a process of its own
(at 100,000 entrants an ask holds the interpreter for seconds: on a thread it made the
second's turns late, bench/results/event_front.md), all of them into one version directory
``<root>/.kept/<ms>`` (named for when they were asked, renamed into place once whole), whose
files every turn hard-links into its second's directory (no copy per second) while the version
is at most :data:`KEPT_MAX_S` old. nginx still reads them from the current second's directory
only, so a stopped publisher, or a stopped refresher, leaves nothing of them to serve either.
Near a day's end or close (:func:`service.web.caching.until_change`) nothing is
published: the last files would otherwise reach past the change, in nginx or in a browser's
cache, and the app's micro-cache answers with lifetimes cut to the change instead.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gzip
import logging
import math
import multiprocessing
import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final, Protocol

import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from engine.core.events import week_of
from service.common import clock, metrics
from service.games import DAILY_GAMES, MARKED_DAILY_GAMES, offering
from service.games.adapter import EVENT
from service.web import caching
from service.web.redisconn import settings_of

log = logging.getLogger(__name__)

# deploy/nginx/published.conf's Cache-Control, word for word: the app's for these reads
CACHE_CONTROL: Final = f"public, max-age=1, stale-while-revalidate={caching.STALE_S}"
# How long a browser may keep a published answer after nginx sent it (max-age plus
# stale-while-revalidate): no file is served where that would reach past a day's change.
BROWSER_HOLD_S: Final = 2
BOARD_PAGE: Final = 20  # rankings.js's LIMIT: the board's first page as the rankings page asks
#: lib/api.js's STANDINGS_WINDOW: an event's first window of the standings as its pages ask it
STANDINGS_WINDOW: Final = 100
AT: Final = 0.5  # a second's directory is written half a second before the second begins
MODE_DIR: Final = 0o755  # nginx's workers (another user) read them
MODE_FILE: Final = 0o644
# How often a kept read (an event's standings) is asked anew: with the app's FRESH_S (the age at
# which it recomputes them) and a second's hold in nginx and BROWSER_HOLD_S in a browser, a
# published standings document is under a minute behind the last verification (issue 42;
# tests/service/test_event_published.py adds it up).
STANDINGS_S: Final = 15
# How old (since asked) a version of the kept reads may still be linked into a second: its next
# one is asked STANDINGS_S later and may take seconds to write (100,000 entrants).
KEPT_MAX_S: Final = 30
KEPT: Final = ".kept"  # the kept reads' files under the root: never a second's directory
NICE: Final = 10  # the refresher's niceness: the seconds' turns first


class Stop(Protocol):
    """A threading or multiprocessing event: what stops a loop."""

    def is_set(self) -> bool: ...

    def wait(self, timeout: float | None = None) -> bool: ...


@dataclass(frozen=True)
class Read:
    """A published read: the request the pages send, and where nginx looks for its files."""

    tag: str  # "default" (the unmarked daily), else "game-<name>": as nginx's maps name it
    path: str  # the request's path and query, as sent
    every: int = 1  # seconds between asks: 1, every turn; more for a kept read (STANDINGS_S)

    @property
    def plain(self) -> str:
        """The plain answer's file under its second's directory: the tag, then the path."""
        return f"{self.tag}/{self._file}"

    @property
    def gzipped(self) -> str:
        """The gzipped answer's file: under the tag and "gzip" ($pikdame_gzip's value)."""
        return f"{self.tag}gzip/{self._file}"

    @property
    def _file(self) -> str:
        """The request's path, its query left off, relative: what nginx appends to a root."""
        return self.path.partition("?")[0].lstrip("/")


def published_reads(today: str) -> tuple[Read, ...]:
    """Every published read on ``today`` (the app's day)."""
    reads: list[Read] = []
    for game in DAILY_GAMES:
        marked = game in MARKED_DAILY_GAMES
        tag = f"game-{game}" if marked else "default"
        asked = f"game={game}" if marked else ""
        reads.append(Read(tag, f"/api/daily?{asked}" if marked else "/api/daily"))
        board = f"/api/leaderboard/{today}?offset=0&limit={BOARD_PAGE}"
        reads.append(Read(tag, f"{board}&{asked}" if marked else board))
    return tuple(reads) + standings_reads(today)


def standings_reads(today: str) -> tuple[Read, ...]:
    """The kept reads on ``today``: the standings of this week's and last week's tournament of
    every daily game that offers one, whole (no arguments: nginx's
    ``$pikdame_published_standings`` names their directory ``default``) and their first window
    as the pages ask it (``offset=0&limit=STANDINGS_WINDOW``: ``window``), the whole first: it
    computes the document and its place index when due, the window then reads the index."""
    day = dt.date.fromisoformat(today)
    weeks = (week_of(day), week_of(day - dt.timedelta(days=7)))
    window = f"offset=0&limit={STANDINGS_WINDOW}"
    return tuple(
        read
        for game in offering(EVENT)
        if game in DAILY_GAMES
        for week in weeks
        for read in (
            Read("default", f"/api/events/{game}/{week}/standings", STANDINGS_S),
            Read("window", f"/api/events/{game}/{week}/standings?{window}", STANDINGS_S),
        )
    )


def second_name(second: int) -> str:
    """A second as nginx's ``$time_iso8601`` names it: ``2026-12-05T01:20:30+00:00``."""
    return dt.datetime.fromtimestamp(second).astimezone().isoformat(timespec="seconds")


@dataclass(frozen=True)
class Answer:
    """A read's published bytes: the app's plain answer, and its gzipped one when the app
    compresses it (nginx sends that one to whoever accepts gzip; else the app answers them)."""

    plain: bytes
    gzipped: bytes | None


class Skip(StrEnum):
    """Why a turn wrote no directory for its second."""

    CHANGE_NEAR = "a day's change is near"
    DONE = "published already"
    LATE = "too late for its second"


@dataclass(frozen=True)
class Published:
    """What one turn did: the second's directory it wrote, or None and why not."""

    second: int
    directory: Path | None
    reads: tuple[str, ...] = ()  # the requests it published
    skipped: Skip | None = None


def publishable(response: TestResponse) -> bool:
    """An answer a shared cache may give anyone, with the lifetime published.conf states."""
    return (
        response.status_code == 200
        and response.headers.get("Cache-Control") == CACHE_CONTROL
        and "Set-Cookie" not in response.headers
        and response.mimetype == "application/json"
    )


class Publisher:
    """Writes the published reads' answers under ``root``, one directory per second."""

    def __init__(self, app: Flask, root: Path, wall: Callable[[], float] = time.time) -> None:
        self.app = app
        self.root = root
        self.wall = wall  # the host's clock, as nginx reads it (the day: the app's clock)
        self.client = app.test_client(use_cookies=False)
        self.slow_client = app.test_client(use_cookies=False)  # the refresher's own
        self.started = wall()

    def answer(self, read: Read, client: FlaskClient | None = None) -> Answer | None:
        """The app's answers to ``read`` (None: not publishable now)."""
        client = client or self.client
        plain = client.get(read.path)
        if not publishable(plain):
            return None
        asked = client.get(read.path, headers={"Accept-Encoding": "gzip"})
        if asked.headers.get("Content-Encoding") != "gzip":
            return Answer(plain.get_data(), None)  # too short to gain: a gzip ask gets the app's
        if not publishable(asked) or gzip.decompress(asked.get_data()) != plain.get_data():
            return None  # changed between the two asks: the next turn publishes it
        return Answer(plain.get_data(), asked.get_data())

    def answer_once(self, read: Read, client: FlaskClient) -> Answer | None:
        """The app's answers to ``read`` from one ask, gzip accepted (a kept read: each ask
        writes the whole document): the plain answer is the gzipped one's bytes decompressed,
        what the app sends to a client that does not ask gzip (service.web.compression
        compresses exactly those bytes). None: not publishable now."""
        asked = client.get(read.path, headers={"Accept-Encoding": "gzip"})
        if not publishable(asked):
            return None
        if asked.headers.get("Content-Encoding") != "gzip":
            return Answer(asked.get_data(), None)
        return Answer(gzip.decompress(asked.get_data()), asked.get_data())

    def publish(self) -> Published:
        """The next second's directory, written whole; the seconds before the current one
        removed."""
        started = self.wall()
        second = math.floor(started) + 1
        with self.app.app_context():
            left = caching.until_change()
            today = clock.today(settings_of(self.app))
        # read until the second's end, then kept by browsers up to BROWSER_HOLD_S
        if left < second + 1 - started + BROWSER_HOLD_S:
            self.prune(second)
            return Published(second, None, skipped=Skip.CHANGE_NEAR)
        if (self.root / second_name(second)).exists():
            return Published(second, None, skipped=Skip.DONE)
        reads = published_reads(today)
        answers = {read: self.answer(read) for read in reads if read.every == 1}
        kept = self.kept_version(max_age=KEPT_MAX_S)
        if self.wall() >= second:
            return Published(second, None, skipped=Skip.LATE)
        found = {read: answer for read, answer in answers.items() if answer is not None}
        directory = self.write(second, found, kept)
        self.prune(second)
        if directory is None:
            return Published(second, None, skipped=Skip.DONE)
        done = [read.path for read in found]
        if kept is not None:
            done += [read.path for read in reads if (kept / read.plain).is_file()]
        return Published(second, directory, tuple(sorted(done)))

    def kept_version(self, max_age: float | None = None) -> Path | None:
        """The newest whole version of the kept reads (``<root>/.kept/<ms asked>``); with
        ``max_age``, None when it was asked longer ago than that."""
        versions = self.root / KEPT
        names = (
            [int(p.name) for p in versions.iterdir() if p.name.isdigit()]
            if versions.is_dir()
            else []
        )
        if not names:
            return None
        newest = max(names)
        if max_age is not None and self.wall() - newest / 1000 > max_age:
            return None
        return versions / str(newest)

    def kept_age(self) -> float:
        """Seconds since the newest version of the kept reads was asked, or since this
        publisher started when there is none: the refresher is a process of its own, so its
        health is read from what it wrote (the metric ``pikdame_publisher_kept_age_seconds``)."""
        newest = self.kept_version()
        since = self.started if newest is None else max(self.started, int(newest.name) / 1000)
        return max(0.0, self.wall() - since)

    def refresh(self) -> tuple[str, ...]:
        """Asks the kept reads when due (the newest version asked STANDINGS_S ago or more) and
        writes their answers into a new version directory, renamed into place once whole; the
        versions before the previous one removed (a turn may still link from it). The paths
        written."""
        newest = self.kept_version()
        asked = self.wall()
        if newest is not None and asked - int(newest.name) / 1000 < STANDINGS_S:
            return ()
        with self.app.app_context():
            today = clock.today(settings_of(self.app))
        versions = self.root / KEPT
        hidden = versions / f".{os.getpid()}"
        shutil.rmtree(hidden, ignore_errors=True)
        hidden.mkdir(parents=True)
        written = []
        for read in published_reads(today):
            if read.every == 1:
                continue
            answer = self.answer_once(read, self.slow_client)
            if answer is None:
                continue
            self._file(hidden / read.plain, answer.plain)
            if answer.gzipped is not None:
                self._file(hidden / read.gzipped, answer.gzipped)
            written.append(read.path)
        name = str(max(int(asked * 1000), int(newest.name) + 1 if newest is not None else 0))
        hidden.rename(versions / name)
        keep = {name, newest.name if newest is not None else ""}
        for entry in versions.iterdir():
            if entry.name not in keep and not entry.name.startswith("."):
                shutil.rmtree(entry, ignore_errors=True)
        return tuple(written)

    def write(
        self, second: int, answers: dict[Read, Answer], kept: Path | None = None
    ) -> Path | None:
        """``answers`` into the second's directory, every file of the ``kept`` reads' version
        hard-linked there, renamed into place once whole; None when another publisher wrote it
        meanwhile."""
        self.root.mkdir(parents=True, exist_ok=True)
        final = self.root / second_name(second)
        hidden = self.root / f".{final.name}.{os.getpid()}"
        shutil.rmtree(hidden, ignore_errors=True)
        hidden.mkdir()
        for read, answer in answers.items():
            self._file(hidden / read.plain, answer.plain)
            if answer.gzipped is not None:
                self._file(hidden / read.gzipped, answer.gzipped)
        files = [p for p in kept.rglob("*") if p.is_file()] if kept is not None else []
        for path in files:
            assert kept is not None
            # a version removed meanwhile (its refresher ran on): the next second links anew
            with contextlib.suppress(FileNotFoundError):
                self._link(path, hidden / path.relative_to(kept))
        for directory in [hidden, *(p for p in hidden.rglob("*") if p.is_dir())]:
            directory.chmod(MODE_DIR)  # whatever the umask: nginx's workers read them
        try:
            hidden.rename(final)
        except OSError:  # there already
            shutil.rmtree(hidden, ignore_errors=True)
            return None
        return final

    @staticmethod
    def _file(path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        path.chmod(MODE_FILE)

    @staticmethod
    def _link(source: Path, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.link(source, path)

    def prune(self, second: int) -> None:
        """Everything under the root but the current second's and ``second``'s directories
        (and this process's unfinished one): nginx reads no other."""
        if not self.root.exists():
            return
        keep = {second_name(second - 1), second_name(second), KEPT}
        mine = f".{os.getpid()}"
        for entry in self.root.iterdir():
            if entry.name not in keep and not entry.name.endswith(mine):
                shutil.rmtree(entry, ignore_errors=True)

    def refreshing(self, stop: Stop) -> None:
        """:meth:`refresh` every second until ``stop`` (run's process); a failure is logged and
        tried again: the kept files age out of nginx's reach meanwhile (no file, the app). At
        nice 10: a second's turn, due within the second, goes first."""
        os.nice(NICE)
        while not stop.is_set():
            try:
                self.refresh()
            except Exception:
                log.exception("refreshing the kept reads failed")
            stop.wait(1)

    def run(self, stop: threading.Event) -> None:
        """Publishes every second, :data:`AT` into it, until ``stop``; a failed turn (Redis
        away) is logged and the next one tried: nginx asks the app meanwhile. The kept reads
        are refreshed by a process of its own (forked: the same app), stopped with this one."""
        metrics.KEPT_AGE.set_function(self.kept_age)  # read at each scrape of this process
        context = multiprocessing.get_context("fork")
        stopped = context.Event()
        refresher = context.Process(target=self.refreshing, args=(stopped,), daemon=True)
        refresher.start()
        try:
            self._turns(stop)
        finally:
            stopped.set()
            refresher.join(timeout=30)
            if refresher.is_alive():
                refresher.terminate()

    def _turns(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                done = self.publish()
                if done.skipped not in (None, Skip.DONE):
                    log.info("second %s not published: %s", done.second, done.skipped.value)
                observe(done)
            except Exception as e:
                log.exception("publishing failed")
                metrics.PUBLISHER_TURNS.labels("failed").inc()
                if isinstance(e, redis.RedisError):
                    metrics.redis_error("publisher")
                    metrics.redis_retry("publisher")  # the next turn tries again
            now = self.wall()
            into = now % 1
            stop.wait(AT - into if into < AT else 1 + AT - into)


def observe(done: Published) -> None:
    """A turn's metrics: its outcome, and the second it wrote (an alert when it stops moving)."""
    if done.directory is not None:
        metrics.PUBLISHED_SECOND.set(done.second)
        metrics.PUBLISHER_TURNS.labels("published").inc()
    else:
        metrics.PUBLISHER_TURNS.labels(done.skipped.name.lower() if done.skipped else "none").inc()
