"""A whole game by keyboard and screen reader: a Pik Dame round (the daily, against the three
bots) and a Gin hand (at a table against the computer) played with keys only, everything found
through the accessibility tree (roles and names, as a screen reader finds it: no CSS selector;
the game is set up through the API). Every card of the hand is named ("Pik 5"); after each move
the focus stands on a card of the hand (or on what there is to do next), never on the page's
start; each move is said once in the polite announcer, in the order of the move list, and the
player's turn is said when it comes."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Locator, Page, expect

from service.pages.strings import strings
from tests.support.browser_stack import Stack
from tests.support.page_flows import api_call

DE = strings("de")
# "Herz 5", "Pik Dame", "Joker", "Kreuz 9, in Meldung 1": a card's name (card.name, gin.cardInMeld)
SUITS = "|".join(DE[f"suit.{s}"] for s in "SHDC")
RANKS = "|".join(re.escape(DE[f"rankname.{r}"]) for r in "A23456789TJQK")
CARD_NAME = re.compile(rf"^(({SUITS}) ({RANKS})|{DE['card.joker']})(, .+)?$")
TURNS = 80
WAIT_S = 60


def button(page: Page, label: str) -> Locator:
    """An action's button by its name ("Ziehen Z": the label, then its key)."""
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(label)}"))


def focused_role(page: Page) -> str | None:
    """The role of what has the keyboard's focus (None: the page itself, the focus lost)."""
    role: str | None = page.evaluate(
        "() => document.activeElement === document.body ? null"
        " : document.activeElement.getAttribute('role') || document.activeElement.tagName"
    )
    return role


class Ears:
    """What the announcer (the page's polite log, found by its role and name) has said."""

    def __init__(self, page: Page) -> None:
        self.region = page.get_by_role("log", name=DE["a11y.announcer"])
        expect(self.region).to_be_attached()
        self.heard = self.count()

    def count(self) -> int:
        return int(self.region.get_attribute("data-count") or 0)

    def new(self) -> list[str]:
        """The lines said since the last call, in order."""
        now = self.count()
        lines = [line.strip() for line in self.region.inner_text().splitlines() if line.strip()]
        fresh = lines[len(lines) - (now - self.heard) :] if now > self.heard else []
        assert len(fresh) == now - self.heard, "more said than the region keeps"
        self.heard = now
        return fresh


def test_a_pik_dame_round_by_keyboard(page: Page, stack: Stack) -> None:
    day = "2030-07-02"
    stack.clock.set_day(day)
    page.goto("/")
    status, started = api_call(page)("POST", f"/api/daily/{day}/attempts", {"name": "Ada"})
    assert status == 201, started
    page.goto(f"/play/{started['attempt']['id']}")
    hand = page.get_by_role("listbox", name=re.compile(f"^{DE['hand.titleEmpty']}"))
    cards = hand.get_by_role("option")
    expect(cards).to_have_count(15)
    for n in range(15):  # every card named as a screen reader reads it
        expect(cards.nth(n)).to_have_accessible_name(CARD_NAME)
    expect(cards.first).to_be_focused()

    ears = Ears(page)
    moves = page.get_by_role("list", name=DE["table.log"])
    draw, discard = button(page, DE["action.draw"]), button(page, DE["action.discard"])
    over = page.get_by_role("heading", name=DE["end.title"])
    dialog = page.get_by_role("dialog")
    seen = moves.get_by_role("listitem").count()
    played = 0
    for _ in range(TURNS):
        expect(draw).to_be_enabled()
        assert focused_role(page) == "option"
        page.keyboard.press(DE["key.draw"])
        expect(dialog.get_by_role("button", name=DE["confirm.ok"])).to_be_focused()
        page.keyboard.press("Enter")
        expect(discard).to_be_enabled()
        assert focused_role(page) == "option", "the focus left the hand after the draw"
        played += 1
        page.keyboard.press("End")  # the hand's last card
        page.keyboard.press(" ")
        expect(hand.get_by_role("option", selected=True)).to_have_count(1)
        page.keyboard.press(DE["key.discard"])
        expect(dialog.get_by_role("button", name=DE["confirm.ok"])).to_be_focused()
        page.keyboard.press("Enter")
        expect(draw.and_(page.get_by_role("button", disabled=False)).or_(over)).to_be_visible(
            timeout=WAIT_S * 1000
        )
        # said once each, as the move list shows them, then the turn (unless the round is over)
        items = [t.strip() for t in moves.get_by_role("listitem").all_inner_texts()]
        said = ears.new()
        ended = over.is_visible()
        assert said[: len(items) - seen] == items[seen:], (said, items[seen:])
        turn = said[len(items) - seen :]
        if ended:
            assert turn == [], turn
        else:  # the turn said once: what to do now
            assert len(turn) == 1, turn
            assert turn[0] in (DE["status.draw"], DE["status.drawOrTake"]), turn
        seen = len(items)
        if ended:
            break
        assert focused_role(page) == "option", "the focus left the hand after the bots played"
    expect(over).to_be_visible()
    assert played > 1


def test_a_gin_hand_by_keyboard(page: Page, stack: Stack) -> None:
    page.goto("/spielen")
    status, made = api_call(page)(
        "POST",
        "/api/tables",
        {
            "game": "gin",
            "name": "Ada",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "plain"}],
        },
    )
    assert status == 201, made
    page.goto(f"/tables/{made['table']['id']}")
    start = page.get_by_role("button", name=DE["tables.start"])
    expect(start).to_be_visible()
    for _ in range(40):  # Tab to the waiting room's start button, as a keyboard does
        page.keyboard.press("Tab")
        if start.evaluate("(el) => el === document.activeElement"):
            break
    expect(start).to_be_focused()
    page.keyboard.press("Enter")
    hand = page.get_by_role("listbox", name=DE["gin.hand"])
    cards = hand.get_by_role("option")
    expect(cards).to_have_count(10)
    for n in range(10):
        expect(cards.nth(n)).to_have_accessible_name(CARD_NAME)

    ears = Ears(page)
    over = page.get_by_role("heading", name=DE["gin.handOver"].replace("{n}", "1"))
    passing = button(page, DE["gin.action.pass"])
    draw = button(page, DE["gin.action.draw"])
    knock = button(page, DE["gin.action.knock"].rstrip(" …"))
    defend = page.get_by_role("button", name=DE["gin.defend.confirm"])
    mine = 0  # own moves made that leave the hand running
    said: list[str] = []
    for _ in range(TURNS):
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:  # until the page offers the player a move
            if over.is_visible() or defend.is_visible():
                break
            if passing.is_visible() and passing.is_enabled():
                break
            if draw.is_visible() and draw.is_enabled():
                break
            page.wait_for_timeout(50)
        said += ears.new()
        if over.is_visible():
            break
        heard = ears.count()
        if defend.is_visible():
            expect(defend).to_be_focused()  # the defence's confirmation is what there is to do
            page.keyboard.press("Enter")
            break  # the defence ends the hand
        if passing.is_visible() and passing.is_enabled():
            page.keyboard.press("p")
            mine += 1
        else:
            page.keyboard.press("z")
            expect(cards).to_have_count(11)
            mine += 1
            assert focused_role(page) == "option", "the focus left the hand after the draw"
            page.keyboard.press("ArrowLeft")  # from the first card round to the last
            page.keyboard.press("Enter")
            expect(hand.get_by_role("option", selected=True)).to_have_count(1)
            if knock.is_enabled():
                page.keyboard.press("k")
                confirm = page.get_by_role("dialog").get_by_role("button").first
                expect(confirm).to_be_focused()
                page.keyboard.press("Enter")
                break  # the knock ends the hand
            page.keyboard.press("w")
            mine += 1
        page.wait_for_function(
            "([log, n]) => Number(log.dataset.count) > n",
            arg=[ears.region.element_handle(), heard],
        )
        # The computer knocked at once: the defence is what to do (its panel may come a frame
        # after the announcement of the knock, with the focus on its confirmation). The focus is
        # read once: read twice, the panel could take it between the reads (CI saw an option,
        # then the confirmation); if it comes after the read, the next turn's wait meets it.
        role = focused_role(page)
        if defend.is_visible() or role == "BUTTON":
            expect(defend).to_be_focused()
        else:
            assert role == "option", "the focus left the hand after a move"
    expect(over).to_be_visible(timeout=WAIT_S * 1000)
    said += ears.new()
    # each own move said once (the knock or defence that ends the hand is the result's to say)
    own = [line for line in said if line.startswith("Du ") and not line.startswith("Du bist")]
    assert mine - 1 <= len(own) <= mine, (own, mine)
    assert any(line.startswith("Du bist dran") for line in said), said
