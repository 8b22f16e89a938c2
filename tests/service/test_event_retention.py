"""Retention of the week's tournament (docs/EVENTS.md, "Retention"): a deleted account's name in
the event's standings, live and final, and in its deals, and how long an event's deals are kept.

Reading chosen (issue 42 and the accounts' deletion are silent on it): a deleted account is shown
as the neutral placeholder "gelöscht" wherever the event names it (the standings, live and
final, the season, its deals' attempts), and its results stay in the field, so the other
players' matchpoints, places and season points do not change after the event they played.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.accounts import store as accounts
from service.common import keys
from service.dailies import store as attempts
from service.events import deals, places, store, weeks
from service.web.redisconn import settings_of
from tests.support.accounts import ORIGIN, sign_up
from tests.support.api import caller
from tests.support.authenticator import Authenticator
from tests.support.events import resign_deal, start_deal
from tests.support.player import play_to_end
from tests.support.service_app import SECRET, Clock
from worker.events import verified_event

GAME = "pikdame"
WEEK = "2026-W49"  # Monday 2026-11-30 (the service tests' clock) to Sunday 2026-12-06
BASE = f"/api/events/{GAME}/{WEEK}"


@pytest.fixture(autouse=True)
def accounts_deployment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIKDAME_RANK_ANONYMOUS", "0")


def _standings(client: FlaskClient) -> dict[str, Any]:
    response = client.get(f"{BASE}/standings")
    assert response.status_code == 200, response.get_json()
    doc: dict[str, Any] = response.get_json()
    return doc


def _window_names(client: FlaskClient) -> list[str]:
    """The names of a window of the standings (read from the place index)."""
    response = client.get(f"{BASE}/standings?offset=0&limit=100")
    assert response.status_code == 200, response.get_json()
    return [e["name"] for e in response.get_json()["entries"]]


def _results(doc: dict[str, Any]) -> dict[str, tuple[int, float, int]]:
    return {e["name"]: (e["place"], e["percent"], e["tops"]) for e in doc["entries"]}


def test_a_deleted_accounts_name_is_gelöscht_in_the_standings_and_the_field_stays(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """Reading chosen (docs/EVENTS.md, "Retention"): once Bob deletes his account, the live
    standings, the final standings (kept since the close) and his deals' attempts show
    "gelöscht" instead of his name, his own place and results stay, and Ada's and Cy's
    matchpoints, places and tops are what they were: nobody's result against the field changes
    because another player left."""
    players: dict[str, FlaskClient] = {}
    for name in ("Ada", "Bob", "Cy"):
        players[name] = app.test_client()
        sign_up(players[name], Authenticator(ORIGIN), name)
    attempts: dict[str, list[str]] = {name: [] for name in players}
    for _ in range(6):  # Ada plays every deal out; Bob and Cy resign (a tie on every deal)
        for name, web in players.items():
            attempt = start_deal(web, BASE, name)["attempt"]
            attempts[name].append(attempt["id"])
            if name == "Ada":
                play_to_end(caller(web), attempt["id"], use_hints=False)
            else:
                resign_deal(web, attempt)
            clock.advance(seconds=1)
    for ids in attempts.values():
        for attempt_id in ids:
            assert verified_event(rdb, attempt_id, SECRET, rankings).result["status"] == "verified"
    clock.advance(seconds=61)
    live = _standings(app.test_client())
    assert sorted(_results(live)) == ["Ada", "Bob", "Cy"]

    assert players["Bob"].delete("/api/account", json={}).status_code == 200
    after = _standings(app.test_client())  # at once: not 20 s later
    assert "Bob" not in _results(after) and accounts.DELETED_NAME in _results(after)
    assert _results(after)[accounts.DELETED_NAME] == _results(live)["Bob"]
    for name in ("Ada", "Cy"):
        assert _results(after)[name] == _results(live)[name]
    assert after["distributions"] == live["distributions"]
    assert _window_names(app.test_client()) == [e["name"] for e in after["entries"]]
    for attempt_id in attempts["Bob"]:
        assert rdb.hget(keys.attempt(attempt_id), "name") == accounts.DELETED_NAME
    assert "Bob" not in rdb.hvals(deals.names_key(GAME, WEEK))

    # the final standings, kept since the close: Cy deletes hers after it
    clock.set_day("2026-12-08")
    final = _standings(app.test_client())
    assert final["final"] is True
    assert players["Cy"].delete("/api/account", json={}).status_code == 200
    kept = _standings(app.test_client())
    assert kept["final"] is True
    assert "Cy" not in {e["name"] for e in kept["entries"]}
    assert [e["name"] for e in kept["entries"]].count(accounts.DELETED_NAME) == 2
    assert [(e["place"], e["percent"], e["tops"]) for e in kept["entries"]] == [
        (e["place"], e["percent"], e["tops"]) for e in final["entries"]
    ]
    assert "Cy" not in (rdb.get(deals.final_key(GAME, WEEK)) or "")
    # the final standings' place index too (a window, /me): rewritten with the document
    assert _window_names(app.test_client()) == [e["name"] for e in kept["entries"]]
    assert "Cy" not in str(rdb.hvals(places.index_key(GAME, WEEK, True)))


def test_an_events_deals_are_kept_for_the_period_then_only_its_final_standings(
    app: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """docs/EVENTS.md, "Retention": a deal's attempt, its token and the event's per-entrant keys
    live until PIKDAME_EVENT_KEEP_DAYS after the close; once the final standings are kept, the
    field's counts live as long; the final standings themselves stay (the archive and the
    season read them), and the archive still lists the week when everything else is gone."""
    config = settings_of(app)
    web = app.test_client()
    sign_up(web, Authenticator(ORIGIN), "Ada")
    created = start_deal(web, BASE, "Ada")
    attempt = resign_deal(web, created["attempt"])
    assert verified_event(rdb, attempt["id"], SECRET, rankings).result["status"] == "verified"
    keep = weeks.closes_at(WEEK, config) + dt.timedelta(days=config.event_keep_days)
    expected = (keep - clock.moment).total_seconds()
    player = rdb.hget(keys.attempt(attempt["id"]), "player")
    assert player is not None
    lived = {
        key: rdb.ttl(key)
        for key in (
            keys.attempt(attempt["id"]),
            keys.token(attempts.token_hash(created["token"])),
            deals.player_key(GAME, WEEK, player),
            deals.started_key(GAME, WEEK),
            deals.names_key(GAME, WEEK),
        )
    }
    assert all(expected - 30 <= ttl <= expected for ttl in lived.values()), (expected, lived)

    clock.moment = weeks.closes_at(WEEK, config) + dt.timedelta(hours=1)
    final = _standings(app.test_client())
    assert final["final"] is True and final["incomplete"][0]["name"] == "Ada"
    assert rdb.ttl(deals.final_key(GAME, WEEK)) == -1  # kept
    left = (keep - clock.moment).total_seconds()
    for key in (store.deal_key(GAME, WEEK, 1), store.done_key(GAME, WEEK)):
        assert left - 30 <= rankings.ttl(key) <= left, key
    # past the period (the keys' expiry, here by hand): the standings and the archive remain
    for key in [*lived, store.deal_key(GAME, WEEK, 1), store.histogram_key(GAME, WEEK, 1)]:
        rdb.delete(key)
        rankings.delete(key)
    clock.moment = keep + dt.timedelta(days=1)
    assert _standings(app.test_client()) == final
    page = app.test_client().get("/turnier/archiv")
    assert page.status_code == 200 and WEEK in page.get_data(as_text=True)
