"""Page flows of Gin tables (gin/table.js, gin/board.js) shared by the browser tests: make a Gin
table on the "Spielen" page, read the seat's view through the page's own session, and play a
move with the keyboard as the seed page does (select, then confirm separately)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.support.gin_player import gin_choice
from tests.support.page_flows import api_call


def create_gin_table(page: Page, name: str = "Ada", level: str = "plain", lang: str = "de") -> str:
    """On /spielen: a Gin table against the computer at ``level``, started. Returns its id."""
    page.goto(f"/spielen?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("input[name=game][value=gin]").check()
    page.locator("#name").fill(name)
    page.locator("#kind-1").select_option("bot")
    page.locator("#level-1").select_option(level)
    page.locator("#create-button").click()
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#waiting")).to_be_visible()
    page.locator("#start-button").click()
    expect(page.locator("#table")).to_be_visible()
    return page.url.rstrip("/").rsplit("/", 1)[1]


def table_doc(page: Page, table_id: str) -> dict[str, Any]:
    status, body = api_call(page)("GET", f"/api/tables/{table_id}", None)
    assert status == 200, body
    table: dict[str, Any] = body["table"]
    return table


def wait_seq_after(page: Page, seq: int) -> None:
    """Wait until the page has absorbed a table past ``seq`` and is idle again."""
    page.wait_for_function(
        "s => Number(document.body.dataset.seq) > s"
        " && !document.querySelector('#gin-board').dataset.busy",
        arg=seq,
    )


def hand_order(page: Page) -> list[str]:
    return [
        str(c)
        for c in page.locator("#gin-hand li").evaluate_all("els => els.map(e => e.dataset.card)")
    ]


def select_by_keys(page: Page, card: str) -> None:
    """Move to ``card`` with ←/→ from the focused hand card and select it with Enter."""
    order = hand_order(page)
    page.locator("#gin-hand li[tabindex='0']").focus()
    current = int(str(page.locator("#gin-hand li[tabindex='0']").get_attribute("data-index")))
    target = order.index(card)
    key = "ArrowRight" if target >= current else "ArrowLeft"
    for _ in range(abs(target - current)):
        page.keyboard.press(key)
    expect(page.locator("#gin-hand li:focus")).to_have_attribute("data-card", card)
    page.keyboard.press("Enter")
    expect(page.locator(f"#gin-hand li[data-card='{card}']")).to_have_attribute(
        "aria-selected", "true"
    )


I18N = Path(__file__).resolve().parents[2] / "templates" / "static" / "i18n"


@cache
def action_keys(lang: str) -> dict[str, str]:
    """Each Gin action's key in ``lang`` (gin/keys.js): draw, take and discard are Pik Dame's
    letters, pass and knock Gin's own."""
    words = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return {
        "pass": words["gin.key.pass"],
        "take": words["key.take"],
        "draw": words["key.draw"],
        "discard": words["key.discard"],
        "knock": words["gin.key.knock"],
    }


def play_by_keys(page: Page, view: dict[str, Any], lang: str = "de") -> str:
    """The scripted player's move for ``view``, played on the page with the keyboard in the
    page's language ``lang`` (the knock through its dialog, the defence as pre-selected).
    Returns the move."""
    move = gin_choice(view)
    kind = move.split()[0]
    keys = action_keys(lang)
    if kind in ("pass", "draw", "take"):
        page.locator("#gin-status").click()  # focus off any button: keys go to the page
        page.keyboard.press(keys[kind])
    elif kind == "discard":
        select_by_keys(page, move.split()[1])
        page.keyboard.press(keys["discard"])
    elif kind == "knock":
        select_by_keys(page, move.split()[1])
        page.keyboard.press(keys["knock"])
        expect(page.locator("#gin-confirm")).to_be_visible()
        page.keyboard.press("Enter")  # the dialog's confirm button has the focus
    else:
        page.locator("#gin-defend-ok").focus()
        page.keyboard.press("Enter")
    return move
