"""Published reads through Debian's nginx with the shipped site (deploy/nginx/published.conf):
the publisher writes the app's answers as files for a second, nginx serves them as static files
in that second only, and passes every other read to the app and its micro-cache.

The app runs in this process on the tests' clock (the day), served to nginx by werkzeug; the
publisher asks that same app. nginx names its seconds on the host's clock, so a test that needs
a file in the current second publishes it for the current second (a wall clock a second behind)
and reads it at once, again if the second turned in between: a condition, not a time.
"""

from __future__ import annotations

import datetime as dt
import gzip
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.web import security
from service.web.publishing import (
    BOARD_PAGE,
    BROWSER_HOLD_S,
    CACHE_CONTROL,
    KEPT,
    Published,
    Publisher,
    Read,
    Skip,
    published_reads,
    second_name,
)
from tests.support.front import NGINX_DIR, ClockedSite, clocked_site, nginx_binary
from tests.support.http import Answer, fetch
from tests.support.processes import service_env
from tests.support.service_app import SECRET

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed"),
]
GZIP = {"Accept-Encoding": "gzip, deflate, br, zstd"}


class Site(ClockedSite):
    def publisher(self, behind: float = 1.0) -> Publisher:
        """A publisher whose wall clock is ``behind`` seconds late: 1 writes the current
        second's directory, 2 the last second's."""
        publisher = Publisher(self.app, self.front.published, wall=lambda: time.time() - behind)
        publisher.refresh()  # the kept reads (an event's standings) too, as run's thread does
        return publisher


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with clocked_site() as clocked:
        yield Site(**vars(clocked))


def early_in_a_second() -> None:
    """Waits, if need be, for the next second to begin: a turn and a read then have most of a
    second before the second's directory is no longer nginx's, on a busy machine too."""
    into = time.time() % 1
    if into > 0.4:
        time.sleep(1.01 - into)


def publish_this_second(site: Site) -> Published:
    """The current second's directory (a turn whose wall clock is a second late)."""
    for _ in range(5):
        early_in_a_second()
        done = site.publisher(behind=1.0).publish()
        if done.skipped != Skip.LATE:
            return done
    raise AssertionError("every turn was too late for its second")


def published_read(site: Site, path: str, headers: dict[str, str] | None = None) -> Answer:
    """``path`` through nginx right after publishing the current second (again if the second
    turned in between)."""
    for _ in range(5):
        publish_this_second(site)
        answer = fetch(site.front.base, path, headers=headers)
        if answer.headers.get("X-Cache-Status") == "PUBLISHED":
            return answer
    return answer


def test_every_published_read_is_the_apps_answer_served_by_nginx_as_a_file(site: Site) -> None:
    """Each read the pages send (service.web.publishing) is found where nginx's roots and maps
    look for it: the app's very bytes, plain and gzipped, with the app's Cache-Control and the
    front's own headers once each."""
    reads = published_reads(site.clock.today)
    board = f"/api/leaderboard/{site.clock.today}?offset=0&limit=20"
    assert {r.path for r in reads} >= {"/api/daily", board}
    for read in reads:
        app = fetch(site.direct, read.path)
        assert app.status == 200, (read, app.body)
        plain = published_read(site, read.path)
        assert plain.headers.get("X-Cache-Status") == "PUBLISHED", read
        assert plain.status == 200 and plain.body == app.body, read
        assert plain.headers["Content-Type"] == "application/json"
        assert plain.headers.get_all("Cache-Control") == [CACHE_CONTROL]
        for header, value in security.HEADERS.items():
            assert plain.headers.get_all(header) == [value], (read, header)
        ids = plain.headers.get_all("X-Request-ID") or []
        assert len(ids) == 1 and re.fullmatch(r"[0-9a-f]{32}", ids[0])
        packed = published_read(site, read.path, GZIP)
        assert packed.headers.get_all("Vary") == ["Accept-Encoding"], read
        if len(app.body) >= 256:  # the app compresses what gains (service.web.compression)
            assert packed.headers.get("X-Cache-Status") == "PUBLISHED", read
            assert packed.headers["Content-Encoding"] == "gzip"
            assert gzip.decompress(packed.body) == app.body
        else:  # the app sends it plain: the micro-cache answers a gzip ask, not a file
            assert packed.headers.get("X-Cache-Status") != "PUBLISHED", read
            assert "Content-Encoding" not in packed.headers
            assert packed.body == app.body
        assert "Content-Encoding" not in plain.headers


def test_the_published_cache_control_is_the_apps_and_nginxs(site: Site) -> None:
    """published.conf sends the publisher's CACHE_CONTROL with every file, and the app says
    the same of these reads away from a day's change (else nothing is published)."""
    conf = (NGINX_DIR / "published.conf").read_text()
    assert f'add_header Cache-Control "{CACHE_CONTROL}";' in conf
    for read in published_reads(site.clock.today):
        assert fetch(site.direct, read.path).headers["Cache-Control"] == CACHE_CONTROL


def test_a_read_with_credentials_or_asked_otherwise_goes_to_the_app(site: Site) -> None:
    """Only an anonymous GET or HEAD of the exact request the pages send is answered from a
    file: a player's own read (cookie, bearer token), another order of the arguments, another
    page, another method, or a game argument that names a path, all reach the app."""
    today = site.clock.today
    board = f"/api/leaderboard/{today}?offset=0&limit=20"
    assert published_read(site, board).headers.get("X-Cache-Status") == "PUBLISHED"
    head = fetch(site.front.base, board, "HEAD")
    assert head.headers.get("X-Cache-Status") == "PUBLISHED" or head.headers.get(
        "X-Cache-Status"
    ) in ("HIT", "MISS", "EXPIRED")  # the second may have turned
    others = [
        ("/api/daily", {"Cookie": "session=x"}),
        ("/api/daily", {"Authorization": "Bearer x"}),
        (f"/api/leaderboard/{today}?limit=20&offset=0", {}),
        (f"/api/leaderboard/{today}?offset=20&limit=20", {}),
        (f"/api/leaderboard/{today}?offset=0&limit=20&game=../../{today}", {}),
        ("/api/daily?game=..%2f..%2fdaily-", {}),
        ("/api/leaderboard/all-time?offset=0&limit=20", {}),
        ("/api/leaderboard?offset=0&limit=20", {}),  # a directory of the published files
        ("/api/leaderboard/?offset=0&limit=20", {}),
        (f"/api/leaderboard/{today}/around/x?offset=0&limit=20", {}),
        ("/api/daily?game=none", {}),
    ]
    for path, headers in others:
        publish_this_second(site)  # the files are there: these reads are not answered from them
        answer = fetch(site.front.base, path, headers=headers)
        assert answer.headers.get("X-Cache-Status") != "PUBLISHED", path
        assert answer.status < 500, (path, answer.status)
        assert answer.status in (200, 401, 404, 422) and "Location" not in answer.headers, path
        assert answer.headers.get_all("Cache-Control") == [
            fetch(site.direct, path, headers=headers).headers["Cache-Control"]
        ], path  # the app's own, once
    for method in ("POST", "PUT", "DELETE"):
        sent = fetch(site.front.base, "/api/daily", method, {})
        assert sent.headers.get("X-Cache-Status") != "PUBLISHED"
        assert sent.status == 405 and sent.json()["error"]["code"], sent.body  # the app's


def test_a_second_past_is_never_served(site: Site) -> None:
    """A publisher that stopped leaves nothing nginx would serve: the directory of a second
    that is over stays on disk until the next turn prunes it, and is not read."""
    done = publish_this_second(site)
    while int(time.time()) <= done.second:  # until it is over
        time.sleep(0.02)
    assert (site.front.published / second_name(done.second)).is_dir()
    answer = fetch(site.front.base, "/api/daily")
    assert answer.status == 200
    assert answer.headers.get("X-Cache-Status") != "PUBLISHED"


def test_the_publisher_keeps_the_current_and_the_next_second_only(site: Site) -> None:
    """A turn writes the next second's directory whole (readable by nginx's workers) and
    removes every directory but the current second's and its own."""
    for entry in site.front.published.iterdir():
        shutil.rmtree(entry)
    stale = site.front.published / second_name(int(time.time()) - 30)
    stale.mkdir()
    for _ in range(5):  # a turn that starts at a second's very end is too late for the next
        early_in_a_second()
        done = site.publisher(behind=0.0).publish()
        if done.directory is not None:
            break
    assert done.directory is not None, done
    assert {p.name for p in site.front.published.iterdir()} <= {
        second_name(done.second - 1),
        second_name(done.second),
        KEPT,  # the kept reads' files, linked into each second's directory
    }
    found = list(done.directory.rglob("*"))
    files = {str(p.relative_to(done.directory)) for p in found if p.is_file()}
    assert {r.plain for r in published_reads(site.clock.today)} <= files
    assert all(p.stat().st_mode & 0o777 == 0o755 for p in [done.directory, *found] if p.is_dir())
    assert all(p.stat().st_mode & 0o777 == 0o644 for p in found if p.is_file())


def test_nothing_is_published_where_a_browser_would_keep_it_past_a_days_end(site: Site) -> None:
    """Near midnight (today's challenge becomes the next day's) nothing is published: nginx
    serves a second's file until the second ends and a browser keeps it BROWSER_HOLD_S more,
    and none of that may reach past the change. The app's micro-cache answers meanwhile, with
    lifetimes cut to the change (service.web.caching)."""
    before = site.clock.moment
    try:
        midnight = dt.datetime.combine(
            dt.date.fromisoformat(site.clock.today) + dt.timedelta(days=1), dt.time(), dt.UTC
        )
        site.clock.moment = midnight - dt.timedelta(seconds=BROWSER_HOLD_S + 1)
        done = site.publisher(behind=0.0).publish()
        assert done.directory is None and done.skipped == Skip.CHANGE_NEAR
        site.clock.moment = midnight - dt.timedelta(seconds=BROWSER_HOLD_S + 2.5)
        done = site.publisher(behind=0.0).publish()  # at most 2 s from now to the second's end
        assert done.directory is not None or done.skipped in (Skip.LATE, Skip.DONE)
    finally:
        site.clock.moment = before


def test_a_read_is_published_where_nginx_looks_for_it() -> None:
    """The files deploy/nginx's roots and maps name for the pages' requests (the end-to-end
    test above reads each through nginx)."""
    reads = {r.path: r for r in published_reads("2030-01-01")}
    assert reads["/api/daily"].plain == "default/api/daily"
    assert reads["/api/daily"].gzipped == "defaultgzip/api/daily"
    board = reads["/api/leaderboard/2030-01-01?offset=0&limit=20"]
    assert board.plain == "default/api/leaderboard/2030-01-01"
    assert reads["/api/daily?game=gin"].plain == "game-gin/api/daily"
    gin = reads["/api/leaderboard/2030-01-01?offset=0&limit=20&game=gin"]
    assert gin.gzipped == "game-gingzip/api/leaderboard/2030-01-01"
    assert all(isinstance(r, Read) for r in reads.values())


def test_the_deployed_publisher_publishes_every_second_and_stops_on_sigterm(site: Site) -> None:
    """``python -m service.publish`` as the unit runs it (its own app on the real clock,
    PIKDAME_PUBLISH_DIR): its reads are answered from files within a few seconds, and SIGTERM
    ends it cleanly. (Near a real midnight it publishes nothing for a few seconds: the loop
    waits up to 15 s, as long as three such spells.)"""
    for entry in site.front.published.iterdir():  # the other tests' seconds
        shutil.rmtree(entry)
    begun = int(time.time())
    while int(time.time()) == begun:  # and this one, which nginx may hold open, over
        time.sleep(0.02)
    env = service_env(
        site.redis_url, SECRET.decode(), PIKDAME_PUBLISH_DIR=str(site.front.published)
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "service.publish"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        seen = ""
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and seen != "PUBLISHED":
            time.sleep(0.2)
            seen = fetch(site.front.base, "/api/daily").headers.get("X-Cache-Status", "")
        assert seen == "PUBLISHED"
    finally:
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=30)
    assert process.returncode == 0, out.decode()


def test_the_published_requests_are_the_ones_the_pages_send() -> None:
    """nginx matches a published read's arguments exactly: the rankings page's first page is
    BOARD_PAGE entries, asked as offset, limit, game, and today's challenge as game only
    (templates/static/js). A page that asked otherwise would still be answered, by the app."""
    static = Path(__file__).resolve().parents[2] / "templates" / "static" / "js"
    limit = re.search(r"const LIMIT = (\d+);", (static / "rankings.js").read_text())
    assert limit and int(limit.group(1)) == BOARD_PAGE
    api = (static / "lib" / "api.js").read_text()
    assert "get(`/api/leaderboard/${date}?${query({ offset, limit, game })}`)" in api
    assert 'get(game ? `/api/daily?${query({ game })}` : "/api/daily")' in api
    conf = (NGINX_DIR / "http.conf").read_text()
    assert f'"GET:0:offset=0&limit={BOARD_PAGE}"' in conf
