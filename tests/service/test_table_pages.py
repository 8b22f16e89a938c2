"""The tables' pages and their one non-API endpoint: the replay positions of a
finished table, public once the game has ended (every seed revealed) and refused before."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine import Rules, State
from engine import games as engine_games
from service import games
from service.games.adapter import form_facts
from service.tables import store as tables
from tests.support.api import caller


def make_table(client: FlaskClient, game: str = "pikdame") -> str:
    """A table of ``game`` as its declaration allows (service.games): three seats where it may
    have them (else its most), bots at its last level, its house rules off."""
    adapter = games.offering(games.TABLES)[game]
    players = 3 if 3 in adapter.seat_counts else max(adapter.seat_counts)
    bot = {"kind": "bot", "level": adapter.levels[-1]}
    seats = [{"kind": "human"}, *(bot for _ in range(players - 1))]
    rules: dict[str, Any] = {"turn_timer": None}
    rules |= {option.key: False for option in adapter.form.options}
    spec = {"game": game, "name": "Ada", "seats": seats, "rules": rules}
    status, body = caller(client)("POST", "/api/tables", spec)
    assert status == 201, body
    return str(body["table"]["id"])


SITE_SCRIPT = "/static/js/site.js"  # every page's (base.html): settings, service worker


def scripts(html: str) -> list[str]:
    """The page's own module scripts (every page's site.js left out), without their version."""
    found = [src.split("?")[0] for src in re.findall(r'<script type="module" src="([^"]+)"', html)]
    assert found[0] == SITE_SCRIPT, found
    return found[1:]


def test_every_game_has_its_pages_and_scripts(client: FlaskClient) -> None:
    """Each game's pages are templates/<game>/<page>.html with the game's own scripts
    (static/js/<game>/): a table's page and its replay by the table's game, the rules in both
    languages, the dailies' pages; an unknown table gets Pik Dame's page, which says so."""
    assert {"pikdame", "tausende", "gin"} <= set(games.TABLE_GAMES)
    for game in games.TABLE_GAMES:
        table_id = make_table(client, game)
        table = client.get(f"/tables/{table_id}").get_data(as_text=True)
        assert scripts(table) == [f"/static/js/{game}/table.js"], game
        replay = client.get(f"/tables/{table_id}/replay").get_data(as_text=True)
        # the viewer of the engine that plays it: Tausende's rounds in Pik Dame's (R12)
        viewer = engine_games.package(game).rpartition(".")[2]
        assert scripts(replay) == [f"/static/js/{viewer}/replay.js"], game
    unknown = client.get("/tables/0000000000000000")
    assert unknown.status_code == 200
    assert scripts(unknown.get_data(as_text=True)) == ["/static/js/pikdame/table.js"]
    for path, script in (
        ("/play/x", "pikdame/play.js"),
        ("/replay/x", "pikdame/replay.js"),
        ("/gin/play/x", "gin/play.js"),
        ("/gin/replay/x", "gin/replay.js"),
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert scripts(response.get_data(as_text=True)) == [f"/static/js/{script}"], path
    titles = {
        ("/rules", "de"): "Regeln",
        ("/rules", "en"): "Rules",
        ("/rules/tausende", "de"): "Tausende",
        ("/rules/tausende", "en"): "Tausende",
        ("/rules/gin", "de"): "Gin Rommé",
        ("/rules/gin", "en"): "Gin Rummy",
        ("/rules", "nl"): "Regels",
        ("/rules/tausende", "nl"): "Duizenden",
        ("/rules/gin", "nl"): "Gin Rummy",
    }
    for (path, lang), title in titles.items():
        html = client.get(f"{path}?lang={lang}").get_data(as_text=True)
        assert f'<html lang="{lang}">' in html, (path, lang)
        assert re.search(f"<title>{title} · ", html), (path, lang)


def test_pages_render(client: FlaskClient) -> None:
    table_id = make_table(client)
    for path in ("/spielen", "/t/abc", f"/tables/{table_id}", f"/tables/{table_id}/replay"):
        response = client.get(path)
        assert response.status_code == 200, path
    html = client.get("/spielen").get_data(as_text=True)
    # Gin (its own table page) and Tausende (R12) are offered beside Pik Dame
    assert 'value="pikdame" checked' in html
    assert 'value="gin">' in html and 'value="gin" disabled' not in html
    assert 'value="tausende">' in html and 'value="tausende" disabled' not in html
    assert 'id="ace_high_only"' in html


def test_replay_positions_only_once_finished(client: FlaskClient) -> None:
    assert client.get("/tables/0000000000000000/replay/positions").status_code == 404
    table_id = make_table(client)
    call = caller(client)
    assert call("POST", f"/api/tables/{table_id}/start", {})[0] == 200
    running = client.get(f"/tables/{table_id}/replay/positions")
    assert running.status_code == 409
    assert running.get_json()["error"]["code"] == "not_finished"
    status, body = call("POST", f"/api/tables/{table_id}/resign", {})  # R8: alone with bots
    assert status == 200 and body["pending"] == []
    doc = client.get(f"/tables/{table_id}/replay/positions").get_json()
    record = client.get(f"/api/tables/{table_id}/record").get_json()
    assert doc["record"] == record
    assert len(doc["rounds"]) == len(record["rounds"]) == 1
    entry = record["rounds"][0]
    seed = bytes.fromhex(entry["seed"])
    deal = State.new_round(seed, Rules.from_json(record["rules"]), entry["dealer"], entry["cut"])
    shown = doc["rounds"][0]
    assert shown["positions"][0] == deal.to_position()
    assert len(shown["positions"]) == len(entry["moves"]) + 1


def _create_and_start(client: FlaskClient, game: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table of ``game`` with bots as its declaration allows: T waiting, then started."""
    adapter = games.offering(games.TABLES)[game]
    players = 3 if 3 in adapter.seat_counts else max(adapter.seat_counts)
    seats = [{"kind": "human"}, *({"kind": "bot"} for _ in range(players - 1))]
    status, made = caller(client)(
        "POST", "/api/tables", {"game": game, "name": "Ada", "seats": seats}
    )
    assert status == 201, made
    call = caller(client, made["token"])
    status, started = call("POST", f"/api/tables/{made['table']['id']}/start", {})
    assert status == 200, started
    return made["table"], started["table"]


class _Undeclared:
    """A game's adapter that declares no field of its own (a game without a cut), else the
    real one's."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.table_fields: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_a_tables_document_carries_its_games_own_fields_and_no_others(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39 item 2: T's fields are every game's and those the game's adapter declares
    (``table_fields``: Pik Dame's cut and lucky grab, R2, R3), as it declares them before the
    first deal and as its facts fill them after; shared code adds no game's field."""
    shared: set[str] | None = None
    for game in games.TABLE_GAMES:
        adapter = games.offering(games.TABLES)[game]
        waiting, started = _create_and_start(client, game)
        own = set(adapter.table_fields)
        assert {key: waiting[key] for key in own} == adapter.table_fields, game
        shared = set(waiting) - own if shared is None else shared
        assert set(waiting) - own == shared, game
        assert own <= set(started) and set(started) - own == shared, game
    assert shared is not None and not {"cutter", "awaiting_cut", "lucky"} & shared
    # a game that declares none of them: its T has none, waiting or started
    monkeypatch.setattr(tables.Table, "kind", property(lambda t: _Undeclared(games.get(t.game))))
    for doc in _create_and_start(client, games.TABLE_GAMES[0]):
        assert set(doc) == shared


def test_the_new_table_form_is_built_from_the_games_declarations(client: FlaskClient) -> None:
    """Issue 39 item 3: the form's data (templates/table_new.html, js/tables/new.js) is each
    offered game's declaration (service.games.adapter.form_facts): seat counts, levels with
    their names, hints, house rules; the page offers a seat count, a seat and a checkbox for
    each, and names no game's levels or options itself."""
    html = client.get("/spielen").get_data(as_text=True)
    start = html.index('id="table-forms">') + len('id="table-forms">')
    forms = json.loads(html[start : html.index("</script>", start)])
    tables = games.offering(games.TABLES)
    assert forms == [form_facts(tables[game]) for game in games.LISTED if game in tables]
    for form in forms:
        assert form["levels"] and form["default_level"] in [lv["level"] for lv in form["levels"]]
        for n in form["seats"]:
            assert f'name="players" value="{n}"' in html, (form["game"], n)
        for seat in range(1, max(form["seats"])):
            assert f'id="level-{seat}"' in html and f'id="kind-{seat}"' in html
        for option in form["options"]:
            assert f'id="{option["key"]}" name="{option["key"]}" data-house-rule' in html
    template = (Path(__file__).resolve().parents[2] / "templates" / "table_new.html").read_text()
    written = {*games.LEVELS, *(o["key"] for form in forms for o in form["options"])}
    for word in written:  # as the old form listed them: ['beginner', 'advanced', 'zen']
        assert f"'{word}'" not in template and f'"{word}"' not in template, word


def preview_of(html: str) -> dict[str, Any]:
    start = html.index('id="table-preview">') + len('id="table-preview">')
    found: dict[str, Any] = json.loads(html[start : html.index("</script>", start)])
    return found


def test_the_invite_page_previews_game_rules_and_seats_and_nothing_private(
    client: FlaskClient,
) -> None:
    """A friend opening an invite sees the game, its rules (R9) and the seats before
    joining; the preview carries no token, no player id and (once started) no card (R10)."""
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "zen"}]
    rules = {"turn_timer": 90, "strict_1000": True, "no_joker_swap": True}
    spec = {"game": "tausende", "name": "Ada", "seats": seats, "rules": rules}
    status, body = caller(client)("POST", "/api/tables", spec)
    assert status == 201, body
    friend = client.application.test_client()  # another person: the creator goes to the table
    own = client.get(f"/t/{body['invite']}?lang=en")
    assert own.status_code == 303
    assert own.headers["Location"] == f"/tables/{body['table']['id']}?lang=en"
    html = friend.get(f"/t/{body['invite']}").get_data(as_text=True)
    assert 'id="join-form"' in html and 'id="join-closed"' not in html
    assert preview_of(html) == {
        "game": "tausende",
        "status": "waiting",
        "rules": {
            "players": 3,
            "turn_timer": 90,
            "strict_1000": True,
            "ace_high_only": False,
            "no_joker_swap": True,
            "go_out_on_opening": False,
            "hints": True,
        },
        "seats": [
            {"kind": "human", "name": "Ada"},
            {"kind": "human", "name": None},
            {"kind": "bot", "level": "zen"},
        ],
    }
    assert body["token"] not in html
    assert caller(client)("POST", f"/api/tables/{body['table']['id']}/start", {})[0] == 200
    started_html = friend.get(f"/t/{body['invite']}").get_data(as_text=True)
    assert 'id="join-closed"' in started_html and 'id="join-form"' not in started_html
    assert body["token"] not in started_html
    started = preview_of(started_html)
    assert started["status"] == "playing"
    assert sorted(started) == ["game", "rules", "seats", "status"]  # no view, no hand
    unknown = friend.get("/t/no-such-invite").get_data(as_text=True)
    assert 'id="table-preview"' not in unknown and 'id="join-form"' in unknown
