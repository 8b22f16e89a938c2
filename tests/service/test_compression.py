"""Public answers leave the app compressed when gzip is asked (service/web/compression.py),
so nginx's micro-cache keeps them compressed; and behind the shipped front the app leaves the
fixed security headers and the request id to nginx (service/web/proxies.py)."""

from __future__ import annotations

import gzip
import re

import redis
from flask.testing import FlaskClient

from service.web import security
from tests.support.api import start
from tests.support.service_app import Clock, make_app

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_a_public_read_asked_with_gzip_is_compressed(client: FlaskClient) -> None:
    plain = client.get("/api/daily")
    packed = client.get("/api/daily", headers=GZIP)
    public = "public, max-age=1, stale-while-revalidate=1"
    assert plain.headers["Cache-Control"] == packed.headers["Cache-Control"] == public
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data)
    for answer in (plain, packed):  # either way a shared cache must tell them apart
        assert "Accept-Encoding" in answer.headers["Vary"]
    # the same bytes from every worker, every time (no timestamp in the gzip header)
    assert client.get("/api/daily", headers=GZIP).data == packed.data


def test_gzip_refused_or_a_private_answer_is_left_plain(client: FlaskClient, clock: Clock) -> None:
    for refusal in ("gzip;q=0", "identity", "br"):
        answer = client.get("/api/daily", headers={"Accept-Encoding": refusal})
        assert "Content-Encoding" not in answer.headers, refusal
    attempt, token = start(client, clock.today, "Gisela")
    bearer = {"Authorization": f"Bearer {token}"}
    mine = client.get(f"/api/attempts/{attempt['id']}", headers={**bearer, **GZIP})
    assert mine.status_code == 200
    assert "Content-Encoding" not in mine.headers  # never stored: nginx compresses it per request
    with_token = client.get("/api/daily", headers={**bearer, **GZIP})
    assert "Content-Encoding" not in with_token.headers  # no-store: not a shared answer


def test_a_versioned_static_file_is_compressed_with_a_weak_tag(client: FlaskClient) -> None:
    page = client.get("/rules").get_data(as_text=True)
    found = re.search(r'href="(/static/css/site\.css\?v=[0-9a-f]{12})"', page)
    assert found
    plain = client.get(found.group(1))
    packed = client.get(found.group(1), headers=GZIP)
    assert "immutable" in packed.headers["Cache-Control"]
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert packed.headers["ETag"] == "W/" + plain.headers["ETag"]


def test_behind_the_front_the_app_leaves_the_fixed_headers_to_it(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    """``X-Pikdame-Front: headers`` counts from a trusted proxy only: from anyone else the app
    sends every security header itself."""
    front = {"X-Pikdame-Front": "headers", "X-Request-ID": "abc-123"}
    behind = make_app(redis_url, clock, PIKDAME_PROXIES="127.0.0.1").test_client()
    exposed = make_app(redis_url, clock, PIKDAME_PROXIES="10.0.0.1").test_client()
    for path in ("/api/daily", "/api/attempts/nope", "/rules"):
        left = behind.get(path, headers=front)
        for header in (*security.HEADERS, "X-Request-ID"):
            assert header not in left.headers, (path, header)
        if path.startswith("/api/"):
            assert left.headers["Cache-Control"]  # what varies by answer stays the app's
        kept = exposed.get(path, headers=front)
        for header, value in security.HEADERS.items():
            assert kept.headers[header] == value, (path, header)
        assert kept.headers["X-Request-ID"] == "abc-123"
