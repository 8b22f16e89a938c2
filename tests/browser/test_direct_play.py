"""Direct play at a Pik Dame table and a Gin table (issue 41), in Chromium against the real
stack: ordinary turns
played by gestures alone, with a mouse on a desktop and with a finger on a phone: a tap on the
stock draws (R4.1), the card dragged onto the discard pile is discarded (R4.3). Each turn takes
two gestures (the buttons' way took about five), nothing in the page shifts while it is played
(Chromium's layout-shift score), and a drop the rules refuse says why where it landed and sends
nothing. Gin's knock stays confirmed: a card dropped on "Klopfen …" opens its dialog."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.support.browser_stack import Stack
from tests.support.gestures import (
    Finger,
    Motion,
    center,
    layout_shift,
    mouse_drag,
    presses,
    record_moves,
    reset_watch,
    touch_drag,
    watched_page,
)
from tests.support.gin_flows import create_gin_table, table_doc, wait_seq_after
from tests.support.page_flows import start_game
from tests.support.table_flows import create_table, my_turn

TURNS = 3
GOAL = 2  # gestures per ordinary turn: tap the stock, drag a card to the pile
MOST_SHIFT = 0.1  # a "good" layout-shift score (web.dev's CLS), Chromium's standard score
Drag = Callable[[Page, Locator, Locator], None]


def opened(
    browser: Browser,
    stack: Stack,
    kind: str,
    speed: str = "veryfast",
    motion: Motion = "no-preference",
) -> AbstractContextManager[Page]:
    """A desktop with a mouse, or a phone held upright driven by a finger; the bots' ``speed``
    and the system's ``motion`` setting."""
    viewport = {"width": 390, "height": 844} if kind == "touch" else {"width": 1280, "height": 900}
    return watched_page(browser, stack, viewport, speed, motion)


@pytest.fixture(params=["mouse", "touch"])
def device(
    request: pytest.FixtureRequest, browser: Browser, stack: Stack
) -> Iterator[tuple[str, Page]]:
    with opened(browser, stack, request.param) as page:
        yield request.param, page


@pytest.fixture
def phone(browser: Browser, stack: Stack) -> Iterator[Page]:
    with opened(browser, stack, "touch") as page:
        yield page


def idle(page: Page) -> None:
    page.wait_for_function("() => !document.body.dataset.busy", timeout=60_000)


def tap(page: Page, locator: Locator, kind: str) -> None:
    if kind == "touch":
        locator.tap()
    else:
        locator.click()


def seated(page: Page, kind: str) -> None:
    """Ada's table against a beginner bot, cut by Ada (two seats: the creator cuts, R2): her
    turn."""
    create_table(page, "Ada", ["beginner"])
    tap(page, page.locator("#start-button"), kind)
    expect(page.locator("#cut-control")).to_be_visible()
    tap(page, page.locator("#cut-button"), kind)
    my_turn(page)
    idle(page)


def test_turns_by_gestures_alone(device: tuple[str, Page]) -> None:
    kind, page = device
    drag: Drag = touch_drag if kind == "touch" else mouse_drag
    seated(page, kind)
    sent = record_moves(page)
    hand = page.locator("#hand li")
    pile = page.locator("#discard-top")

    # refused where it lands, nothing sent: a discard before the draw (R4: draw first) ...
    size = hand.count()
    drag(page, hand.first, pile)
    expect(page.locator(".drop-note")).to_contain_text("Erst ziehen")
    expect(page.locator("#message")).to_contain_text("Erst ziehen")
    assert hand.count() == size
    # ... and a one-card meld dropped on the own melds' area (R5: three cards at least)
    tap(page, page.locator("#stock .card"), kind)
    expect(hand).to_have_count(size + 1)
    idle(page)
    assert sent == ["draw"]
    drag(page, hand.first, page.locator("#own-area"))
    expect(page.locator(".drop-note")).to_contain_text("mindestens drei Karten")
    expect(hand).to_have_count(size + 1)
    card = str(hand.last.get_attribute("data-card"))
    drag(page, hand.last, pile)
    expect(hand).to_have_count(size)
    assert sent == ["draw", f"discard {card}"]
    expect(page.locator(".drop-note")).to_have_count(0)

    # ordinary turns: two gestures each, no layout shift while the cards move
    played = 0
    for _ in range(TURNS):
        # the player's turn, or the round over (a bot that melds fast may go out early)
        expect(page.locator("#table.my-turn, #round-result:not([hidden])").first).to_be_visible(
            timeout=60_000
        )
        if page.locator("#round-result").is_visible():
            break
        idle(page)
        reset_watch(page)
        before = len(sent)
        tap(page, page.locator("#stock .card"), kind)
        expect(hand).to_have_count(size + 1)
        idle(page)
        card = str(hand.first.get_attribute("data-card"))
        drag(page, hand.first, pile)
        expect(hand).to_have_count(size)
        idle(page)
        assert sent[before:] == ["draw", f"discard {card}"]
        assert presses(page) == GOAL
        shift = layout_shift(page)
        print(f"{kind}: layout shift during a turn", shift["unprompted"], shift["all"])
        assert shift["unprompted"] < MOST_SHIFT, shift
        played += 1
    assert played >= 1
    assert page.locator("#confirm").is_hidden()  # no step asked for words


def test_a_gin_hand_by_gestures(device: tuple[str, Page]) -> None:
    """Gin (G4, G5): tap the stock, drag a card onto the pile; a card dropped on "Klopfen …"
    opens the knock dialog (or, with more than 10 points left, says why) and sends nothing."""
    kind, page = device
    drag: Drag = touch_drag if kind == "touch" else mouse_drag
    table_id = create_gin_table(page)
    sent = record_moves(page)
    hand = page.locator("#gin-hand li")
    pile = page.locator(".gin-pile")
    played = 0
    for _ in range(TURNS + 2):
        table = table_doc(page, table_id)
        view = table["view"]
        page.wait_for_function("() => !document.querySelector('#gin-board').dataset.busy")
        if view["phase"] == "upcard":
            tap(page, page.locator("[data-gin-action=pass]"), kind)  # G4: no gesture for a pass
            wait_seq_after(page, table["seq"])
            continue
        if view["phase"] != "draw" or view["turn"] != view["seat"] or view["results"]:
            break  # the bot knocked: the hand is over before the turns were played
        reset_watch(page)
        before = len(sent)
        tap(page, page.locator(".gin-stock .card"), kind)
        expect(hand).to_have_count(11)
        page.wait_for_function("() => !document.querySelector('#gin-board').dataset.busy")
        if played == 0:  # the knock is never a gesture alone
            card = str(hand.first.get_attribute("data-card"))
            drag(page, hand.first, page.locator("[data-gin-action=knock]"))
            after = table_doc(page, table_id)["view"]["discards"][card]["deadwood"]
            if after <= 10:
                expect(page.locator("#gin-confirm")).to_be_visible()
                tap(page, page.locator("#gin-confirm-cancel"), kind)
            else:
                expect(page.locator(".drop-note")).to_contain_text("höchstens 10")
            assert sent[before:] == ["draw"]
            reset_watch(page)
        card = str(hand.last.get_attribute("data-card"))
        seq = table_doc(page, table_id)["seq"]
        drag(page, hand.last, pile)
        wait_seq_after(page, seq)
        assert sent[before:] == ["draw", f"discard {card}"]
        assert presses(page) == (GOAL if played else 1)  # the first: its draw before the knock
        shift = layout_shift(page)
        print(f"gin {kind}: layout shift during a turn", shift["unprompted"], shift["all"])
        assert shift["unprompted"] < MOST_SHIFT, shift
        played += 1
    assert played >= 1


def test_a_tausende_turn_by_touch(phone: Page) -> None:
    """Tausende on Pik Dame's board (R12): on a phone the own melds' area is left out before the
    first meld, so a bar at the screen's top stands for it while a card is carried; a card
    dropped there before the draw is refused (R4); the stock tapped ends the swapping round
    (R12.2); Q♠ is never discarded (R12.6); a card dragged onto the pile is discarded."""
    page, kind = phone, "touch"
    create_table(page, "Ada", ["beginner"], game="tausende")
    tap(page, page.locator("#start-button"), kind)
    expect(page.locator("#cut-control")).to_be_visible()  # two seats: the creator cuts (R2)
    tap(page, page.locator("#cut-button"), kind)
    my_turn(page)
    idle(page)
    sent = record_moves(page)
    hand = page.locator("#hand li")
    size = hand.count()
    finger = Finger(page)
    x, y = center(hand.first)
    finger.down(x, y)
    finger.move(x, y - 80)
    bar = page.locator("#meld-drop")
    expect(bar).to_be_visible()
    finger.move(*center(bar))
    finger.up()
    expect(bar).to_be_hidden()
    expect(page.locator(".drop-note")).to_contain_text("Erst ziehen")
    reset_watch(page)
    tap(page, page.locator("#stock .card"), kind)
    expect(hand).to_have_count(size + 1)
    idle(page)
    pile = page.locator("#discard-top")
    if page.locator("#hand li[data-card='QS']").count():
        touch_drag(page, page.locator("#hand li[data-card='QS']").first, pile)
        expect(page.locator(".drop-note")).to_contain_text("Pik-Dame")
    others = page.locator("#hand li:not([data-card='QS'])")
    card = str(others.last.get_attribute("data-card"))
    touch_drag(page, others.last, pile)
    expect(hand).to_have_count(size)
    idle(page)
    assert sent == ["draw", f"discard {card}"]
    if "QS" not in page.locator("#hand").inner_html():
        assert presses(page) == GOAL


# Every card put in flight (lib/fly.js) and every seat's last move shown over it
# (pikdame/playback.js), counted as they appear.
FLIGHTS = """
window.__flights = 0;
window.__seatMoves = 0;
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.classList && n.classList.contains("flying")) window.__flights += 1;
    if (n.classList && n.classList.contains("seat-move")) window.__seatMoves += 1;
  }
}).observe(document, {childList: true, subtree: true});
"""


@pytest.mark.parametrize(("motion", "least"), [("no-preference", 4), ("reduce", 0)])
def test_draws_and_discards_fly_unless_motion_is_reduced(
    browser: Browser, stack: Stack, motion: Motion, least: int
) -> None:
    """At the bots' normal pace each draw and discard (own and the bot's) flies from where it
    comes to where it goes, with no layout shift, and the bot's moves show over its seat one
    after the other; under reduced motion nothing flies."""
    with opened(browser, stack, "mouse", speed="normal", motion=motion) as page:
        page.context.add_init_script(FLIGHTS)
        seated(page, "mouse")
        reset_watch(page)
        page.evaluate("() => { window.__flights = 0; window.__seatMoves = 0; }")
        hand = page.locator("#hand li")
        size = hand.count()
        page.locator("#stock .card").click()
        expect(hand).to_have_count(size + 1)
        idle(page)
        mouse_drag(page, hand.first, page.locator("#discard-top"))
        expect(hand).to_have_count(size)
        idle(page)
        flights = int(page.evaluate("() => window.__flights"))
        assert flights >= least if least else flights == 0, flights
        assert int(page.evaluate("() => window.__seatMoves")) >= 2  # the bot's draw and discard
        shift = layout_shift(page)
        print(f"{motion}: layout shift during an animated turn", shift["unprompted"], shift["all"])
        assert shift["unprompted"] < MOST_SHIFT, shift


def test_the_daily_shares_the_gestures(device: tuple[str, Page]) -> None:
    """The daily's table is the tables' board (pikdame/board.js): a turn there by gestures too,
    sent as the daily's moves."""
    kind, page = device
    start_game(page, f"Ada ({kind})")  # a day's names are each one player's
    expect(page.locator("#table.my-turn")).to_be_visible()
    page.locator("#guide").evaluate("(guide) => { guide.open = false; }")  # the hand in sight
    idle(page)
    sent = record_moves(page)
    hand = page.locator("#hand li")
    size = hand.count()
    reset_watch(page)
    tap(page, page.locator("#stock .card"), kind)
    expect(hand).to_have_count(size + 1)
    idle(page)
    card = str(hand.first.get_attribute("data-card"))
    (touch_drag if kind == "touch" else mouse_drag)(page, hand.first, page.locator("#discard-top"))
    expect(hand).to_have_count(size)
    idle(page)
    assert sent == ["draw", f"discard {card}"]
    assert presses(page) == GOAL
