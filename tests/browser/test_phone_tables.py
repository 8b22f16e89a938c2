"""Every game's table on a phone held upright (390 × 844), in Chromium against the real backend:
no page scrolls sideways, and the first screen holds what a turn needs, the status, the hand and
the action buttons (measured by document.scrollingElement's sizes and the elements' boxes), in
the states a table reaches cheaply: dealt with the player to move, and a round's result. The
Tausende table was 1,700 px tall (its panel above the board pushed the hand 1,280 px below the
status line); the site menu hid its last entries ("Regeln", "Konto") past the screen's edge
with no hint."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.support.browser_stack import Stack
from tests.support.gin_flows import create_gin_table, table_doc
from tests.support.gin_player import gin_choice
from tests.support.page_flows import api_call
from tests.support.table_flows import create_table, cut_at, lucky_cut, my_turn, play_until

WIDTH, HEIGHT = 390, 844
I18N = Path(__file__).resolve().parents[2] / "templates" / "static" / "i18n"

# The first screen at the top of the page: the document's sizes and each element's box.
SCREEN = """(selectors) => {
  window.scrollTo(0, 0);
  const doc = document.scrollingElement;
  const boxes = {};
  for (const s of selectors) {
    boxes[s] = [...document.querySelectorAll(s)].filter((e) => e.getClientRects().length)
      .map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.top, r.right, r.bottom]);
  }
  return {scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, boxes};
}"""


@pytest.fixture
def phone(browser: Browser, stack: Stack) -> Iterator[Page]:
    ctx: BrowserContext = browser.new_context(
        base_url=stack.base_url,
        viewport={"width": WIDTH, "height": HEIGHT},
        has_touch=True,
        is_mobile=True,
    )
    ctx.add_init_script("localStorage.setItem('pikdame.speed', JSON.stringify('veryfast'))")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, errors


def assert_first_screen(page: Page, selectors: list[str]) -> None:
    """No sideways scroll; every (visible) element of each selector wholly in the first screen."""
    seen: dict[str, Any] = page.evaluate(SCREEN, selectors)
    assert seen["scrollWidth"] <= seen["clientWidth"], seen
    for selector, boxes in seen["boxes"].items():
        assert boxes, f"{selector} is not shown"
        for left, top, right, bottom in boxes:
            inside = left >= -0.5 and top >= -0.5 and right <= WIDTH + 0.5
            assert inside and bottom <= HEIGHT + 0.5, (selector, [left, top, right, bottom])


def assert_menu_in_sight(page: Page) -> None:
    """Every entry of the site menu is on the screen (none hidden past its edge), and the header
    keeps to two lines."""
    entries = page.locator(".site-header nav a")
    assert entries.count() == 8
    assert_first_screen(page, [".site-header nav a", ".lang-switch"])
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 64, header


def idle(page: Page) -> None:
    page.wait_for_function("() => !document.body.dataset.busy", timeout=60_000)


def start(page: Page, game: str, bots: list[str], lang: str) -> str:
    create_table(page, "Ada", bots, game=game, lang=lang)
    page.locator("#start-button").click()
    if page.locator("#cut-control").is_visible():
        page.locator("#cut-button").click()
    my_turn(page)
    idle(page)
    return page.url.rsplit("/", 1)[1]


TURN = ["#status", "#hand li", "#actions button"]


@pytest.mark.parametrize(
    ("game", "bots", "lang"),
    [
        ("pikdame", ["zen", "advanced"], "de"),
        ("tausende", ["zen", "advanced"], "de"),
        ("tausende", ["zen", "advanced", "beginner"], "en"),
    ],
)
def test_a_table_fits_one_phone_screen(phone: Page, game: str, bots: list[str], lang: str) -> None:
    page = phone
    table_id = start(page, game, bots, lang)
    extra = ["#tausende-top"] if game == "tausende" else []
    assert_first_screen(page, TURN + extra)
    assert_menu_in_sight(page)
    if game == "tausende":
        # the swapping round's own button is in sight (R12.2); the panel is below, one tap away
        expect(page.locator("[data-tausende='swap-up']")).to_be_visible()
        assert_first_screen(page, ["[data-tausende='swap-up']"])
    # a bot's level menu open: still nothing wider than the screen
    page.locator(f"[data-bot-level='{len(bots)}']").click()
    expect(page.locator(".level-menu")).to_be_visible()
    assert_first_screen(page, [".level-menu button", ".bot-level"])
    page.locator(f"[data-bot-level='{len(bots)}']").click()
    if game == "tausende":
        play_until(api_call(page), table_id, 0, lambda t: t["view"]["swaps"] is None)
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        my_turn(page)
        brief = page.locator("#tausende-brief")
        expect(brief).to_be_visible()  # who has opened, and the way down to the panel
        assert_first_screen(page, [*TURN, "#tausende-brief"])
        assert_longest_turn_fits(page, lang)
        brief.locator("a").click()
        expect(page.locator("#tausende")).to_be_in_viewport()
    # the round's result: under the seat strip, its button in the first screen
    play_until(api_call(page), table_id, 0, round_over)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#round-result")).to_be_visible()
    assert_first_screen(page, ["#round-result h2", "#round-close"])
    assert_menu_in_sight(page)


# The longest a turn's variable lines get in this state (a random deal shows one of them): no one
# has opened yet (the brief's longer line), a hand of three-digit points (the hand's title), and
# every bot still holding 13 cards with no melds (the seats' longest row). A deal that showed all
# three at once pushed the action buttons 1 px past the screen's edge.
LONGEST = """([brief, noMelds]) => {
  document.querySelector("#tausende-brief span").textContent = brief;
  const title = document.querySelector("#hand-title");
  title.textContent = title.textContent.replace(/\\d+(?=\\D*$)/, "325");
  for (const seat of document.querySelectorAll("#table .opponents .seat")) {
    const count = seat.querySelector(".count");
    count.textContent = count.textContent.replace(/\\d+/, "13");
    seat.querySelector(".seat-melds summary").textContent = noMelds;
  }
}"""


def assert_longest_turn_fits(page: Page, lang: str) -> None:
    """The first screen holds the turn with each variable line at its longest (in ``lang``)."""
    texts = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    zero = re.search(r"=0 \{([^}]*)\}", texts["table.seatMelds"])
    assert zero is not None
    page.evaluate(LONGEST, [texts["tausende.briefNone"], zero.group(1)])
    assert_first_screen(page, [*TURN, "#tausende-brief"])


def test_a_lucky_grab_leaves_the_turn_in_the_first_screen(phone: Page, stack: Stack) -> None:
    """R3/F3 step 4: Ada cuts where the most cards are lucky; the grab's line with its cards is
    shown below the hand, and the turn's status, hand and buttons still fit the first screen. A
    bot's lucky cut on CI pushed the action buttons 27 px past the screen's edge."""
    page = phone
    create_table(page, "Ada", ["zen"])
    page.locator("#start-button").click()
    expect(page.locator("#cut-control")).to_be_visible()  # two seats: the creator cuts (R2)
    table_id = page.url.rsplit("/", 1)[1]
    k, grabbed = lucky_cut(stack.redis_url, table_id, most=True)
    cut_at(page, k)
    expect(page.locator("#lucky .preview-cards > *")).to_have_count(len(grabbed))
    my_turn(page)
    idle(page)
    assert_first_screen(page, TURN)
    expect(page.locator("#lucky")).to_be_visible()


def round_over(table: dict[str, Any]) -> bool:
    return table["status"] != "playing" or table["rounds"][0]["scores"] is not None


def test_a_gin_table_fits_one_phone_screen(phone: Page) -> None:
    page = phone
    table_id = create_gin_table(page)
    expect(page.locator("#gin-hand li").first).to_be_visible()
    page.wait_for_selector("[data-gin-action]:not([disabled])", timeout=60_000)
    assert_first_screen(page, ["#gin-status", "#gin-hand li", "[data-gin-action]:not([disabled])"])
    assert_menu_in_sight(page)
    # the hand's result (shown to a page that saw the hand end): its heading and button in sight
    call = api_call(page)
    table = table_doc(page, table_id)
    for _ in range(500):
        if table["view"]["results"] or table["status"] != "playing":
            break
        move = {"move": gin_choice(table["view"]), "seq": table["seq"]}
        status, body = call("POST", f"/api/tables/{table_id}/moves", move)
        assert status == 200, body
        table = body["table"]
    assert table["view"]["results"], "no hand ended in 500 moves"
    expect(page.locator("#gin-result")).to_be_visible(timeout=60_000)
    assert_first_screen(page, ["#gin-result h2", "#gin-result button"])


@pytest.mark.parametrize("path", ["/", "/spielen", "/rules?lang=en"])
def test_the_menu_shows_every_entry_on_a_phone(phone: Page, path: str) -> None:
    phone.goto(path)
    phone.wait_for_load_state("networkidle")
    assert_menu_in_sight(phone)
