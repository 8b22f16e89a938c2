"""The replay viewer's analysis (docs/ANALYSIS.md): "Analysieren" shows every decision of the
player that differed from the analyst, computed by the stack's worker once the game is verified; a
decision jumps to its position (the one before its move) and names the move played there and the
better one in the page's words with card symbols (issue 40), never the engine's F2 text."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.gin_daily import play_gin_to_end
from tests.support.page_flows import patient_call
from tests.support.player import play_to_end

SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def expect_in_words(note: Any, move: str) -> None:
    """The note names ``move`` (F2) in words: its card's suit symbol, not the engine's text."""
    expect(note).not_to_contain_text(move)
    card = re.search(r"\b[2-9TJQKA]([SHDC])\b", move)
    if card:
        expect(note).to_contain_text(SYMBOL[card.group(1)])


ANALYSIS_TIMEOUT_MS = 120_000


def wait_for_analysis(page: Page, path: str) -> Any:
    """The analysis document at ``path`` once the stack's worker has computed it (202 before)."""
    for _ in range(600):
        answer = page.request.get(path)
        if answer.status == 200:
            return answer.json()
        assert answer.status == 202, answer.text()
        page.wait_for_timeout(200)
    raise AssertionError(f"no analysis at {path}")


def test_a_marked_move_jumps_to_its_position_and_shows_the_better_move(
    page: Page, stack: Stack
) -> None:
    day = "2030-05-17"
    stack.clock.set_day(day)
    page.goto("/")
    made = page.request.post(f"/api/daily/{day}/attempts", data={"name": "Ana"})
    assert made.status == 201, made.text()
    attempt_id = made.json()["attempt"]["id"]

    call = patient_call(page)
    # a player who never melds (R4.2) and throws the costliest card: the analyst marks it
    play_to_end(call, attempt_id, use_hints=False)
    status, verdict = call("GET", f"/api/attempts/{attempt_id}/verification?wait=20", None)
    assert status == 200 and verdict["verification"]["status"] == "verified", verdict

    page.goto(f"/replay/{attempt_id}")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#replay-analyse").click()
    expect(page.locator("#replay-analysis")).to_have_attribute(
        "data-ready", "1", timeout=ANALYSIS_TIMEOUT_MS
    )
    status, doc = call("GET", f"/api/attempts/{attempt_id}/analysis", None)
    assert status == 200, doc
    marked = [d for d in doc["decisions"] if d["mark"]]
    assert marked, "the scripted player's round has marked decisions"
    differed = [d for d in doc["decisions"] if d["same"] is None]
    items = page.locator("#replay-analysis .analysis-decision")
    expect(items).to_have_count(len(differed))

    last = marked[-1]
    item = items.nth(differed.index(last))
    expect(item).to_have_attribute("data-move", str(last["move_index"]))
    item.locator(".analysis-jump").click()
    # the position before the marked move: its step, the move played there, the better one
    expect(page.locator("#step-range")).to_have_value(str(last["move_index"]))
    note = page.locator("#replay-better")
    expect(note).to_be_visible()
    expect_in_words(note, last["played"])
    expect_in_words(note, last["best"])
    played = page.locator("#replay-moves li").nth(last["move_index"])
    expect(played).to_have_class(re.compile(r"\banalysis-marked\b"))
    page.locator("#forward").click()  # the next position: the note belongs to the marked one
    expect(note).to_be_hidden()


def test_a_gin_hands_marked_move_jumps_to_its_position(page: Page, stack: Stack) -> None:
    """Gin's replay viewer analyses the hand on screen (``?hand=N``); a marked decision jumps to
    the position its move was played from."""
    day = "2030-05-18"
    stack.clock.set_day(day)
    page.goto("/")
    made = page.request.post(f"/api/daily/{day}/attempts", data={"name": "Gina", "game": "gin"})
    assert made.status == 201, made.text()
    attempt_id = made.json()["attempt"]["id"]

    call = patient_call(page)
    play_gin_to_end(call, attempt_id)
    status, verdict = call("GET", f"/api/attempts/{attempt_id}/verification?wait=20", None)
    assert status == 200 and verdict["verification"]["status"] == "verified", verdict
    hands = verdict["verification"]["hands"]
    found: tuple[int, dict[str, Any]] | None = None
    for hand in range(1, hands + 1):  # the first hand with a marked decision
        doc = wait_for_analysis(page, f"/api/attempts/{attempt_id}/analysis?hand={hand}")
        marked = [d for d in doc["decisions"] if d["mark"]]
        if marked:
            found = (hand, marked[0])
            break
    assert found is not None, "the scripted player's match has a marked decision"
    hand, decision = found

    page.goto(f"/gin/replay/{attempt_id}")
    page.wait_for_selector("body[data-ready='1']")
    for _ in range(2000):  # step on to the hand
        if page.locator("#replay-hand").inner_text().endswith(f"Hand {hand}"):
            break
        page.locator("#replay-next").click()
    page.locator("#replay-analyse").click()
    expect(page.locator("#replay-analysis")).to_have_attribute(
        "data-ready", "1", timeout=ANALYSIS_TIMEOUT_MS
    )
    marked_at = decision["move_index"]
    item = page.locator(f"#replay-analysis .analysis-decision[data-move='{marked_at}']")
    item.locator(".analysis-jump").click()
    note = page.locator("#replay-better")
    expect_in_words(note, decision["played"])
    expect_in_words(note, decision["best"])
    expect(page.locator("#replay-hand")).to_contain_text(f"Hand {hand}")
    step = page.locator("body").get_attribute("data-step")
    page.locator("#replay-next").click()  # the note belongs to the marked position alone
    expect(note).to_be_hidden()
    page.locator("#replay-prev").click()
    expect(page.locator("body")).to_have_attribute("data-step", str(step))
    expect(note).to_be_visible()
