"""An event's standings through Debian's nginx with the shipped site, published like the daily
board (docs/EVENTS.md, "The standings through nginx"; issue 42: "the standings page answers
through nginx like the published daily board"): the publisher asks the app for this week's and
last week's standings every STANDINGS_S seconds (its kept reads), keeps the answer's files and
links them into every second's directory; nginx serves the current second's file as a static
file, the same JSON as the API's standings answer, and passes a player's own read (a cookie, a
token) to the app. No seed is in it before the close, and the final standings after it.

The app runs in this process on the tests' clock; nginx names its seconds on the host's clock,
so a read is retried if the second turned between publishing it and reading it: a condition,
not a time.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import shutil
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from engine.core.events import EVENT_DEALS, commitments, event_seeds
from service.events import deals, store, weeks
from service.events.api_events import FRESH_S, LIVE_S
from service.web.publishing import (
    BROWSER_HOLD_S,
    CACHE_CONTROL,
    KEPT,
    KEPT_MAX_S,
    STANDINGS_S,
    STANDINGS_WINDOW,
    Publisher,
    Skip,
    standings_reads,
)
from service.web.redisconn import settings_of
from tests.support.front import NGINX_DIR, ClockedSite, clocked_site, nginx_binary
from tests.support.http import Answer, fetch
from tests.support.servers import role_url
from tests.support.service_app import SECRET

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed"),
]
GZIP = {"Accept-Encoding": "gzip, deflate, br, zstd"}
GAME, WEEK = "pikdame", "2030-W01"  # the tests' clock: Tuesday 2030-01-01, in 2030-W01
PATH = f"/api/events/{GAME}/{WEEK}/standings"
WINDOW = f"{PATH}?offset=0&limit={STANDINGS_WINDOW}"  # the first window, as the pages ask it


@pytest.fixture(scope="module")
def site() -> Iterator[ClockedSite]:
    with clocked_site() as clocked:
        yield clocked


class Wall:
    """The publisher's host clock, a second behind the real one (so a turn writes the current
    second's directory), plus what a test adds to move its kept reads' cadence on (then takes
    back, so its turns write nginx's current second again)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() - 1.0 + self.ahead


def fresh(site: ClockedSite, wall: Wall | None = None) -> Publisher:
    """A publisher whose kept reads were just asked (the versions of earlier tests removed: a
    version younger than STANDINGS_S is not asked again)."""
    shutil.rmtree(site.front.published / KEPT, ignore_errors=True)
    publisher = Publisher(site.app, site.front.published, wall=wall or Wall())
    assert set(publisher.refresh()) >= {PATH}
    return publisher


def served(
    site: ClockedSite,
    publisher: Publisher,
    headers: dict[str, str] | None = None,
    path: str = PATH,
) -> Answer:
    """The standings through nginx right after publishing the current second (again if the
    second turned in between). Never read before its second's directory is written: nginx
    remembers a missing file for the rest of the second (published.conf)."""
    answer = None
    for _ in range(5):
        into = time.time() % 1
        if into > 0.4:  # a turn and a read then have most of a second
            time.sleep(1.01 - into)
        done = publisher.publish()
        if done.skipped == Skip.LATE:
            continue
        answer = fetch(site.front.base, path, headers=headers)
        if answer.headers.get("X-Cache-Status") == "PUBLISHED":
            return answer
    assert answer is not None, "every turn was too late for its second"
    return answer


def unpublished(
    site: ClockedSite, publisher: Publisher, path: str, headers: dict[str, str]
) -> Answer:
    """``path`` through nginx, asked with ``headers`` right after a publishing turn: an answer
    that must come from the app, never from the published file."""
    publisher.publish()
    answer = fetch(site.front.base, path, headers=headers)
    assert answer.headers.get("X-Cache-Status") != "PUBLISHED", path
    return answer


def served_anew(
    site: ClockedSite, publisher: Publisher, changed: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The published standings once ``changed`` holds of them: a second's directory written
    before the publisher's refresh (by it or an earlier one) stays as it was, the next
    second's is written anew. At most five seconds."""
    doc: dict[str, Any] = {}
    for _ in range(5):
        answer = served(site, publisher)
        assert answer.headers.get("X-Cache-Status") == "PUBLISHED"
        doc = json.loads(answer.body)
        if changed(doc):
            break
        second = int(time.time())
        while int(time.time()) == second:
            time.sleep(0.02)
    return doc


def fold(site: ClockedSite, player: str, name: str, scores: list[int]) -> None:
    """A player's verified results folded in as the worker folds them, with their name."""
    state: redis.Redis[str] = redis.Redis.from_url(site.redis_url, decode_responses=True)
    rankings: redis.Redis[str] = redis.Redis.from_url(
        role_url(site.redis_url, "PIKDAME_REDIS_RANKINGS_URL"), decode_responses=True
    )  # make test-roles: the field's counts are the rankings server's, the names the state's
    for n, score in enumerate(scores, 1):
        store.fold(rankings, GAME, WEEK, player, n, score, 1_000 * n)
    state.hset(deals.names_key(GAME, WEEK), player, name)


def test_the_standings_are_served_by_nginx_as_the_apps_answer(site: ClockedSite) -> None:
    """The published file is the API's anonymous standings answer (the same JSON: the app's
    very bytes), plain and gzipped, with the published Cache-Control; no seed of the week in
    it before the close (the commitments only are public then)."""
    fold(site, "p1", "Anna", [10, 20, 30, 40, 50, 60])
    fold(site, "p2", "Bert", [60, 50, 40, 30, 20, 10])
    fold(site, "p3", "Cora", [5, 5, 5])
    publisher = fresh(site)
    app = fetch(site.direct, PATH)
    assert app.status == 200 and app.headers["Cache-Control"] == CACHE_CONTROL
    doc = app.json()
    assert [e["name"] for e in doc["entries"]] == ["Anna", "Bert"] and not doc["final"]
    assert doc["incomplete"] == [{"name": "Cora", "deals": 3, "you": False}]
    plain = served(site, publisher)
    assert plain.headers.get("X-Cache-Status") == "PUBLISHED"
    assert plain.status == 200 and plain.body == app.body
    assert json.loads(plain.body) == doc
    assert plain.headers.get_all("Cache-Control") == [CACHE_CONTROL]
    packed = served(site, publisher, GZIP)
    assert packed.headers.get("X-Cache-Status") == "PUBLISHED"
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.body) == app.body
    assert not weeks.is_closed(WEEK, settings_of(site.app))
    seeds = event_seeds(SECRET, GAME, WEEK)
    published = [
        gzip.decompress(f.read_bytes()) if "gzip/" in str(f) else f.read_bytes()
        for f in site.front.published.rglob("*")
        if f.is_file()
    ]
    assert published
    for text in [plain.body, *published]:  # no seed in any file, in hex or upper-case hex
        for seed in seeds:
            assert seed.hex().encode() not in text.lower()
    assert len(commitments(seeds)) == EVENT_DEALS


def test_the_first_window_is_served_by_nginx_as_the_apps_answer(site: ClockedSite) -> None:
    """The pages' first window of the standings (no credentials) is published beside the whole
    standings: the app's bytes, plain and gzipped; a signed-in caller's own place is
    ``/standings/me`` at the app."""
    fold(site, "p1", "Anna", [10, 20, 30, 40, 50, 60])
    fold(site, "p3", "Cora", [5, 5, 5])
    publisher = fresh(site)
    app = fetch(site.direct, WINDOW)
    assert app.status == 200 and app.headers["Cache-Control"] == CACHE_CONTROL
    doc = app.json()
    assert (doc["offset"], doc["limit"]) == (0, STANDINGS_WINDOW) and doc["total"] >= 1
    assert doc["entries"][0]["name"] == "Anna"
    plain = served(site, publisher, path=WINDOW)
    assert plain.headers.get("X-Cache-Status") == "PUBLISHED" and plain.body == app.body
    packed = served(site, publisher, GZIP, path=WINDOW)
    assert packed.headers.get("X-Cache-Status") == "PUBLISHED"
    assert gzip.decompress(packed.body) == app.body
    for headers, path in [
        ({"Cookie": "session=x"}, WINDOW),
        ({}, f"{PATH}?offset=100&limit={STANDINGS_WINDOW}"),
        ({}, f"{PATH}?limit={STANDINGS_WINDOW}&offset=0"),
        ({}, f"{PATH}/me"),
    ]:
        answer = unpublished(site, publisher, path, headers)
        assert answer.status == 200, (path, answer.status)


def test_a_players_own_read_goes_to_the_app(site: ClockedSite) -> None:
    """A read with credentials (its "you" marks the caller) or asked otherwise never meets the
    file; every other event route goes to the app as before."""
    publisher = fresh(site)
    assert served(site, publisher).headers.get("X-Cache-Status") == "PUBLISHED"
    for headers, path in [
        ({"Cookie": "session=x"}, PATH),
        ({"Authorization": "Bearer x"}, PATH),
        ({}, f"{PATH}?you=1"),
        ({}, f"/api/events/{GAME}/{WEEK}"),
        ({}, f"/api/events/{GAME}"),
        ({}, f"/api/events/{GAME}/2030-W99/standings"),
    ]:
        answer = unpublished(site, publisher, path, headers)
        assert answer.status in (200, 401, 404), (path, answer.status)
    posted = fetch(site.front.base, f"/api/events/{GAME}/{WEEK}/deals", "POST", {"name": "X"})
    assert posted.headers.get("X-Cache-Status") != "PUBLISHED" and posted.status < 500


def test_a_new_verification_is_published_under_a_minute_later(site: ClockedSite) -> None:
    """Issue 42: the live standings are no more than 60 s behind the last verification. The
    app computes them anew once FRESH_S old, the publisher asks every STANDINGS_S and links a
    version into the seconds while it is at most KEPT_MAX_S old, nginx serves a second's file in
    that second and a browser keeps it BROWSER_HOLD_S: together under LIVE_S. A result folded
    in appears in the file once both have moved on."""
    assert STANDINGS_S < KEPT_MAX_S and FRESH_S + KEPT_MAX_S + 1 + BROWSER_HOLD_S < LIVE_S
    wall = Wall()
    publisher = fresh(site, wall)
    first = served(site, publisher)
    assert first.headers.get("X-Cache-Status") == "PUBLISHED"
    before = json.loads(first.body)
    fold(site, "p4", "Dora", [99] * EVENT_DEALS)
    assert publisher.refresh() == ()  # not due: the file stays as it was
    assert json.loads(served(site, publisher).body) == before
    site.clock.advance(seconds=FRESH_S)  # the app's document is due too
    wall.ahead = STANDINGS_S  # the publisher's cadence, then its seconds as nginx's again
    assert PATH in publisher.refresh()
    wall.ahead = 0
    after = served_anew(site, publisher, lambda doc: doc != before)
    assert after["entries"][0]["name"] == "Dora"
    assert after == fetch(site.direct, PATH).json()


def test_the_final_standings_are_published_after_the_close(site: ClockedSite) -> None:
    """After the close (Sunday 24:00 plus the grace) the week is last week's: its standings are
    still a kept read, now final."""
    before = site.clock.moment
    try:
        # an hour after it: at the close itself a day closes too, and nothing is published
        site.clock.moment = weeks.closes_at(WEEK, settings_of(site.app)) + dt.timedelta(hours=1)
        assert PATH in {r.path for r in standings_reads(site.clock.today)}
        publisher = fresh(site)
        doc = served_anew(site, publisher, lambda doc: bool(doc["final"]))
        assert doc["final"] is True
        assert doc == fetch(site.direct, PATH).json()
    finally:
        site.clock.moment = before


def test_the_standings_request_is_the_one_the_page_sends() -> None:
    """nginx matches the standings read without arguments and the first window as lib/api.js
    asks it (``offset`` then ``limit``, no credentials), and the publisher asks both."""
    api = (NGINX_DIR.parents[1] / "templates/static/js/lib/api.js").read_text()
    assert f"export const STANDINGS_WINDOW = {STANDINGS_WINDOW};" in api
    assert "/standings`)" not in api  # no page asks the whole document (at scale megabytes)
    assert "(own ? get : getPublic)(" in api
    assert "/standings?${query({ offset, limit: STANDINGS_WINDOW })}`" in api
    conf = (NGINX_DIR / "http.conf").read_text()
    assert "$pikdame_published_standings" in conf
    assert f'"GET:0:offset=0&limit={STANDINGS_WINDOW}"' in conf
    assert {r.path for r in standings_reads("2030-01-01")} == {
        f"/api/events/{game}/{week}/standings{query}"
        for game in deals.EVENT_GAMES
        for week in ("2030-W01", "2029-W52")
        for query in ("", f"?offset=0&limit={STANDINGS_WINDOW}")
    }


def test_a_stopped_refresher_leaves_nothing_to_serve(site: ClockedSite) -> None:
    """A version of the kept reads asked more than KEPT_MAX_S ago (its refresher stopped) is
    no longer linked into a second: nginx asks the app, whose answer is at most FRESH_S old."""
    publisher = fresh(site)
    version = publisher.kept_version()
    assert version is not None
    old = version.with_name(str(int(version.name) - (KEPT_MAX_S + 2) * 1000))
    version.rename(old)
    assert publisher.kept_version(max_age=KEPT_MAX_S) is None
    second = int(time.time())
    while int(time.time()) == second:  # a second whose directory is written without it
        time.sleep(0.02)
    for _ in range(5):
        done = publisher.publish()
        if done.skipped != Skip.LATE:
            break
    assert PATH not in done.reads
    answer = fetch(site.front.base, PATH)
    assert answer.status == 200 and answer.headers.get("X-Cache-Status") != "PUBLISHED"
