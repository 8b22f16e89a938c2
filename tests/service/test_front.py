"""The real front: Debian's nginx running deploy/nginx's site in front of a real
gunicorn. Public reads are served from nginx's micro-cache, private ones never; static files are
compressed and immutable under versioned names; a table's live stream is not buffered; the
client's own X-Forwarded-For never reaches the rate limits."""

from __future__ import annotations

import datetime as dt
import gzip
import http.client
import itertools
import json
import re
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from service.app import create_app
from service.web import security
from tests.support.front import (
    NGINX_DIR,
    TEMP_KINDS,
    Front,
    clocked_site,
    host_conf,
    install_site,
    nginx_binary,
    start_front,
)
from tests.support.http import Answer, fetch
from tests.support.processes import WebServer, service_env, start_web
from tests.support.servers import RedisServer, free_port, start_redis
from tests.support.service_app import Clock

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed"),
]
SECRET = "front-test-secret"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Front, WebServer, Path]]:
    """redis-server, gunicorn trusting nginx (127.0.0.1) only, nginx in front."""
    log = tmp_path_factory.mktemp("front") / "web.log"
    server: RedisServer = start_redis()
    env = service_env(
        server.url,
        SECRET,
        PIKDAME_LIMITS_ENABLED="1",
        PIKDAME_LIMIT_ATTEMPTS="1 per hour",
        PIKDAME_PROXIES="127.0.0.1",
    )
    web = start_web(env, log)
    front = start_front(web.base.removeprefix("http://"))
    yield front, web, log
    front.stop()
    web.process.stop()
    server.close()


def upstream_requests(log: Path, path: str) -> int:
    """How many requests for ``path`` gunicorn's access log shows."""
    return sum(
        1
        for line in log.read_text().splitlines()
        if line.startswith("{") and json.loads(line).get("path") == path
    )


def start(front: Front, source: str) -> Answer:
    date = fetch(front.base, "/api/daily").json()["date"]
    answer = fetch(
        front.base, f"/api/daily/{date}/attempts", "POST", {"name": f"P{source}"}, source=source
    )
    return answer


def test_a_table_is_created_through_the_front(stack: tuple[Front, WebServer, Path]) -> None:
    """Defect: proxy.conf's ``location /api/tables/`` made nginx itself answer ``POST
    /api/tables`` (the bare prefix) with a 301 to ``/api/tables/``, which the browser followed
    with a GET and the app answered 404: behind the shipped site no table could be created."""
    front, _, _ = stack
    body = {"game": "pikdame", "name": "Ada", "seats": [{"kind": "human"}, {"kind": "human"}]}
    created = fetch(front.base, "/api/tables", "POST", body, source="127.0.0.10")
    assert created.status == 201, (created.status, created.headers.get("Location"), created.body)
    made = created.json()
    invite = f"/api/tables/join/{made['invite']}"
    joined = fetch(front.base, invite, "POST", {"name": "Bo"}, source="127.0.0.10")
    assert joined.status == 200, joined.body
    mine = {"Authorization": f"Bearer {made['token']}"}
    table_id = made["table"]["id"]
    started = fetch(
        front.base, f"/api/tables/{table_id}/start", "POST", {}, mine, source="127.0.0.10"
    )
    assert started.status == 200, started.body
    read = fetch(front.base, f"/api/tables/{table_id}", headers=mine, source="127.0.0.10")
    assert read.status == 200 and read.json()["table"]["status"] == "playing", read.body


# a value each kind of URL variable accepts (a route's own 404/401 answers an unknown one)
SAMPLES = {"date": "2001-01-01", "n": "1", "filename": "css/site.css"}


def app_routes() -> list[tuple[str, str]]:
    """Every (method, path) the app serves, its variables filled with sample values: the routes
    of its url_map (the pages, the API of /api/openapi.json, the static files)."""
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "PIKDAME_SECRET": SECRET})
    routes = set()
    for rule in app.url_map.iter_rules():
        path = rule.rule
        for name in rule.arguments:
            path = re.sub(rf"<(?:[a-z]+:)?{name}>", SAMPLES.get(name, "probe1"), path)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            routes.add((method, path))
    return sorted(routes)


def test_every_route_of_the_app_reaches_it_through_the_front(
    stack: tuple[Front, WebServer, Path],
) -> None:
    """No location of the shipped site answers a route of the app itself (a prefix location
    ending in "/" makes nginx redirect its bare path with a 301): every method and path of the
    app's url_map reaches the app through the front (its access log shows the request's own id)
    and none is answered with a redirect. The bodies are malformed JSON (the app refuses them,
    changing nothing); a query of its own keeps each read out of the micro-cache."""
    front, _, log = stack
    routes = app_routes()
    assert ("POST", "/api/tables") in routes and ("GET", "/static/css/site.css") in routes
    host, port = front.base.removeprefix("http://").split(":")
    answered: dict[str, tuple[str, str, int]] = {}
    for number, (method, path) in zip(itertools.count(), routes, strict=False):
        probe = f"route-probe-{number}"
        connection = http.client.HTTPConnection(
            host, int(port), timeout=30, source_address=("127.0.0.11", 0)
        )
        try:
            connection.request(
                method,
                f"{path}?probe={number}",
                body=b"{not json" if method != "GET" else None,
                headers={"X-Request-ID": probe, "Content-Type": "application/json"},
            )
            answer = connection.getresponse()
            if answer.getheader("Content-Type", "").startswith("text/event-stream"):
                pass  # a live stream (the lobby's) runs for minutes: its status is the answer
            else:
                answer.read()
        finally:
            connection.close()
        answered[probe] = (method, path, answer.status)
    reached = {
        json.loads(line).get("request_id")
        for line in log.read_text().splitlines()
        if line.startswith("{")
    }
    missed = [answer for probe, answer in answered.items() if probe not in reached]
    assert not missed, f"answered by nginx itself: {missed}"
    redirected = [a for a in answered.values() if a[2] in (301, 302, 303, 307, 308)]
    assert not redirected


def test_a_public_read_is_served_from_the_micro_cache(stack: tuple[Front, WebServer, Path]) -> None:
    front, _, log = stack
    path = "/api/leaderboard/all-time"
    before = upstream_requests(log, path)
    first = fetch(front.base, path)
    assert first.status == 200
    assert first.headers["Cache-Control"] == "public, max-age=1, stale-while-revalidate=1"
    assert first.headers["X-Cache-Status"] in ("MISS", "EXPIRED")
    reads, statuses = 1, []
    while "HIT" not in statuses and reads < 6:  # within its second, normally the very next read
        again = fetch(front.base, path)
        reads += 1
        statuses.append(again.headers["X-Cache-Status"])
        assert again.body == first.body
    assert "HIT" in statuses
    assert upstream_requests(log, path) - before < reads


def test_a_private_read_is_never_cached(stack: tuple[Front, WebServer, Path]) -> None:
    front, _, log = stack
    created = start(front, "127.0.0.2")
    assert created.status == 201, created.body
    token = created.json()["token"]
    attempt = created.json()["attempt"]["id"]
    path = f"/api/attempts/{attempt}"
    before = upstream_requests(log, path)
    seen = [fetch(front.base, path, headers={"Authorization": f"Bearer {token}"}) for _ in "abc"]
    assert [a.status for a in seen] == [200, 200, 200]
    assert {a.headers["X-Cache-Status"] for a in seen} == {"BYPASS"}
    assert all(a.headers["Cache-Control"] == "private, no-cache" for a in seen)
    assert upstream_requests(log, path) - before == 3
    # without credentials: refused by the app each time, never stored (no-store)
    refused = [fetch(front.base, path) for _ in "ab"]
    assert [a.status for a in refused] == [401, 401]
    assert "HIT" not in {a.headers.get("X-Cache-Status") for a in refused}


def test_a_public_read_with_credentials_bypasses_the_cache(
    stack: tuple[Front, WebServer, Path],
) -> None:
    front, _, _ = stack
    for headers in ({"Authorization": "Bearer x"}, {"Cookie": "session=abc"}):
        for _ in "ab":
            answer = fetch(front.base, "/api/daily", headers=headers)
            assert answer.headers["X-Cache-Status"] == "BYPASS"
            assert answer.headers["Cache-Control"] == "no-store"


def test_static_files_are_versioned_gzipped_and_immutable(
    stack: tuple[Front, WebServer, Path],
) -> None:
    front, _, _ = stack
    page = fetch(front.base, "/rules").body.decode()
    found = re.search(r'href="(/static/css/site\.css\?v=([0-9a-f]{12}))"', page)
    assert found, "the page links its stylesheet under a versioned name"
    asset = fetch(front.base, found.group(1), headers={"Accept-Encoding": "gzip"})
    assert asset.status == 200
    assert asset.headers["Content-Encoding"] == "gzip"
    assert asset.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    stale = fetch(front.base, "/static/css/site.css?v=000000000000")
    assert "immutable" not in stale.headers.get("Cache-Control", "")


def test_the_forwarded_client_address_reaches_the_app_and_a_spoofed_one_does_not(
    stack: tuple[Front, WebServer, Path],
) -> None:
    """The client's X-Forwarded-For is replaced by nginx: starting a second attempt from the same
    address is limited whatever address the client claims (PIKDAME_LIMIT_ATTEMPTS=1 per hour)."""
    front, _, log = stack
    date = fetch(front.base, "/api/daily").json()["date"]
    statuses = [
        fetch(
            front.base,
            f"/api/daily/{date}/attempts",
            "POST",
            {"name": f"Spoof{i}"},
            headers={"X-Forwarded-For": f"203.0.113.{i}"},
            source="127.0.0.5",
        ).status
        for i in (1, 2)
    ]
    assert statuses == [201, 429]
    posts = [
        json.loads(line)["remote"]
        for line in log.read_text().splitlines()
        if line.startswith("{") and '"method":"POST"' in line and '"status":201' in line
    ]
    assert "127.0.0.5" in posts  # the player's own address, passed on by nginx
    assert "203.0.113" not in log.read_text()


class TrickleUpstream:
    """A server-sent-events upstream that sends one event, then holds the response open until
    released: a buffering proxy would hold that event back."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.port = free_port()
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.listener.settimeout(0.2)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while not self.release.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self.answer, args=(connection,), daemon=True).start()

    def answer(self, connection: socket.socket) -> None:
        with connection:
            if b"/events" not in connection.recv(65536):  # start_front's probe
                connection.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                return
            connection.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                b"Cache-Control: no-store\r\nTransfer-Encoding: chunked\r\n\r\n"
                b"10\r\ndata: first!!\n\n\r\n"
            )
            self.release.wait(30)
            connection.sendall(b"0\r\n\r\n")

    def close(self) -> None:
        self.release.set()
        self.thread.join(10)
        self.listener.close()


def test_a_table_stream_is_passed_on_unbuffered() -> None:
    upstream = TrickleUpstream()
    front = start_front(f"127.0.0.1:{upstream.port}")
    try:
        with socket.create_connection(("127.0.0.1", int(front.base.rsplit(":", 1)[1]))) as s:
            s.settimeout(20)
            s.sendall(
                b"GET /api/tables/T1/events HTTP/1.1\r\nHost: localhost\r\n"
                b"Accept-Encoding: gzip\r\n\r\n"
            )
            received = b""
            while b"data: first!!" not in received:
                chunk = s.recv(4096)
                assert chunk, "nginx closed the stream"
                received += chunk
            # the event arrived while the upstream still holds the response open
            assert not upstream.release.is_set()
            head = received.split(b"\r\n\r\n", 1)[0].lower()
            assert b"x-cache-status" not in head  # the stream's own location: no cache at all
            assert b"content-encoding" not in head
    finally:
        upstream.close()
        front.stop()


def test_a_cached_public_read_follows_a_change_once_its_second_is_over(
    stack: tuple[Front, WebServer, Path],
) -> None:
    """The micro-cache (with its files' descriptors kept open, http.conf) serves a public read
    for about a second only: after a change the next reads reach the new answer."""
    front, web, _ = stack
    cached = fetch(front.base, "/api/daily").json()["attempts"]
    created = start(front, "127.0.0.7")
    assert created.status == 201, created.body
    now = fetch(web.base, "/api/daily").json()["attempts"]  # the app itself, no cache
    assert now > cached
    seen = cached
    for _ in range(200):  # a condition, not a time: each read is one more chance to see it
        seen = fetch(front.base, "/api/daily").json()["attempts"]
        if seen == now:
            break
        threading.Event().wait(0.05)
    assert seen == now


@pytest.fixture
def clocked() -> Iterator[tuple[Front, Clock]]:
    """nginx in front of the app on the tests' clock (tests.support.front.clocked_site)."""
    with clocked_site() as site:
        yield site.front, site.clock


def _moment(day: str, change: str) -> dt.datetime:
    """When a day's documents change: its end (today's document becomes the next day's) or its
    close (the seed is published), on the app's clock."""
    ends = dt.datetime.combine(dt.date.fromisoformat(day), dt.time(), dt.UTC) + dt.timedelta(days=1)
    return ends if change == "end" else ends + dt.timedelta(minutes=120)  # the default grace


def _changed(path: str, day: str, answer: Answer) -> bool:
    doc = answer.json()
    return doc["date"] != day if path == "/api/daily" else doc["seed"] is not None


CHANGES = [("/api/daily", "end"), ("DAY", "close")]


@pytest.mark.parametrize(("path", "change"), CHANGES)
def test_a_document_stored_in_a_changes_last_second_is_not_kept_past_it(
    clocked: tuple[Front, Clock], path: str, change: str
) -> None:
    """Defect: a day's document (today's at midnight, a day's seed at its close) stored in the
    last second before its change was served from the micro-cache after it (max-age=1, a HIT).
    Now a public read's lifetime never reaches past the next change as the app's clock counts
    it: in that last second it is not stored at all."""
    front, clock = clocked
    day = clock.today
    path = f"/api/daily/{day}" if path == "DAY" else path
    moment = _moment(day, change)
    clock.moment = moment - dt.timedelta(seconds=0.5)
    before = fetch(front.base, path)
    assert not _changed(path, day, before)
    clock.moment = moment + dt.timedelta(seconds=0.5)
    after = fetch(front.base, path)
    assert _changed(path, day, after), after.headers
    assert "public" not in before.headers["Cache-Control"]


@pytest.mark.parametrize(("path", "change"), CHANGES)
def test_a_changed_document_is_never_served_stale(
    clocked: tuple[Front, Clock], path: str, change: str
) -> None:
    """Defect: after a day closed, the micro-cache served the document from before the close
    (seed null) once more, as STALE, while it fetched the new one (proxy_cache_use_stale
    updating). Now nginx serves stale while updating only for as long as the app's
    stale-while-revalidate allows, and that never reaches past the change."""
    front, clock = clocked
    day = clock.today
    path = f"/api/daily/{day}" if path == "DAY" else path
    moment = _moment(day, change)
    clock.moment = moment - dt.timedelta(seconds=3.5)  # a second of it may be kept
    stored = fetch(front.base, path)
    assert not _changed(path, day, stored)
    clock.moment = moment + dt.timedelta(seconds=0.5)
    answer = stored
    for _ in range(200):  # a condition, not a time: until the entry's second is over
        answer = fetch(front.base, path)
        if answer.headers["X-Cache-Status"] != "HIT":
            break
        threading.Event().wait(0.05)
    assert answer.headers["X-Cache-Status"] not in ("STALE", "UPDATING")
    assert _changed(path, day, answer)
    assert stored.headers["Cache-Control"] == "public, max-age=1"


DAY_BOUND_PATHS = ["/api/daily", "/api/days", "DAY"]


@pytest.mark.parametrize("path", DAY_BOUND_PATHS)
def test_a_day_bound_document_is_never_served_stale_when_the_app_fails(path: str) -> None:
    """No cache serves a day's document after its end (issue 38): nginx answered the last entry
    of any read, however old, when the app could not answer (proxy_cache_use_stale error,
    http_503), so Redis down at midnight served yesterday's challenge as today's. A day-bound
    read is now answered stale only within the app's stale-while-revalidate (cut to the change),
    then the app's 503 goes on."""
    with clocked_site() as site:
        day = site.clock.today
        asked = f"/api/daily/{day}" if path == "DAY" else path
        site.clock.moment = _moment(day, "end") - dt.timedelta(seconds=8)
        stored = fetch(site.front.base, asked)
        assert stored.status == 200
        assert stored.headers["Cache-Control"] == "public, max-age=1, stale-while-revalidate=1"
        redis.Redis.from_url(site.redis_url).shutdown(nosave=True)
        site.clock.moment = _moment(day, "end") + dt.timedelta(seconds=0.5)
        answer = stored
        # a condition, not a time: until the entry's lifetime and the app's stale-while-revalidate
        # (both within the day, as the app cut them) are over; a stale answer past them never ends
        for _ in range(200):
            answer = fetch(site.front.base, asked)
            if answer.headers.get("X-Cache-Status") not in ("HIT", "UPDATING", "STALE"):
                break
            threading.Event().wait(0.05)
        assert answer.status == 503, (answer.status, answer.headers.get("X-Cache-Status"))


def test_a_private_304_is_never_served_from_nor_stored_in_the_cache(
    stack: tuple[Front, WebServer, Path],
) -> None:
    """The attempt's 304 (service/dailies/early_views.py answers it before Flask) passes nginx as
    any private read: never cached, and the tag alone opens nothing."""
    front, _, log = stack
    created = start(front, "127.0.0.6")
    assert created.status == 201, created.body
    token, attempt = created.json()["token"], created.json()["attempt"]["id"]
    path = f"/api/attempts/{attempt}"
    mine = {"Authorization": f"Bearer {token}"}
    tag = fetch(front.base, path, headers=mine).headers["ETag"]
    before = upstream_requests(log, path)
    again = [fetch(front.base, path, headers={**mine, "If-None-Match": tag}) for _ in "ab"]
    assert [a.status for a in again] == [304, 304]
    assert {a.headers["X-Cache-Status"] for a in again} == {"BYPASS"}
    assert upstream_requests(log, path) - before == 2
    stranger = [fetch(front.base, path, headers={"If-None-Match": tag}) for _ in "ab"]
    assert [a.status for a in stranger] == [401, 401]
    assert "HIT" not in {a.headers.get("X-Cache-Status") for a in stranger}


def cache_entries(front: Front) -> list[bytes]:
    """The micro-cache's files as nginx wrote them (a binary header, the key, the upstream's
    status line, headers and body)."""
    return [p.read_bytes() for p in (front.directory / "cache").rglob("*") if p.is_file()]


def key_line(entry: bytes) -> bytes:
    """The cache key nginx wrote into an entry (``KEY: …``)."""
    return entry.split(b"\nKEY: ", 1)[1].split(b"\n", 1)[0] if b"\nKEY: " in entry else b""


def read_until_hit(front: Front, path: str, headers: dict[str, str]) -> Answer:
    for _ in range(6):  # within its second, normally the very next read
        answer = fetch(front.base, path, headers=headers)
        if answer.headers["X-Cache-Status"] == "HIT":
            return answer
    raise AssertionError(f"{path} was never answered from the cache")


def test_a_public_read_asked_compressed_is_stored_compressed(
    stack: tuple[Front, WebServer, Path],
) -> None:
    """Defect: the cache held the plain answer, so nginx compressed it anew on every
    hit for every browser (all of them ask for gzip): a compressed hit cost nginx three times a
    plain one. Now the app compresses a public answer once, nginx keeps it as it is, under one
    entry for every spelling of "gzip", and a client that asks for no compression gets its own
    plain entry."""
    front, _, _ = stack
    # a URL of its own (no other test has filled its entries), a closed day's: its lifetime is
    # not cut short at a day's change, which this stack's real clock could meet
    path = "/api/daily/2000-01-01?lang=en"
    browser = {"Accept-Encoding": "gzip, deflate, br, zstd"}
    packed = read_until_hit(front, path, browser)
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    document = json.loads(gzip.decompress(packed.body))
    # another browser's spelling reads the same entry: no miss of its own
    other = fetch(front.base, path, headers={"Accept-Encoding": "gzip"})
    assert other.headers["X-Cache-Status"] in ("HIT", "STALE", "EXPIRED", "UPDATING")  # not MISS
    assert other.headers["Content-Encoding"] == "gzip"
    plain = read_until_hit(front, path, {})
    assert "Content-Encoding" not in plain.headers
    assert json.loads(plain.body) == document
    refused = read_until_hit(front, path, {"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused.headers
    keys = {key_line(e): e for e in cache_entries(front) if path.encode() in key_line(e)}
    assert sorted(k.rsplit(path.encode(), 1)[1] for k in keys) == [b"", b"gzip"]
    for key, entry in keys.items():
        head, body = entry.split(b"\r\n\r\n", 1)
        if key.endswith(b"gzip"):
            assert b"\r\nContent-Encoding: gzip\r\n" in head + b"\r\n"
            assert body.startswith(b"\x1f\x8b"), "kept compressed, not compressed per hit"
        else:
            assert body.startswith(b"{")


def test_a_head_reads_the_entry_a_get_filled(stack: tuple[Front, WebServer, Path]) -> None:
    """The cache key holds no method (deploy/nginx/proxy.conf: each hit hashes the key): nginx
    asks the app a HEAD as a GET, so a HEAD is answered from the GET's whole entry, headers
    only, and the entry holds the body for the GETs after it."""
    front, _, log = stack
    path = "/api/leaderboard/all-time?limit=7"  # a URL of its own
    got = read_until_hit(front, path, {})
    before = upstream_requests(log, "/api/leaderboard/all-time")
    head = fetch(front.base, path, "HEAD")
    assert head.status == 200
    # past the entry's second: served stale while one request renews it, still no entry of its own
    assert head.headers["X-Cache-Status"] in ("HIT", "STALE", "UPDATING", "EXPIRED")
    assert head.body == b""
    assert head.headers["Content-Length"] == str(len(got.body))
    keys = [key_line(e) for e in cache_entries(front) if path.encode() in key_line(e)]
    assert len(keys) == 1 and not keys[0].startswith((b"GET", b"HEAD", b"http"))
    if head.headers["X-Cache-Status"] == "HIT":
        assert upstream_requests(log, "/api/leaderboard/all-time") == before


def test_security_headers_are_sent_once_and_the_request_id_is_each_requests_own(
    stack: tuple[Front, WebServer, Path],
) -> None:
    """Through the front, nginx adds the fixed security headers and the request id to every
    answer (a cached one too); the app leaves them out there, so a cache hit does not reread
    them from the cache file and no header is sent twice."""
    front, _, _ = stack
    created = start(front, "127.0.0.8")
    assert created.status == 201, created.body
    token, attempt = created.json()["token"], created.json()["attempt"]["id"]
    mine = {"Authorization": f"Bearer {token}"}
    tag = fetch(front.base, f"/api/attempts/{attempt}", headers=mine).headers["ETag"]
    answers = {
        "public hit": read_until_hit(front, "/api/daily", {}),
        "public hit again": read_until_hit(front, "/api/daily", {}),
        "private": fetch(front.base, f"/api/attempts/{attempt}", headers=mine),
        "private 304": fetch(
            front.base, f"/api/attempts/{attempt}", headers={**mine, "If-None-Match": tag}
        ),
        "error": fetch(front.base, "/api/attempts/nope"),
        "page": fetch(front.base, "/rules"),
        "created": created,
    }
    assert answers["private 304"].status == 304
    for name, answer in answers.items():
        for header, value in security.HEADERS.items():
            assert answer.headers.get_all(header) == [value], (name, header)
        assert answer.headers.get_all("Strict-Transport-Security") == ["max-age=31536000"]
        ids = answer.headers.get_all("X-Request-ID") or []
        assert len(ids) == 1 and re.fullmatch(r"[0-9a-f]{32}", ids[0]), (name, ids)
    hits = [answers["public hit"], answers["public hit again"]]
    assert hits[0].headers["X-Request-ID"] != hits[1].headers["X-Request-ID"]


@pytest.mark.parametrize("site", ["pikdame.conf", "compose.conf"])
def test_the_shipped_site_loads_into_debians_own_nginx_conf(tmp_path: Path, site: str) -> None:
    """Defects: http.conf said ``gzip on`` in the http block, where Debian's
    nginx.conf says it already, and pikdame.conf said ``http2 on``, which Debian 12's nginx 1.22
    does not know: nginx refused the installed site. The tests' own nginx.conf had no such
    line and no TLS server, and never saw either. Here the host's nginx.conf (its paths moved
    under a temporary prefix) includes the site as installed, with a throwaway certificate:
    ``nginx -t``."""
    host = host_conf()
    installed = tmp_path / "pikdame"
    installed.mkdir()
    install_site(NGINX_DIR, installed)  # as /etc/nginx/pikdame/ holds them
    (installed / "main.conf").write_text((NGINX_DIR / "main.conf").read_text())
    key, cert = tmp_path / "privkey.pem", tmp_path / "fullchain.pem"
    openssl = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    subprocess.run(
        [*openssl, "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    text = (NGINX_DIR / site).read_text().replace("/etc/nginx/pikdame/", f"{installed}/")
    text = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", text)
    text = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", text)
    text = re.sub(r"listen (80|443)", r"listen 127.0.0.1:\1", text)
    if site == "compose.conf":  # the containers: service names, and the image's nginx 1.27
        text = re.sub(r"server [a-z]+:(\d+);", r"server 127.0.0.1:\1;", text)
        text = text.replace("http2 on;", "")  # 1.25's directive, unknown to Debian 12's 1.22
    (tmp_path / "site.conf").write_text(text)
    conf = re.sub(r"^\s*(user|pid|error_log)\b[^;]*;", "", host, flags=re.MULTILINE)
    conf = re.sub(r"include\s+/etc/nginx/modules-enabled/\S+;", "", conf)
    # deploy/README.md: the events block gives way to main.conf (connections for the streams)
    conf, replaced = re.subn(r"(?m)^events\s*\{[^}]*\}", f"include {installed}/main.conf;", conf)
    assert replaced == 1
    conf = re.sub(r"include\s+/etc/nginx/conf\.d/\S+;", "", conf)
    sites = f"include {tmp_path}/site.conf;"
    conf = re.sub(r"include\s+/etc/nginx/sites-enabled/\S+;", sites, conf)
    conf = re.sub(r"access_log\s+\S+;", f"access_log {tmp_path}/access.log;", conf)
    temp = "".join(f"{kind}_temp_path {tmp_path / kind}; " for kind in TEMP_KINDS)
    conf = conf.replace("http {", "http {\n" + temp, 1)
    (tmp_path / "nginx.conf").write_text(f"pid {tmp_path}/nginx.pid;\n{conf}")
    binary = nginx_binary()
    assert binary is not None
    check = subprocess.run(
        [binary, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stderr


def test_a_public_read_after_a_quiet_spell_is_answered_anew(
    stack: tuple[Front, WebServer, Path],
) -> None:
    """Defect: with ``proxy_cache_use_stale updating`` nginx answered the first read of an
    entry past its second with the entry itself, however old (up to the cache's 10 inactive
    minutes), while it renewed it in the background: after a quiet spell the first player
    after the day's reset was told yesterday's challenge. Now the app allows a stale answer
    for a second past the entry's lifetime only (stale-while-revalidate=1): under a crowd one
    request still renews an entry while the others are answered from it, and after a quiet
    spell the read goes to the app. The spell is waited for (three seconds of no reads)."""
    front, web, _ = stack
    path = "/api/daily?lang=de&quiet=1"  # a URL of its own
    before = fetch(front.base, path).json()["attempts"]
    created = start(front, "127.0.0.12")
    assert created.status == 201, created.body
    now = fetch(web.base, "/api/daily").json()["attempts"]
    assert now > before
    threading.Event().wait(3)  # the entry's second and its stale second are over
    after = fetch(front.base, path)
    assert (after.headers["X-Cache-Status"], after.json()["attempts"]) == ("EXPIRED", now)
