"""The table drawn as a table (issue 41), in Chromium against the real stack: every other seat in
its place around the piles, seen from the player's seat at the bottom (js/lib/table/seats.js;
RULES.md: play passes from seat i to seat i+1, so the next seat sits to the player's left): two
seats face each other, of three the next sits left and the last right, of four left, opposite
and right, each with its name, hand size as fanned backs, score and the turn's mark, measured by
the boxes the page draws; and Gin's draws and discards fly (lib/fly.js) with the other seat's
moves played out one after the other, nothing flying under reduced motion."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser_stack import Stack
from tests.support.gestures import (
    Motion,
    layout_shift,
    mouse_drag,
    reset_watch,
    touch_drag,
    watched_page,
)
from tests.support.gin_flows import create_gin_table, table_doc, wait_seq_after
from tests.support.table_flows import create_table, my_turn

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
MOST_SHIFT = 0.1  # web.dev's "good" layout-shift score, Chromium's standard score

# Every box the seats' test reads: each seat's, the piles', the hand's.
BOXES = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const seats = {};
  for (const s of document.querySelectorAll("#opponents .seat")) {
    seats[s.dataset.place] = {
      box: box(s), backs: s.querySelectorAll(".mini-hand .card").length,
      count: s.querySelector(".count").textContent,
      score: s.querySelector(".seat-score")?.textContent ?? "",
      name: s.querySelector("h3").textContent,
    };
  }
  return {seats, middle: box(document.querySelector(".middle")),
    stock: box(document.querySelector("#stock .card")), hand: box(document.querySelector("#hand"))};
}"""

# Every card put in flight (lib/fly.js) and every status line the Gin board says, as they come.
WATCH_GIN = """
window.__flights = 0;
window.__said = [];
new MutationObserver((records) => {
  for (const r of records) {
    for (const n of r.addedNodes) {
      if (n.classList && n.classList.contains("flying")) window.__flights += 1;
    }
    const status = document.querySelector("#gin-status");
    if (status && r.target === status && window.__said.at(-1) !== status.textContent) {
      window.__said.push(status.textContent);
    }
  }
}).observe(document, {childList: true, subtree: true, characterData: true});
"""


def seated(page: Page, bots: list[str]) -> None:
    """Ada's Pik Dame table with ``bots``, started and cut: her turn."""
    create_table(page, "Ada", bots)
    page.locator("#start-button").click()
    # Ada cuts where she is the cutter (R2; with two seats always), else a bot does
    expect(page.locator("#cut-control:visible, #table.my-turn").first).to_be_visible(timeout=60_000)
    if page.locator("#cut-control").is_visible():
        page.locator("#cut-button").click()
    my_turn(page)
    page.wait_for_function("() => !document.body.dataset.busy", timeout=60_000)


def centre_x(box: list[float]) -> float:
    return (box[0] + box[2]) / 2


PLACES = {2: ["top"], 3: ["left", "right"], 4: ["left", "top", "right"]}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seats_sit_around_the_table(
    browser: Browser, stack: Stack, artifacts: Path, players: int
) -> None:
    """A desktop: the opposite seat above the piles, the left and right seats beside them, all
    above the own hand; each seat with its name, count and as many fanned backs, its score."""
    with watched_page(browser, stack, DESKTOP) as page:
        seated(page, ["beginner"] * (players - 1))
        page.screenshot(path=str(artifacts / f"table-seats-{players}.png"))
        seen: dict[str, Any] = page.evaluate(BOXES)
        seats, middle, hand = seen["seats"], seen["middle"], seen["hand"]
        assert sorted(seats) == sorted(PLACES[players]), seats
        # the playing order clockwise from the player's left: seat 1 left (or opposite of two)
        expect(page.locator("#seat-1")).to_have_attribute("data-place", PLACES[players][0])
        for place, seat in seats.items():
            left, top, right, bottom = seat["box"]
            assert bottom <= hand[1], (place, seat, hand)  # the player sits at the bottom
            size = int("".join(ch for ch in seat["count"] if ch.isdigit()))
            assert seat["backs"] == min(size, 20), seat
            assert seat["score"] == "0", seat  # the running total of the table's first round
            assert seat["name"], seat
            if place == "top":
                assert bottom <= middle[1] + 0.5, (seat, middle)
                assert left <= centre_x(middle) <= right, (seat, middle)
            elif place == "left":
                assert right <= middle[0] + 0.5, (seat, middle)
                assert top < middle[3] and bottom > middle[1], (seat, middle)  # beside it
            else:
                assert left >= middle[2] - 0.5, (seat, middle)
                assert top < middle[3] and bottom > middle[1], (seat, middle)
        if players == 4:  # the opposite seat between the two at the sides
            assert seats["left"]["box"][2] <= seats["top"]["box"][0]
            assert seats["top"]["box"][2] <= seats["right"]["box"][0]
        # the turn's mark goes round: the seat to move is lit and flagged
        expect(page.locator("#table.my-turn")).to_be_visible()
        expect(page.locator("#opponents .seat.to-move")).to_have_count(0)
        # the player's own seat at the bottom: its plate with her name, the mark, the score,
        # below the piles and above the hand
        plate = page.locator("#own-plate")
        expect(plate).to_have_class(re.compile("to-move"))
        expect(plate.locator(".own-name")).to_have_text("Ada (Du)")
        expect(plate.locator(".turn-flag")).to_have_count(1)
        expect(plate.locator(".seat-score")).to_have_text("0")
        box = plate.bounding_box()
        assert box is not None and middle[3] <= box["y"] and box["y"] + box["height"] <= hand[1]


def test_a_phone_keeps_the_seats_in_their_order_above_the_piles(
    browser: Browser, stack: Stack, artifacts: Path
) -> None:
    """A phone held upright (390 × 844): the three other seats in one row above the piles, left
    to right as they sit (left, opposite, right), the hand below, nothing wider than the
    screen."""
    with watched_page(browser, stack, PHONE) as page:
        seated(page, ["beginner"] * 3)
        page.screenshot(path=str(artifacts / "table-seats-phone.png"))
        seen: dict[str, Any] = page.evaluate(BOXES)
        seats, stock, hand = seen["seats"], seen["stock"], seen["hand"]
        xs = [centre_x(seats[p]["box"]) for p in ("left", "top", "right")]
        assert xs == sorted(xs), seats
        for seat in seats.values():
            assert seat["box"][3] <= stock[1] and seat["box"][3] <= hand[1], (seat, stock)
            assert seat["box"][0] >= 0 and seat["box"][2] <= PHONE["width"], seat
        assert abs(xs[1] - PHONE["width"] / 2) < 40, xs  # the opposite seat at the centre


def test_gin_other_seat_sits_opposite(browser: Browser, stack: Stack, artifacts: Path) -> None:
    """Gin's two seats face each other: the other seat above the piles and the hand, centred,
    with its name, score, its ten cards as fanned backs and the turn's mark when it is its
    turn."""
    with watched_page(browser, stack, DESKTOP) as page:
        table_id = create_gin_table(page)
        other = page.locator(".gin-other")
        expect(other).to_have_attribute("data-place", "top")
        page.wait_for_function("() => !document.querySelector('#gin-board').dataset.busy")
        page.screenshot(path=str(artifacts / "table-seats-gin.png"))
        view = table_doc(page, table_id)["view"]
        expect(other.locator(".mini-hand .card")).to_have_count(view["other_size"])
        expect(other.locator(".seat-score")).to_have_text("0 Punkte")
        expect(other.locator(".turn-flag")).to_have_count(1 if view["turn"] != view["seat"] else 0)
        box, middle, hand = (
            page.locator(s).bounding_box() for s in (".gin-other", ".gin-middle", "#gin-hand")
        )
        assert box and middle and hand
        assert box["y"] + box["height"] <= middle["y"] <= hand["y"], (box, middle, hand)
        plate = page.locator("#own-plate")  # the player's own seat at the bottom
        expect(plate.locator(".own-name")).to_have_text("Ada (Du)")
        expect(plate.locator(".seat-score")).to_have_text("0 Punkte")
        expect(plate.locator(".turn-flag")).to_have_count(1 if view["turn"] == view["seat"] else 0)
        own = plate.bounding_box()
        assert own is not None and middle["y"] < own["y"] < hand["y"], (own, middle, hand)
        board = page.locator("#gin-board").bounding_box()
        assert board is not None
        mid = board["x"] + board["width"] / 2
        assert abs(box["x"] + box["width"] / 2 - mid) < 2, (box, board)


def gin_turn(page: Page, table_id: str, phone: bool) -> None:
    """Ada's Gin turn by gestures (a finger on a phone), the bot's following it: pass an upcard
    until she draws, then tap the stock and drag her last card to the pile."""
    board = "() => !document.querySelector('#gin-board').dataset.busy"
    for _ in range(4):
        page.wait_for_function(board)
        table = table_doc(page, table_id)
        view = table["view"]
        assert view["turn"] == view["seat"] and not view["results"], view
        if view["phase"] != "upcard":
            break
        page.locator("[data-gin-action=pass]").click()
        wait_seq_after(page, table["seq"])
    reset_watch(page)
    page.evaluate("() => { window.__flights = 0; window.__said = []; }")
    stock = page.locator(".gin-stock .card")
    stock.tap() if phone else stock.click()
    expect(page.locator("#gin-hand li")).to_have_count(11)
    page.wait_for_function(board)
    seq = table_doc(page, table_id)["seq"]
    drag = touch_drag if phone else mouse_drag
    drag(page, page.locator("#gin-hand li").last, page.locator(".gin-pile"))
    wait_seq_after(page, seq)


@pytest.mark.parametrize(
    ("motion", "least", "viewport"),
    [("no-preference", 3, DESKTOP), ("reduce", 0, DESKTOP), ("no-preference", 3, PHONE)],
)
def test_gin_draws_and_discards_fly_unless_motion_is_reduced(
    browser: Browser, stack: Stack, motion: Motion, least: int, viewport: dict[str, int]
) -> None:
    """At the normal pace Ada's draw and discard fly, and the bot's draw (face down) and discard
    after them, one after the other, each said on the status line in turn; under reduced motion
    nothing flies, and the bot's moves are still said one by one. No layout shift (Chromium's
    standard score) on a desktop or a phone."""
    phone = viewport["width"] < 700
    with watched_page(browser, stack, viewport, speed="normal", motion=motion) as page:
        page.context.add_init_script(WATCH_GIN)
        table_id = create_gin_table(page)
        expect(page.locator("#speed")).to_have_value("normal")
        page.wait_for_function("() => window.__said !== undefined")
        gin_turn(page, table_id, phone)
        history = table_doc(page, table_id)["view"]["history"]
        said: list[str] = page.evaluate("() => window.__said")
        flights = int(page.evaluate("() => window.__flights"))
        bot = [e["move"].split()[0] for e in history[-2:] if e["seat"] != 0]
        if bot == ["draw", "discard"] or bot == ["take", "discard"]:
            # the bot's two moves, said in their order before its discard was drawn
            took = "zieht vom Stapel" if bot[0] == "draw" else "nimmt die oberste"
            first = next(i for i, s in enumerate(said) if took in s)
            assert any(" wirft " in s for s in said[first + 1 :]), said
            assert flights >= least + 1 if least else flights == 0, (flights, said)
        else:
            assert flights >= least if least else flights == 0, (flights, said)
        shift = layout_shift(page)
        print(f"gin {motion} {viewport}: layout shift during an animated turn", shift)
        assert shift["unprompted"] < MOST_SHIFT, shift
