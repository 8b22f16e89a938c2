"""The standings in windows and the caller's own place (docs/EVENTS.md, "The API"; issue 42's
scaling step, deploy/SCALING.md "Limits"): at 100,000 entrants the whole standings document is
7.6 MB and a signed-in read made the app read and rewrite it. A window
(``?offset=&limit=``) and ``…/standings/me`` are read from the place index written with the
``:live`` / ``:final`` document (service.events.places): the windows put together are the whole
answer, ``/me`` answers the caller's line (signed in, by bearer token) and nobody else's, and
neither needs the document once the index is fresh."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.events import deals, places, store
from tests.support.accounts import ORIGIN, sign_up
from tests.support.authenticator import Authenticator
from tests.support.events import resign_deal, start_deal
from tests.support.service_app import SECRET, Clock
from worker.events import verified_event

GAME = "pikdame"
WEEK = "2026-W49"  # Monday 2026-11-30 (the service tests' clock) to Sunday 2026-12-06
BASE = f"/api/events/{GAME}/{WEEK}"
#: The made-up field: 23 complete entrants (ties common), 7 incomplete ones.
FIELD = 30


@pytest.fixture(autouse=True)
def accounts_deployment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIKDAME_RANK_ANONYMOUS", "0")


def _get(client: FlaskClient, path: str, **headers: str) -> dict[str, Any]:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, (path, response.get_json())
    doc: dict[str, Any] = response.get_json()
    return doc


def _field(rankings: redis.Redis[str], rdb: redis.Redis[str]) -> list[str]:
    """Made-up entrants folded in directly (their ids ``fNN``, names ``Spieler NN``)."""
    ids = [f"f{i:02d}" for i in range(FIELD)]
    for i, player in enumerate(ids):
        played = 6 if i < 23 else 1 + i % 5
        for n in range(1, played + 1):
            assert store.fold(rankings, GAME, WEEK, player, n, (i * 7 + n * 3) % 11 - 5, 1000 + i)
        rdb.hset(deals.names_key(GAME, WEEK), player, f"Spieler {i:02d}")
    return ids


def _play(app: Flask, rdb: redis.Redis[str], rankings: redis.Redis[str], name: str, n: int) -> Any:
    """An account that plays (resigns) ``n`` deals, each verified: its client and last token."""
    web = app.test_client()
    sign_up(web, Authenticator(ORIGIN), name)
    token = None
    for _ in range(n):
        created = start_deal(web, BASE, name)
        attempt = resign_deal(web, created["attempt"])
        assert verified_event(rdb, attempt["id"], SECRET, rankings).result["status"] == "verified"
        token = created["token"]
    return web, token


def _windows(client: FlaskClient, limit: int) -> tuple[list[Any], list[Any], dict[str, Any]]:
    entries: list[Any] = []
    incomplete: list[Any] = []
    offset = 0
    while True:
        page = _get(client, f"{BASE}/standings?offset={offset}&limit={limit}")
        assert (page["offset"], page["limit"]) == (offset, limit)
        assert len(page["entries"]) <= limit and len(page["incomplete"]) <= limit
        entries += page["entries"]
        incomplete += page["incomplete"]
        offset += limit
        if offset >= max(page["total"], page["incomplete_total"]):
            return entries, incomplete, page


def test_windows_put_together_are_the_whole_standings(
    app: Flask, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """Any window size: the entries and the incomplete players in order, the totals, the
    distributions; the unpaged answer is what it was (no window's keys)."""
    ids = _field(rankings, rdb)
    anonymous = app.test_client()
    whole = _get(anonymous, f"{BASE}/standings")
    assert set(whole) == {"game", "week", "final", "entries", "incomplete", "distributions"}
    assert len(whole["entries"]) == 23 and len(whole["incomplete"]) == 7
    for limit in (1, 4, 7, 23, 100):
        entries, incomplete, last = _windows(anonymous, limit)
        assert entries == whole["entries"], limit
        assert incomplete == whole["incomplete"], limit
        assert (last["total"], last["incomplete_total"]) == (23, 7)
        assert last["distributions"] == whole["distributions"]
        assert last["final"] is False and last["game"] == GAME and last["week"] == WEEK
    # one argument is a window too, the other its default (the daily board's: 0 and 50)
    assert _get(anonymous, f"{BASE}/standings?limit=5")["entries"] == whole["entries"][:5]
    page = _get(anonymous, f"{BASE}/standings?offset=20")
    assert page["limit"] == 50 and page["entries"] == whole["entries"][20:]
    beyond = _get(anonymous, f"{BASE}/standings?offset=500&limit=10")
    assert beyond["entries"] == [] and beyond["incomplete"] == [] and beyond["total"] == 23
    text = anonymous.get(f"{BASE}/standings?offset=0&limit=100").get_data(as_text=True)
    assert not any(f'"{p}"' in text for p in ids)  # never a player's id
    # a window without credentials is public, as the whole standings
    assert "public" in anonymous.get(f"{BASE}/standings?limit=5").headers["Cache-Control"]


def test_bad_window_values_are_the_usual_422(app: Flask) -> None:
    web = app.test_client()
    for query in ("offset=-1", "limit=0", "limit=101", "offset=x", "limit=1.5", "offset=%201"):
        response = web.get(f"{BASE}/standings?{query}")
        assert response.status_code == 422, query
        assert response.get_json()["error"]["code"] == "bad_value", query
    # the week first (404 before 422, API.md's order)
    response = web.get(f"/api/events/{GAME}/2030-W99/standings?limit=0")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "unknown_event"


def test_your_place_by_session_token_and_none_for_others(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """Ada finished every deal (signed in, or by a deal's bearer token), Bob two (incomplete),
    Cy signed up and played nothing, an anonymous reader has no place: ``entry`` and
    ``incomplete`` null, 200 (the page needs no error path)."""
    _field(rankings, rdb)
    ada, token = _play(app, rdb, rankings, "Ada", 6)
    bob, _ = _play(app, rdb, rankings, "Bob", 2)
    cy, _ = _play(app, rdb, rankings, "Cy", 0)
    clock.advance(seconds=61)
    whole = _get(ada, f"{BASE}/standings")
    mine = next(e for e in whole["entries"] if e["you"])
    line = {k: v for k, v in mine.items() if k != "you"}

    for headers, web in (({}, ada), ({"Authorization": f"Bearer {token}"}, app.test_client())):
        me = _get(web, f"{BASE}/standings/me", **headers)
        assert me["entry"] == line and me["incomplete"] is None, headers
        assert (me["total"], me["incomplete_total"], me["final"]) == (24, 8, False)
    me = _get(bob, f"{BASE}/standings/me")
    at = [e["name"] for e in whole["incomplete"]].index("Bob")  # (most deals first)
    assert me["entry"] is None and me["incomplete"] == {"name": "Bob", "deals": 2, "offset": at}
    for web in (cy, app.test_client()):
        me = _get(web, f"{BASE}/standings/me")
        assert me["entry"] is None and me["incomplete"] is None and me["total"] == 24
    # /me is the caller's alone: no-store, never a public answer
    assert "public" not in app.test_client().get(f"{BASE}/standings/me").headers.get(
        "Cache-Control", ""
    )
    unknown = app.test_client().get(
        f"{BASE}/standings/me", headers={"Authorization": "Bearer nope"}
    )
    assert unknown.status_code == 401
    assert app.test_client().get(f"/api/events/{GAME}/2030-W99/standings/me").status_code == 404

    # a signed-in window marks the caller's own line, as the whole answer does
    place = mine["place"]
    page = _get(ada, f"{BASE}/standings?offset={place - 2}&limit=3")
    assert [e["you"] for e in page["entries"]] == [e["place"] == place for e in page["entries"]]
    assert mine in page["entries"]
    anonymous = _get(app.test_client(), f"{BASE}/standings?limit=100")
    assert not any(e["you"] for e in anonymous["entries"] + anonymous["incomplete"])
    bobs = _get(bob, f"{BASE}/standings?limit=100")["incomplete"]
    assert [e["name"] for e in bobs if e["you"]] == ["Bob"]


def test_the_index_is_written_with_the_live_document(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """The live document and its index in one transaction: the same instant, the same expiry;
    while fresh, a window and /me read the index alone (the document is not read: here it is
    gone and stays gone); once FRESH_S old both are computed anew."""
    ada, _ = _play(app, rdb, rankings, "Ada", 6)
    _field(rankings, rdb)
    live, index = deals.live_key(GAME, WEEK), places.index_key(GAME, WEEK, False)
    whole = _get(app.test_client(), f"{BASE}/standings")
    doc = json.loads(rdb.get(live) or "{}")
    head = places.head_of(rdb.hget(index, places.HEAD) or "{}")
    assert head.at == doc["at"] and head.total == len(doc["entries"]) == len(whole["entries"])
    assert abs(rdb.ttl(live) - rdb.ttl(index)) <= 1 and 0 < rdb.ttl(index) <= 120
    for k, entry in enumerate(doc["entries"]):
        assert rdb.hget(index, f"p:{entry['player']}") == f"e{k}"
        assert "player" not in json.loads(rdb.hget(index, f"e{k}") or "{}")

    rdb.delete(live)  # a fresh index answers alone
    assert _get(ada, f"{BASE}/standings/me")["entry"]["name"] == "Ada"
    assert _get(app.test_client(), f"{BASE}/standings?limit=3")["entries"] == whole["entries"][:3]
    assert not rdb.exists(live)

    # a new result: not seen while the index is fresh, seen once FRESH_S old (computed anew)
    assert store.fold(rankings, GAME, WEEK, "late", 1, 99, 5000)
    rdb.hset(deals.names_key(GAME, WEEK), "late", "Spät")
    assert _get(app.test_client(), f"{BASE}/standings?limit=1")["incomplete_total"] == 7
    clock.advance(seconds=21)
    page = _get(app.test_client(), f"{BASE}/standings?limit=1")
    assert page["incomplete_total"] == 8 and rdb.exists(live)


def test_after_the_close_your_place_is_the_final_standings(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """After the close: the final document's index (kept with the event's retention), the same
    place as the whole final standings; an index gone (past the retention, or a final kept
    before the index existed) is rebuilt from the kept document on a read."""
    ada, token = _play(app, rdb, rankings, "Ada", 6)
    bob, _ = _play(app, rdb, rankings, "Bob", 3)
    _field(rankings, rdb)
    clock.set_day("2026-12-08")
    whole = _get(ada, f"{BASE}/standings")
    assert whole["final"] is True
    mine = next({k: v for k, v in e.items() if k != "you"} for e in whole["entries"] if e["you"])
    me = _get(ada, f"{BASE}/standings/me")
    assert me["final"] is True and me["entry"] == mine
    index = places.index_key(GAME, WEEK, True)
    assert rdb.ttl(index) > 7 * 86_400  # the event's retention (28 days after the close)
    bobs = _get(bob, f"{BASE}/standings/me")["incomplete"]
    at = [e["name"] for e in whole["incomplete"]].index("Bob")
    assert bobs == {"name": "Bob", "deals": 3, "offset": at}
    entries, incomplete, last = _windows(app.test_client(), 10)
    assert last["final"] is True
    assert entries == [{**e, "you": False} for e in whole["entries"]]
    assert incomplete == [{**e, "you": False} for e in whole["incomplete"]]

    rdb.delete(index)
    me = _get(app.test_client(), f"{BASE}/standings/me", Authorization=f"Bearer {token}")
    assert me["entry"] == mine and rdb.exists(index)


def test_after_the_close_a_pending_verdict_keeps_the_live_standings(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """Closed while a finished deal waits for its verdict: /me and a window answer the live
    standings (``final`` false, as the whole answer); once judged, the final ones."""
    ada, _ = _play(app, rdb, rankings, "Ada", 6)
    bob = app.test_client()
    sign_up(bob, Authenticator(ORIGIN), "Bob")
    pending = resign_deal(bob, start_deal(bob, BASE, "Bob")["attempt"])  # not verified yet
    clock.set_day("2026-12-08")
    assert _get(ada, f"{BASE}/standings")["final"] is False
    me = _get(ada, f"{BASE}/standings/me")
    assert me["final"] is False and me["entry"]["name"] == "Ada"
    assert _get(app.test_client(), f"{BASE}/standings?limit=5")["final"] is False
    assert verified_event(rdb, pending["id"], SECRET, rankings).result["status"] == "verified"
    me = _get(ada, f"{BASE}/standings/me")
    assert me["final"] is True and me["entry"]["name"] == "Ada"
    assert _get(bob, f"{BASE}/standings/me")["incomplete"]["deals"] == 1
    whole = _get(app.test_client(), f"{BASE}/standings")
    assert whole["final"] is True
    assert _get(app.test_client(), f"{BASE}/standings?limit=5")["entries"] == whole["entries"]
