"""A table's round result offers "Analysieren" (docs/TABLES.md "Analysis"): your own seat's play
in the round just ended, computed by the stack's worker while the game goes on."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import patient_call
from tests.support.tables import play_turn

HUMAN: dict[str, Any] = {"kind": "human"}


def test_a_round_result_analyses_your_seats_round(page: Page, stack: Stack) -> None:
    page.goto("/")

    call = patient_call(page)

    status, made = call(
        "POST",
        "/api/tables",
        {"game": "pikdame", "name": "Ada", "seats": [HUMAN, {"kind": "bot", "level": "beginner"}]},
    )
    assert status == 201, made
    table_id = made["table"]["id"]
    status, body = call("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200, body
    table = body["table"]
    for _ in range(3000):  # round 1 to its end, scripted through the API
        if table["rounds"] and table["rounds"][0]["scores"] is not None:
            break
        table = play_turn(call, table)
    assert table["status"] == "playing"

    page.goto(f"/tables/{table_id}")
    page.wait_for_selector("body[data-ready='1']")
    box = page.locator("#round-result")
    expect(box).to_be_visible()
    page.locator("#round-analyse").click()
    analysis = page.locator("#round-analysis")
    expect(analysis).to_have_attribute("data-ready", "1", timeout=120_000)
    expect(analysis.locator(".analysis-summary")).to_be_visible()
    expect(page.locator("#round-analyse")).to_be_hidden()
    status, doc = call("GET", f"/api/tables/{table_id}/analysis?round=1", None)
    assert status == 200 and doc["seat"] == 0 and doc["source"]["round"] == 1, doc
    expect(analysis.locator(".analysis-decision")).to_have_count(
        len([d for d in doc["decisions"] if d["mark"]])
    )
