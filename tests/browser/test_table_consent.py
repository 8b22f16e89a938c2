"""Consent at a table in Chromium through the shipped nginx (docs/TABLES.md, issue 38): two
strangers at a rated Pik Dame table; one leaves, the other sees the away seat's countdown of
missed turns ("verliert nach noch 2 verpassten Zügen") and claims the game, which ends as the
absent player's forfeit (named so, the forfeiter last). The rematch waits in its waiting room for
each seat's accept (the asker's own start is not offered), starts once both accepted; a resign
proposal is declined at the table; a second rematch is declined in the waiting room and never
starts."""

from __future__ import annotations

from typing import Any

import redis
from playwright.sync_api import BrowserContext, Page, expect

from tests.support.browser_stack import Stack
from tests.support.lobby import moves_for, timer_plays
from tests.support.virtual_passkeys import signed_up


def api(page: Page, method: str, path: str, body: Any = None) -> Any:
    answer = page.request.fetch(path, method=method, data=body)
    assert answer.ok, answer.text()
    return answer.json()


def open_table(page: Page, table_id: str) -> None:
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector("body[data-ready='1']")


def test_the_away_countdown_the_claim_and_the_rematchs_accept_and_decline(
    strangers: list[BrowserContext], stack: Stack
) -> None:
    errors: list[str] = []
    ada = signed_up(strangers[0], "Konsens Ada", errors)
    bob = signed_up(strangers[1], "Konsens Bob", errors)
    made = api(
        ada,
        "POST",
        "/api/tables",
        {
            "game": "pikdame",
            "name": "Konsens Ada",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "rules": {"turn_timer": 30},
            "public": True,
            "rated": True,
        },
    )
    table_id = made["table"]["id"]
    assert api(bob, "POST", f"/api/tables/{table_id}/join", {"name": "Konsens Bob"})["table"][
        "status"
    ] == ("playing")
    open_table(ada, table_id)
    bob.goto("/account")  # Bob leaves the table: his seat is away

    # Ada plays; the timer plays Bob's turn once (on the app's clock): Ada sees his countdown
    rdb: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    for _ in range(20):
        table = api(ada, "GET", f"/api/tables/{table_id}")["table"]
        if table["turn"] == 1:
            break
        for move in moves_for(table):
            answer = ada.request.post(
                f"/api/tables/{table_id}/moves", data={"move": move, "seq": table["seq"]}
            )
            if answer.ok:
                break
    timer_plays(rdb, stack.clock, table_id)
    rdb.close()
    bob_row = ada.locator(".talk-seat[data-seat='1']")
    expect(bob_row.locator(".talk-countdown")).to_have_text("verliert nach noch 2 verpassten Zügen")
    claim = bob_row.locator(".talk-claim")
    expect(claim).to_have_text("Partie gegen Konsens Bob beenden")
    claim.click()
    expect(ada.locator("#standings")).to_be_visible()
    outcome = ada.locator("#standings-outcome")
    expect(outcome).to_contain_text("Konsens Bob war abwesend und hat die Partie verloren")
    expect(outcome).to_contain_text("Konsens Ada gewinnt die Partie!")
    expect(ada.locator("#standings-table tbody tr").first).to_contain_text("Konsens Ada")
    expect(ada.locator("#standings-table tbody tr").last).to_contain_text("Konsens Bob")
    expect(bob_row.locator(".talk-forfeit")).to_have_text("aufgegeben (abwesend)")

    # the rematch: Ada asks; the waiting room waits for Bob's accept, offering no start
    ada.locator("#rematch").click()
    ada.wait_for_url(lambda url: not url.endswith(table_id))
    rematch = ada.url.rsplit("/", 1)[-1].split("?")[0]
    ada.wait_for_selector("body[data-ready='1']")
    expect(ada.locator("#rematch-consent-text")).to_contain_text("Es fehlt noch: Konsens Bob")
    expect(ada.locator("#rematch-answer")).to_be_hidden()  # she asked: she agreed
    expect(ada.locator("#start-button")).to_be_hidden()
    expect(ada.locator("#waiting-note")).to_have_text(
        "Die Partie beginnt, sobald alle zugestimmt haben."
    )
    open_table(bob, rematch)
    expect(bob.locator("#rematch-consent-text")).to_contain_text("Zugestimmt: Konsens Ada")
    expect(bob.locator("#rematch-accept")).to_be_visible()
    expect(bob.locator("#rematch-decline")).to_be_visible()
    assert api(bob, "GET", f"/api/tables/{rematch}")["table"]["status"] == "waiting"
    bob.locator("#rematch-accept").click()
    for page in (ada, bob):
        expect(page.locator("#table")).to_be_visible()  # both accepted: it started

    # Ada proposes to resign; Bob declines at his table: the game goes on
    api(ada, "POST", f"/api/tables/{rematch}/resign", {})
    expect(bob.locator("#resign-text")).to_contain_text("Konsens Ada schlägt vor aufzugeben")
    bob.locator("#resign-decline").click()
    for page in (ada, bob):
        expect(page.locator("#resign-text")).to_have_text(
            "Konsens Bob hat das Aufgeben abgelehnt – es wird weitergespielt."
        )
    assert api(ada, "GET", f"/api/tables/{rematch}")["table"]["status"] == "playing"

    # that game ends by consent; a second rematch is declined in its waiting room
    for page in (ada, bob):
        api(page, "POST", f"/api/tables/{rematch}/resign", {})
    second = api(ada, "POST", f"/api/tables/{rematch}/rematch", {})["table"]["id"]
    for page in (ada, bob):
        page.wait_for_url(f"**/tables/{second}")
        page.wait_for_selector("body[data-ready='1']")
    expect(bob.locator("#rematch-decline")).to_be_visible()
    bob.locator("#rematch-decline").click()
    for page in (ada, bob):
        expect(page.locator("#rematch-consent-text")).to_have_text(
            "Konsens Bob hat die Revanche abgelehnt. Sie findet nicht statt."
        )
        expect(page.locator("#rematch-answer")).to_be_hidden()
        expect(page.locator("#waiting")).to_be_visible()
    assert api(ada, "GET", f"/api/tables/{second}")["table"]["status"] == "waiting"
    assert errors == []
