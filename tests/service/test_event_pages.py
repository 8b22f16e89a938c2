"""The week's tournament's pages (docs/EVENTS.md, "Pages"): the event page, the standings and the
archive render in the asker's language for a week that has opened, and nothing for one that has
not (its commitments are not out: 404, as the API's ``unknown_event``). The pages carry no game
data (every page is a client of the API); the archive lists the closed weeks with entrants."""

from __future__ import annotations

import re

import redis
from flask.testing import FlaskClient

from service import games
from service.events import deals
from service.games.adapter import EVENT


def test_the_event_page_and_standings_render_in_each_language(client: FlaskClient) -> None:
    """The clock's Monday, 2026-11-30, lies in 2026-W49."""
    page = client.get("/turnier")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Wochenturnier" in text and 'data-game="pikdame"' in text
    english = client.get("/turnier/2026-W49?lang=en").get_data(as_text=True)
    assert "Weekly tournament" in english and 'data-week="2026-W49"' in english
    standings = client.get("/turnier/2026-W49/stand?lang=nl")
    assert standings.status_code == 200
    assert "Stand van het weektoernooi" in standings.get_data(as_text=True)


def test_a_week_not_yet_open_or_malformed_has_no_page(client: FlaskClient) -> None:
    for path in ("/turnier/2026-W50", "/turnier/2026-W50/stand", "/turnier/2025-W53", "/turnier/x"):
        assert client.get(path).status_code == 404, path


def test_the_archive_lists_the_closed_weeks_with_entrants(
    client: FlaskClient, rdb: redis.Redis[str]
) -> None:
    """2026-W47 had a ranked start, 2026-W48 none; the running week is never listed."""
    empty = client.get("/turnier/archiv").get_data(as_text=True)
    assert 'id="event-archive-empty"' in empty
    for week in ("2026-W47", "2026-W49"):
        rdb.hset(deals.started_key("pikdame", week), "a1", "p1/1")
    text = client.get("/turnier/archiv").get_data(as_text=True)
    assert '/turnier/2026-W47/stand"' in text
    assert "2026-11-16 – 2026-11-22" in text
    assert "2026-W48" not in text and "2026-W49/stand" not in text


def test_home_and_rankings_link_to_the_tournament(client: FlaskClient) -> None:
    for path in ("/", "/rankings"):
        assert 'href="/turnier"' in client.get(path).get_data(as_text=True), path


def test_the_season_page_of_a_month_begun(client: FlaskClient) -> None:
    """November 2026's events have opened (its last week is the clock's, 2026-W49 is
    December's: its Thursday is 2026-12-03); January 2027 has not begun."""
    this = client.get("/turnier/saison").get_data(as_text=True)
    assert 'data-month="2026-12"' in this and "/turnier/saison/2026-11" in this
    november = client.get("/turnier/saison/2026-11?lang=en")
    assert november.status_code == 200
    text = november.get_data(as_text=True)
    assert "Season standing" in text and "/turnier/2026-W45/stand" in text
    assert "/turnier/saison/2026-12" in text and "/turnier/saison/2027-01" not in text
    for path in ("/turnier/saison/2027-01", "/turnier/saison/2026-13", "/turnier/saison/x"):
        assert client.get(path).status_code == 404, path


def test_each_event_game_has_the_pages_with_a_switch(client: FlaskClient) -> None:
    """Every game declaring EVENT has the same pages, chosen by ?game= (the registry's, as the
    rankings' switch); the default game's URLs carry none; a game without an event is a 404."""
    assert tuple(games.offering(EVENT)) == deals.EVENT_GAMES
    marked = [name for name in deals.EVENT_GAMES if games.get(name).marked]
    assert marked, "a second event game (Gin) is offered"
    for name in marked:
        text = client.get(f"/turnier/2026-W49?game={name}").get_data(as_text=True)
        assert f'data-game="{name}"' in text and f'data-query="?game={name}"' in text
        assert f'data-prefix="{games.get(name).pages.prefix}"' in text
        assert f'href="/turnier/saison?game={name}"' in text
        assert f'href="{games.get(name).pages.rules}"' in text
        assert re.search(rf'data-game="{name}"[^>]*aria-current="page"', text)
        for path in ("/turnier", "/turnier/2026-W49/stand", "/turnier/saison", "/turnier/archiv"):
            page = client.get(f"{path}?game={name}")
            assert page.status_code == 200, path
            assert f'?game={name}"' in page.get_data(as_text=True), path
        home = client.get("/").get_data(as_text=True)
        assert f'href="/turnier?game={name}"' in home
        assert f'href="/turnier?game={name}"' in client.get("/rankings").get_data(as_text=True)
    plain = client.get("/turnier/2026-W49").get_data(as_text=True)
    assert 'data-query=""' in plain and 'href="/turnier/saison"' in plain
    unoffered = [name for name in games.GAMES if name not in deals.EVENT_GAMES]
    for name in [*unoffered, "nothing"]:
        assert client.get(f"/turnier?game={name}").status_code == 404, name


def test_the_archive_of_a_game_lists_its_own_weeks(
    client: FlaskClient, rdb: redis.Redis[str]
) -> None:
    """A week with a ranked start of one game is in that game's archive only."""
    name = next(name for name in deals.EVENT_GAMES if games.get(name).marked)
    rdb.hset(deals.started_key(name, "2026-W47"), "a1", "p1/1")
    text = client.get(f"/turnier/archiv?game={name}").get_data(as_text=True)
    assert f'/turnier/2026-W47/stand?game={name}"' in text
    assert 'id="event-archive-empty"' in client.get("/turnier/archiv").get_data(as_text=True)
