"""A test player that works the table page only through what a person sees and does: it reads
the cards shown, asks for the hint, selects cards and confirms actions with the mouse or the
keyboard. It never looks at the API or the game state."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import Page, expect

CARD = re.compile(r"^([2-9TJQKA][SHDC]|X)$")
MAX_TURNS = 80
TURN_TIMEOUT_MS = 60_000


def points(code: str) -> int:
    if code == "X":
        return 20
    if code == "QS":
        return 100
    rank = code[0]
    return 20 if rank == "A" else 10 if rank in "TJQK" else 5


def wait_idle(page: Page) -> None:
    """Until the page has answered the last action: the player's turn again, or the end."""
    page.wait_for_function(
        "() => document.body.dataset.ready === '1' && document.body.dataset.busy !== '1'"
        " && (document.querySelector('#table.my-turn') !== null"
        "     || !document.querySelector('#end').hidden)",
        timeout=TURN_TIMEOUT_MS,
    )


def finished(page: Page) -> bool:
    return page.locator("#end").is_visible()


def hand(page: Page) -> list[str]:
    cards = page.locator("#hand li").evaluate_all("(items) => items.map((i) => i.dataset.card)")
    return [str(c) for c in cards]


def phase_is_draw(page: Page) -> bool:
    return (
        page.locator("button[data-action=draw]").is_enabled()
        and page.locator("#hint-btn").is_disabled()
    )


def error_message(page: Page) -> str:
    box = page.locator("#message")
    return box.inner_text() if box.get_attribute("data-kind") == "error" else ""


def discard_choice(cards: list[str]) -> int:
    """The index of the card a cautious player throws away: the costliest natural card."""
    naturals = [i for i, c in enumerate(cards) if c != "X"]
    pool = naturals or list(range(len(cards)))
    return max(pool, key=lambda i: points(cards[i]))


@dataclass
class Player:
    page: Page
    keyboard: bool = False
    melds_laid: int = 0
    lays: int = 0
    takes: int = 0
    turns: int = 0

    # -- the two ways of acting ------------------------------------------------------------

    def select(self, indices: list[int]) -> None:
        if self.keyboard:
            self.page.keyboard.press(self.key("hand"))
            for i in sorted(indices):
                self.page.keyboard.press("Home")
                for _ in range(i):
                    self.page.keyboard.press("ArrowRight")
                self.page.keyboard.press("Space" if i % 2 else "Enter")
        else:
            for i in indices:
                self.page.locator("#hand li").nth(i).click()
        selected = self.page.locator("#hand li[aria-selected=true]").count()
        assert selected == len(indices), f"{selected} selected, wanted {indices}"

    def act(self, action: str) -> None:
        """Choose an action and confirm it in the panel."""
        if self.keyboard:
            self.page.keyboard.press(self.key(action))
            expect(self.page.locator("#confirm")).to_be_visible()
            expect(self.page.locator("#confirm-ok")).to_be_focused()
            self.page.keyboard.press("Enter")
        else:
            self.page.locator(f"#actions button[data-action={action}]").click()
            expect(self.page.locator("#confirm")).to_be_visible()
            self.page.locator("#confirm-ok").click()
        wait_idle(self.page)
        assert not error_message(self.page), error_message(self.page)

    def key(self, name: str) -> str:
        shortcut = self.page.evaluate(
            "(name) => JSON.parse(document.getElementById('strings').textContent)['key.' + name]",
            name,
        )
        return str(shortcut)

    def hint(self) -> list[str]:
        if self.keyboard:
            self.page.keyboard.press(self.key("hint"))
        else:
            self.page.locator("#hint-btn").click()
        box = self.page.locator("#hint")
        expect(box.locator("h3, .error")).to_be_visible()
        moves = box.locator("li[data-move]").evaluate_all("(li) => li.map((x) => x.dataset.move)")
        return [str(m) for m in moves]

    # -- one turn --------------------------------------------------------------------------

    def indices_for(self, cards: list[str]) -> list[int]:
        shown = hand(self.page)
        chosen: list[int] = []
        for card in cards:
            i = next(i for i, c in enumerate(shown) if c == card and i not in chosen)
            chosen.append(i)
        return chosen

    def take_pair(self) -> list[int] | None:
        """Two hand cards that make a set with the top discard, if the page offers a take."""
        if "Ablage auf" not in self.page.locator("#status").inner_text():
            return None
        top = self.page.locator("#discard-top [data-card]").get_attribute("data-card")
        if top is None or top == "X":
            return None
        cards = hand(self.page)
        same = [i for i, c in enumerate(cards) if c[0] == top[0]]
        for a in same:
            for b in same:
                if a < b and len(cards) > 2 and not cards[a][1] == cards[b][1] == top[1]:
                    return [a, b]
        return None

    def resign(self) -> None:
        """Give up the round (unless it has already ended)."""
        wait_idle(self.page)
        if finished(self.page):
            return
        self.page.locator("#resign").click()
        self.page.locator("#confirm-ok").click()
        wait_idle(self.page)

    def lay(self, card: str, meld: str, end: str | None) -> None:
        """Anlegen: with the mouse by clicking the own meld after selecting the card, with the
        keyboard by the action key and the meld's digit."""
        self.select(self.indices_for([card]))
        if self.keyboard:
            self.page.keyboard.press(self.key("lay"))
            expect(self.page.locator("#confirm")).to_be_visible()
            self.page.keyboard.press(meld)
            expect(self.page.locator(f"#confirm input[name=meld][value='{meld}']")).to_be_checked()
            expect(self.page.locator("#confirm-ok")).to_be_focused()
        else:
            self.page.locator(f"#own-melds button[data-meld='{meld}']").click()
            expect(self.page.locator("#confirm")).to_be_visible()
        if end is not None:
            self.page.locator(f"#confirm input[name=end][value={end}]").check()
        if self.keyboard:
            self.page.keyboard.press("Enter")
        else:
            self.page.locator("#confirm-ok").click()
        wait_idle(self.page)
        assert not error_message(self.page), error_message(self.page)

    def begin_turn(self) -> bool:
        """Draw (or take) and lay what the hint offers; False when the round has ended."""
        wait_idle(self.page)
        if finished(self.page):
            return False
        self.turns += 1
        pair = self.take_pair()
        if pair is None and "Stapel ist leer" in self.page.locator("#status").inner_text():
            self.resign()  # a forced take this simple player cannot see: give up the round
            return False
        if pair is not None:
            self.select(pair)
            self.act("take")
            self.takes += 1
        else:
            self.act("draw")
        if finished(self.page):
            return False
        for move in self.hint():
            kind, *rest = move.split(" ")
            cards = [c for c in rest if CARD.match(c)]
            if len(hand(self.page)) <= len(cards):
                break
            if kind == "meld":
                self.select(self.indices_for(cards))
                self.act("meld")
                self.melds_laid += 1
            elif kind == "lay" and (rest[0] != "X" or not self.keyboard):
                self.lay(rest[0], rest[1], rest[2] if len(rest) > 2 else None)
                self.lays += 1
        return True

    def end_turn(self) -> None:
        """Discard the costliest natural card."""
        cards = hand(self.page)
        self.select([discard_choice(cards)])
        self.act("discard")

    def play_turn(self) -> None:
        if self.begin_turn():
            self.end_turn()

    def play_round(self) -> None:
        for _ in range(MAX_TURNS):
            wait_idle(self.page)
            if finished(self.page):
                return
            self.play_turn()
        raise AssertionError("the round did not end")
