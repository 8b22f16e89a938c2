"""Tausende's lay-offs and its unfinished opening at a table, in Chromium against the real
backend (RULES.md R12.3, R12.5; docs/TAUSENDE.md). The table's round is set to a chosen position
(written into the stored table, as the engine keeps it) so the cards are known:

- R12.5: lay-offs go on any meld on the table. The "Anlegen" dialog offered only the player's own
  melds; now it lists every meld, the other seats' with their owner, and sends ``lay C S.N``.
- "Hier anlegen" on a table meld sent its move at once; now it opens the same confirmation as
  every other action, and cancelling it sends nothing.
- R12.3: a turn that ends below 30 opening points takes its melds back into the hand. The
  discard's confirmation now says so before it is sent, and the move list strikes the turn's
  "legt aus" and says the melds went back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from playwright.sync_api import Browser, BrowserContext, Page, expect

from service.common import keys
from tests.support.browser_stack import Stack
from tests.support.page_flows import api_call
from tests.support.table_flows import create_table
from tests.support.tausende import position, run, set_


@pytest.fixture
def ada(browser: Browser, stack: Stack) -> Iterator[Page]:
    ctx: BrowserContext = browser.new_context(
        base_url=stack.base_url, viewport={"width": 1366, "height": 800}
    )
    ctx.add_init_script("localStorage.setItem('pikdame.speed', JSON.stringify('veryfast'))")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, errors


def table_of(page: Page, table_id: str) -> dict[str, Any]:
    status, body = api_call(page)("GET", f"/api/tables/{table_id}", None)
    assert status == 200, body
    return dict(body["table"])


def settled(page: Page) -> None:
    """The page's own move and the bot's answer have played out (send() clears data-busy)."""
    page.wait_for_function("() => !document.body.dataset.busy", timeout=60_000)


def table_at(page: Page, stack: Stack, hands: list[list[str]], **kw: Any) -> str:
    """A started two-seat Tausende table (Ada and a bot) whose running round is set to the
    position of ``hands`` (tests/support/tausende.position), Ada to play; the page reloaded."""
    create_table(page, "Ada", ["zen"], game="tausende")
    page.locator("#start-button").click()
    expect(page.locator("#cut-control")).to_be_visible()  # two seats: the creator cuts (R2)
    table_id = page.url.rsplit("/", 1)[1]
    call = api_call(page)
    table = table_of(page, table_id)
    cut = {"move": "cut 54", "seq": table["seq"]}
    status, body = call("POST", f"/api/tables/{table_id}/moves", cut)
    assert status == 200, body
    client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    stored = json.loads(client.get(keys.table(table_id)) or "{}")
    game = stored["session"]["rounds"][-1]["game"]
    old = game["position"]
    new = position(hands, **kw)
    for field in ("rules", "round", "dealer", "totals"):
        new[field] = old[field]
    game["position"] = new
    client.set(keys.table(table_id), json.dumps(stored), keepttl=True)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#table.my-turn")).to_be_visible()
    return table_id


def pick(page: Page, *cards: str) -> None:
    for card in cards:
        page.locator(f"#hand li[data-card='{card}']").first.click()
    expect(page.locator("#hand li.selected")).to_have_count(len(cards))


BOT_HAND = ["3D", "4D", "8C", "JS", "6C", "2H", "AS", "9C"]
STOCK = ["5D", "9C", "2S", "3S", "4H", "6D", "7C", "8D"]


def test_the_lay_off_dialog_offers_every_meld_and_lay_here_asks_first(
    ada: Page, stack: Stack
) -> None:
    melds = [
        [set_("QD", "QH", "QC")],
        [run("8H", "9H", "TH"), set_("5C", "5D", "5S"), run("3S", "X", "5S")],
    ]
    table_id = table_at(
        ada, stack, [["7H", "5H", "2D", "9S", "KC", "4S"], BOT_HAND], melds=melds,
        opened=[True, True], stock=STOCK,
    )  # fmt: skip
    # R12.5 through "Anlegen": the own meld and every one of the bot's, named as the bot's
    pick(ada, "7H")
    ada.locator("#actions button[data-action=lay]").click()
    options = ada.locator("#confirm input[name=meld]")
    expect(options).to_have_count(4)
    values = [options.nth(i).get_attribute("value") for i in range(4)]
    assert values == ["1", "1.1", "1.2", "1.3"]
    expect(ada.locator("#confirm [data-owner='1']").first).to_contain_text("gehört Bot 1")
    ada.locator("#confirm input[name=meld][value='1.1']").check()
    expect(ada.locator("#confirm-preview")).to_contain_text("Du legst an Auslage 1 von Bot 1 an")
    ada.locator("#confirm-ok").click()
    settled(ada)
    expect(ada.locator("#log li.mine").last).to_contain_text("legt 7♥ an Auslage 1 von Bot 1 an")
    view = table_of(ada, table_id)["view"]
    assert "7H" in view["melds"][1][0]["cards"] and "7H" not in view["hand"]
    assert view["laid"][0] == 5  # R12.5: the lay-off counts for the player who laid it (from 0)

    # "Hier anlegen" on the bot's set: the same confirmation; cancelled, nothing is sent
    seq = table_of(ada, table_id)["seq"]
    pick(ada, "5H")
    ada.locator("[data-lay-on='1.2']").click()
    expect(ada.locator("#confirm")).to_be_visible()
    expect(ada.locator("#confirm-preview")).to_contain_text("Auslage 2 von Bot 1")
    expect(ada.locator("#confirm input[name=meld][value='1.2']")).to_be_checked()
    ada.locator("#confirm-cancel").click()
    expect(ada.locator("#confirm")).to_be_hidden()
    assert table_of(ada, table_id)["seq"] == seq
    expect(ada.locator("#hand li[data-card='5H'].selected")).to_have_count(1)  # still chosen
    ada.locator("[data-lay-on='1.2']").click()
    ada.locator("#confirm-ok").click()
    settled(ada)
    expect(ada.locator("#log li.mine").last).to_contain_text("legt 5♥ an Auslage 2 von Bot 1 an")
    assert "5H" in table_of(ada, table_id)["view"]["melds"][1][1]["cards"]

    # "Joker tauschen" (R12.5, R6): the joker in the bot's run, the only meld with one
    pick(ada, "4S")
    ada.locator("#actions button[data-action=swap]").click()
    expect(options).to_have_count(1)
    expect(options.first).to_have_attribute("value", "1.3")
    expect(ada.locator("#confirm-preview")).to_contain_text("Joker in Auslage 3 von Bot 1")
    ada.locator("#confirm-ok").click()
    settled(ada)
    expect(ada.locator("#log li.mine").last).to_contain_text(
        "tauscht den Joker in Auslage 3 von Bot 1 gegen 4♠"
    )
    assert table_of(ada, table_id)["view"]["melds"][1][2]["cards"] == ["3S", "4S", "5S"]

    # a player who has opened is not warned at the discard
    pick(ada, "2D")
    ada.locator("#actions button[data-action=discard]").click()
    expect(ada.locator("#confirm")).to_be_visible()
    expect(ada.locator("#take-back-warning")).to_have_count(0)
    ada.locator("#confirm-cancel").click()


def test_a_discard_below_the_opening_warns_and_the_log_says_the_melds_went_back(
    ada: Page, stack: Stack
) -> None:
    table_id = table_at(ada, stack, [["2C", "3C", "4C", "9D", "KH", "8S"], BOT_HAND], stock=STOCK)
    pick(ada, "2C", "3C", "4C")
    ada.locator("#actions button[data-action=meld]").click()
    ada.locator("#confirm-ok").click()
    settled(ada)
    expect(ada.locator("#log li.mine").last).to_contain_text("legt aus")
    assert table_of(ada, table_id)["view"]["turn_points"] == 15
    # R12.3: before the discard the player is told the melds go back
    pick(ada, "9D")
    ada.locator("#actions button[data-action=discard]").click()
    warning = ada.locator("#take-back-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("erst 15 von 30 Punkten")
    expect(warning).to_contain_text("geht deine Auslage zurück auf die Hand")
    ada.locator("#confirm-ok").click()
    settled(ada)
    view = table_of(ada, table_id)["view"]
    assert view["melds"][0] == [] and {"2C", "3C", "4C"} <= set(view["hand"])
    expect(ada.locator("#hand li")).to_have_count(len(view["hand"]))
    # the move list: the turn's "legt aus" struck and marked, then what happened, then the discard
    mine = ada.locator("#log li.mine")
    expect(ada.locator("#log li.mine.taken-back")).to_have_count(1)
    expect(ada.locator("#log li.mine.taken-back")).to_contain_text("legt aus")
    expect(ada.locator("#log li.mine.taken-back")).to_contain_text("(zurückgenommen)")
    expect(ada.locator("#log li.mine.take-back")).to_have_text(
        "Ada (Du): nimmt die Auslage zurück auf die Hand – unter 30 Punkten keine Eröffnung"
    )
    texts = mine.all_inner_texts()
    assert not [t for t in texts if "legt aus" in t and "zurückgenommen" not in t], texts
    # the same after a reload (the move list is kept in the browser)
    ada.reload()
    ada.wait_for_selector("body[data-ready='1']")
    expect(ada.locator("#log li.mine.taken-back")).to_have_count(1)
    expect(ada.locator("#log li.mine.take-back")).to_have_count(1)


def test_another_seats_unfinished_opening_is_told_in_the_move_list(ada: Page) -> None:
    """The same for a move list played out from the stream (pikdame/playback.js with the
    Tausende page's opening rule, tausende/opening.js): a seat's melds are followed by their
    opening points (a joker as the card it stands for, R12.3), so a turn below 30 ends with its
    melds taken back and one that reached 30 does not."""
    create_table(ada, "Ada", ["human", "zen"], game="tausende")
    ada.locator("#start-button").click()
    expect(ada.locator("#table")).to_be_visible()
    lines = ada.evaluate(
        """async () => {
          const src = [...document.scripts].map((s) => s.src)
            .find((s) => s.includes("tausende/table.js"));
          const { play } = await import(new URL("../pikdame/playback.js", src).href);
          const { OPENING, openingPoints } = await import(new URL("opening.js", src).href);
          const ctx = { attemptId: "probe-back", me: 0,
            opening: { goal: OPENING, points: openingPoints },
            seats: [{ kind: "human", name: "Ada" }, { kind: "human", name: "Bea" },
                    { kind: "bot" }] };
          const before = { stock_size: 40, hand_sizes: [13, 13, 13], discard: ["3C"],
            melds: [[], [], []], opened: [false, false, false], turn_points: 0 };
          const list = document.querySelector("#log");
          await play([
            { seat: 1, move: "draw" },
            { seat: 1, move: "meld X 9H TH" },      // 5 (the joker as 8♥) + 5 + 10 = 20
            { seat: 1, move: "discard 4S" },
            { seat: 2, move: "draw" },
            { seat: 2, move: "meld KS KH X" },      // 10 + 10 + 10 (the joker as a king)
            { seat: 2, move: "discard 5S" },
          ], before, ctx);
          return [...list.children].slice(-7).map((li) => [li.className, li.textContent]);
        }"""
    )
    assert lines == [
        ["", "Bea: zieht vom Stapel"],
        [" taken-back", "Bea: legt aus: ★ 9♥ 10♥ (zurückgenommen)"],
        [
            " take-back",
            "Bea: nimmt die Auslage zurück auf die Hand – unter 30 Punkten keine Eröffnung",
        ],
        ["", "Bea: wirft 4♠ ab"],
        ["", "Bot 2: zieht vom Stapel"],
        ["", "Bot 2: legt aus: K♠ K♥ ★"],
        ["", "Bot 2: wirft 5♠ ab"],
    ], lines


def test_a_pass_asks_first_like_every_action(ada: Page, stack: Stack) -> None:
    """docs/TAUSENDE.md: a hand of Q♠s only plays `pass` (R12.6). The button sent it at once; now
    it opens the confirmation, and cancelling sends nothing. (No pass takes melds back: the
    engine lets no meld leave Q♠s only, `must_keep_card`.)"""
    table_id = table_at(ada, stack, [["QS", "QS"], BOT_HAND], stock=STOCK)
    seq = table_of(ada, table_id)["seq"]
    ada.locator("[data-tausende='pass']").click()
    expect(ada.locator("#confirm-preview")).to_contain_text("Du passt")
    expect(ada.locator("#take-back-warning")).to_have_count(0)
    ada.locator("#confirm-cancel").click()
    assert table_of(ada, table_id)["seq"] == seq
    ada.locator("[data-tausende='pass']").click()
    ada.locator("#confirm-ok").click()
    settled(ada)
    expect(ada.locator("#log li.mine", has_text="passt")).to_have_count(1)
