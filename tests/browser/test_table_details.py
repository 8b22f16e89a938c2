"""At the table: confirm dialogs in words with cards as cards, the Anlegen dialog's meld
numbers, a lay-off error that says why, Escape closing the hint."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from engine import Card, Meld
from tests.support.browser_stack import Stack
from tests.support.page_checks import raw_text
from tests.support.page_flows import start_game
from tests.support.table_player import Player, hand, wait_idle

# F2 notation showing through: a move word or a card code as text.
NOTATION = re.compile(r"(?m)^(draw|take|meld|lay|swap|discard|resign)\b|\b[2-9TJQKA][SHDC]\b|\bX\b")


def dialog_text(page: Page) -> str:
    text = page.locator("#confirm").inner_text()
    assert raw_text(page) == [], raw_text(page)
    assert not NOTATION.search(text.replace("Esc", "")), text
    return text


def open_dialog(page: Page, action: str) -> str:
    page.locator(f"#actions button[data-action={action}]").click()
    expect(page.locator("#confirm")).to_be_visible()
    return dialog_text(page)


def cancel(page: Page) -> None:
    page.locator("#confirm-cancel").click()
    expect(page.locator("#confirm")).to_be_hidden()


def test_confirm_dialogs_in_words_with_cards_as_cards(page: Page, stack: Stack) -> None:
    stack.clock.set_day("2030-05-02")
    start_game(page, "Worte")
    drawing = open_dialog(page, "draw")
    assert "Du ziehst die oberste Karte vom Stapel." in drawing
    assert drawing.count("Du ziehst") == 1, drawing  # one sentence, not said twice
    assert re.search(r"Im Stapel liegen noch \d+ Karten\.", drawing), drawing
    cancel(page)
    page.locator("#resign").click()
    assert "Du gibst die Runde auf." in dialog_text(page)
    cancel(page)
    player = Player(page)
    player.act("draw")
    card = hand(page)[0]
    player.select([0])
    assert "Du wirfst ab:" in open_dialog(page, "discard")
    expect(page.locator(f"#confirm-preview .card[data-card='{card}']")).to_have_count(1)
    cancel(page)

    page.locator("#lang-switch a[hreflang=en]").click()
    page.wait_for_selector("body[data-ready='1']")
    player.select([0])
    assert "You discard:" in open_dialog(page, "discard")
    cancel(page)
    page.locator("#resign").click()
    assert "You give up the round." in dialog_text(page)
    cancel(page)
    page.locator("#lang-switch a[hreflang=de]").click()


def test_dialogs_lay_off_and_its_error_in_both_languages(page: Page, stack: Stack) -> None:
    """Plays until the player has melds, then opens Anlegen: every meld badged with its own
    number (all were "1"); a card that fits no end is refused with the reason."""
    stack.clock.set_day("2030-04-04")  # the day test_play_mouse shows to need every action
    start_game(page, "Anleger")
    player = Player(page)
    for _ in range(40):
        assert player.begin_turn(), "the round ended before the player laid two melds"
        if page.locator("#own-melds .meld").count() >= 2:
            break
        player.end_turn()
    melds = page.locator("#own-melds .meld")
    count = melds.count()
    assert [melds.nth(i).locator(".meld-no").inner_text() for i in range(count)] == [
        str(i + 1) for i in range(count)
    ]
    # a natural hand card that fits meld 1 at no end, by the engine's rule
    meld1 = Meld.build(
        [
            Card.parse(str(c))
            for c in melds.nth(0)
            .locator("[data-card]")
            .evaluate_all("(cards) => cards.map((c) => c.dataset.card)")
        ],
        # the meld's name, read first: "Auslage 1: Satz, 30 Punkte"
        "set" if "Satz" in (melds.nth(0).text_content() or "") else "run",
    )
    misfit = next(c for c in hand(page) if c != "X" and not meld1.accepts(Card.parse(c)))
    player.select(player.indices_for([misfit]))
    text = open_dialog(page, "lay")
    assert "An welche Auslage?" in text and "Du legst an Auslage 1 an:" in text
    options = page.locator("#confirm input[name=meld]")
    expect(options).to_have_count(count)
    badges = page.locator("#confirm .meld-option .meld-no").all_inner_texts()
    assert badges == [str(i + 1) for i in range(count)]
    page.locator("#confirm input[name=meld][value='2']").check()
    assert "Du legst an Auslage 2 an:" in dialog_text(page)
    page.locator("#confirm input[name=meld][value='1']").check()
    page.locator("#confirm-ok").click()
    wait_idle(page)
    message = page.locator("#message")
    expect(message).to_have_attribute("data-kind", "error")
    expect(message).to_contain_text("passt nicht an Auslage 1")
    assert "keine gültige Kombination" not in message.inner_text()
    expect(page.locator("#hand li[aria-selected=true]")).to_have_count(1)  # kept to correct

    page.locator("#lang-switch a[hreflang=en]").click()
    page.wait_for_selector("body[data-ready='1']")
    player.select(player.indices_for([misfit]))
    text = open_dialog(page, "lay")
    assert "Onto which meld?" in text and "You add to meld 1:" in text
    page.locator("#confirm-ok").click()
    wait_idle(page)
    expect(page.locator("#message")).to_contain_text("does not fit meld 1")
    page.locator("#lang-switch a[hreflang=de]").click()


def test_escape_closes_the_hint(page: Page, stack: Stack) -> None:
    stack.clock.set_day("2030-05-04")
    start_game(page, "Esc")
    player = Player(page, keyboard=True)
    player.act("draw")
    player.hint()
    expect(page.locator("#hint")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#hint")).to_be_hidden()
    expect(page.locator("#hand li.hinted")).to_have_count(0)
    expect(page.locator("#hand li:focus")).to_have_count(1)
