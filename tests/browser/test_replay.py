"""The replay viewer: the going-out card goes face down as on the live table, move
numbers from 100 keep every digit, and the keyboard line is readable on the felt."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_checks import contrast, overflow, raw_text
from tests.support.page_flows import api_call
from tests.support.player import play_to_end

DAY = "2030-04-04"  # a round that ends by going out, after more than a hundred moves


def test_replay_of_a_round_that_ends_going_out(page: Page, stack: Stack, artifacts: Path) -> None:
    stack.clock.set_day(DAY)
    page.goto("/")
    call = api_call(page)
    status, started = call("POST", f"/api/daily/{DAY}/attempts", {"name": "Nachspiel"})
    assert status == 201, started
    attempt = started["attempt"]["id"]
    final = play_to_end(call, attempt, use_hints=False)
    outcome = final["view"]["outcome"]
    assert outcome["end"] == "out", outcome
    stack.clock.set_day("2030-04-05")  # the day has closed: its games are public

    page.goto(f"/replay/{attempt}")
    page.wait_for_selector("body[data-ready='1']")
    moves = page.locator("#replay-moves li")
    total = moves.count()
    assert total >= 100, total
    # every digit of the move numbers shows, inside the list
    numbers = moves.locator(".move-no")
    assert numbers.nth(99).inner_text() == "100"
    clipped = numbers.evaluate_all(
        "(els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1"
        " || e.getBoundingClientRect().left < e.closest('ol').getBoundingClientRect().left)"
        ".length"
    )
    assert clipped == 0
    # the last move: the winner's last card goes out face down
    last = moves.nth(total - 1).inner_text()
    assert "geht verdeckt aus dem Spiel" in last and "wirft" not in last, last
    page.keyboard.press("End")
    expect(page.locator("#replay-step")).to_contain_text(f"Zug {total} von {total}")
    expect(page.locator("#replay-step")).to_contain_text("geht verdeckt aus dem Spiel")
    # the keyboard line reads well on the felt (WCAG AA: 4.5)
    keys = page.locator("#replay-keys")
    expect(keys.locator("kbd")).to_have_count(4)
    assert contrast(page, "#replay-keys") >= 4.5
    assert raw_text(page) == []
    page.screenshot(path=str(artifacts / "replay-end.png"), full_page=True)

    page.goto(f"/replay/{attempt}?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    last = page.locator("#replay-moves li").last.inner_text()
    assert "leaves the game face down" in last, last
    expect(page.locator("#replay-keys")).to_contain_text("move by move")
    page.set_viewport_size({"width": 390, "height": 844})
    assert overflow(page) <= 0
    page.screenshot(path=str(artifacts / "replay-phone-en.png"), full_page=True)
    page.goto("/rules?lang=de")


BADGE_PAGES = [
    ("/gin/replay/0123456789abcdef", None),  # Gin's replay viewer (G2: no card scores apart)
    ("/lernen/gin", None),
    ("/replay/0123456789abcdef", "100"),  # Pik Dame's (R1: Q♠ = 100)
    ("/lernen/pikdame", "100"),
    ("/rules/tausende", "100"),  # R12: Q♠ = 100 in Tausende too
]


def test_only_a_game_whose_q_of_spades_scores_100_badges_it(page: Page) -> None:
    """Defect: the Gin replay drew Pik Dame's "100" badge on Q♠: the shared card face drew it on
    every game's. The badge is now a fact the game declares (its adapter's ``badges``), passed
    to the page as data; a page of no game's (the settings) draws none either."""
    for path, badge in [*BADGE_PAGES, ("/settings", None)]:
        page.goto(path)
        drawn = page.evaluate(
            """async () => {
                const {face} = await import('/static/js/lib/cards.js');
                const queen = face('QS');
                const mark = queen.querySelector('.badge');
                return [mark ? mark.textContent : null, face('KS').querySelector('.badge')];
            }"""
        )
        assert drawn == [badge, None], path
