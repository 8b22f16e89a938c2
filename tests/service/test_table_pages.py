"""The tables' pages and their one non-API endpoint: the replay positions of a
finished table, public once the game has ended (every seed revealed) and refused before."""

from __future__ import annotations

import json
import re
from typing import Any

from flask.testing import FlaskClient

from engine import Rules, State
from tests.support.api import caller


def make_table(client: FlaskClient, game: str = "pikdame") -> str:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "zen"}, {"kind": "bot", "level": "zen"}]
    rules: dict[str, Any] = {"turn_timer": None, "strict_1000": False}
    if game == "pikdame":
        rules["hand_out_double"] = False
    if game == "gin":  # a duel, its own levels and no house rules (G2)
        seats, rules = [{"kind": "human"}, {"kind": "bot", "level": "plain"}], {"turn_timer": None}
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
    for game in ("pikdame", "tausende", "gin"):
        table_id = make_table(client, game)
        table = client.get(f"/tables/{table_id}").get_data(as_text=True)
        assert scripts(table) == [f"/static/js/{game}/table.js"], game
        replay = client.get(f"/tables/{table_id}/replay").get_data(as_text=True)
        viewer = "gin" if game == "gin" else "pikdame"  # Tausende's rounds in Pik Dame's viewer
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
