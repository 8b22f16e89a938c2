"""Every page and every dialog, in German, English and Dutch, on a phone held upright (390 × 844)
and on a desktop (1280 × 800): no raw placeholder ("{…}"), no "null"/"undefined" in what a person
sees or a screen reader reads, nothing wider than the screen."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.support.browser_stack import Stack
from tests.support.gin_player import gin_choice
from tests.support.page_checks import low_contrast, overflow, raw_text, wrong_plurals
from tests.support.page_flows import advance_to_melds, api_call
from tests.support.table_flows import create_table, play_until
from tests.support.table_player import hand, wait_idle

SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}
# days whose deal gives the simple API player a meld before the round ends
DAYS = {("de", "phone"): "2030-06-02", ("de", "desktop"): "2030-06-03",
        ("en", "phone"): "2030-06-04", ("en", "desktop"): "2030-06-05",
        ("nl", "phone"): "2030-06-07"}  # fmt: skip
# German and English at both sizes, Dutch on the phone (tests/browser/test_accessibility.py
# looks at every state in every language at both sizes for raw text, plurals and width too)
LANG_SIZES = [*DAYS]
LONG_NAME = "Wolfgang Amadeus M."  # 19 characters: a long name in every table


def as_stranger(page: Page, visit: Any) -> None:
    """``visit()`` without the page's cookies (the creator's own invite link goes on to the
    table): a friend's view of the invite; the creator's session afterwards as before."""
    saved = page.context.cookies()
    page.context.clear_cookies()
    try:
        visit()
    finally:
        page.context.clear_cookies()
        page.context.add_cookies(saved)  # type: ignore[arg-type]


# A defence's heading that explains lay-offs ("card → meld") where nothing was laid off.
LEGEND_WITHOUT_LAYOFFS = """() => [...document.querySelectorAll(
    "#gin-result .gin-declared[data-kind=defend]")]
  .filter((d) => !d.querySelector(".gin-layoff"))
  .map((d) => d.querySelector("p").textContent).filter((text) => text.includes("→"))"""


class Sweep:
    def __init__(self, page: Page, artifacts: Path, label: str) -> None:
        self.page = page
        self.artifacts = artifacts
        self.label = label
        self.seen: list[str] = []

    def check(self, where: str) -> None:
        """Nothing raw in the text, no "1 Tage"/"1 days", no text too faint to read (WCAG AA),
        nothing wider than the screen."""
        page = self.page
        self.seen.append(where)
        assert raw_text(page) == [], (self.label, where, raw_text(page))
        assert wrong_plurals(page) == [], (self.label, where, wrong_plurals(page))
        assert low_contrast(page) == [], (self.label, where, low_contrast(page))
        assert overflow(page) <= 0, (self.label, where, overflow(page))
        wide = page.evaluate(
            "() => [...document.querySelectorAll('table, .confirm, .hint-box, .end, .seat')]"
            ".filter((e) => e.getClientRects().length"
            " && e.getBoundingClientRect().right > window.innerWidth + 0.5)"
            ".map((e) => e.tagName + '.' + e.className)"
        )
        assert wide == [], (self.label, where, wide)

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.artifacts / f"sweep-{self.label}-{name}.png"))

    def page_at(self, path: str, where: str) -> None:
        self.page.goto(path)
        self.page.wait_for_load_state("networkidle")
        self.check(where)

    def dialog(self, action: str, where: str) -> None:
        """Open an action: its panel (or the explanation why not), checked, then closed."""
        page = self.page
        page.locator(f"#actions button[data-action={action}]").click()
        self.check(where)
        if page.locator("#confirm").is_visible():
            self.shot(f"dialog-{action}")
            page.locator("#confirm-cancel").click()
            expect(page.locator("#confirm")).to_be_hidden()
        else:
            expect(page.locator("#message")).not_to_be_empty()


@pytest.mark.parametrize(("lang", "size"), LANG_SIZES)
def test_every_page_and_dialog(
    page: Page, stack: Stack, artifacts: Path, lang: str, size: str
) -> None:
    day = DAYS[(lang, size)]
    stack.clock.set_day(day)
    page.set_viewport_size(SIZES[size])
    sweep = Sweep(page, artifacts, f"{lang}-{size}")
    sweep.page_at(f"/?lang={lang}", "today")
    sweep.page_at("/rules", "rules")
    sweep.page_at("/play/0000000000000000", "play: unknown game")

    # a game with a meld, at the player's draw: every dialog of the table
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    call = api_call(page)
    status, started = call("POST", f"/api/daily/{day}/attempts", {"name": LONG_NAME})
    assert status == 201, started
    attempt = started["attempt"]["id"]
    sweep.page_at(f"/replay/{attempt}", "replay: day still open")
    advance_to_melds(call, attempt)
    page.goto(f"/play/{attempt}")
    page.wait_for_selector("body[data-ready='1']")
    sweep.check("table")
    sweep.shot("table")
    page.locator("#guide summary").click()
    sweep.check("guide")
    page.locator(".keys-help summary").click()
    sweep.check("keys help")
    for summary in page.locator("#opponents .seat-melds summary").all():
        summary.click()
    sweep.check("bots' melds")
    if page.locator("#pile-toggle").is_enabled():
        page.locator("#pile-toggle").click()
        sweep.check("whole pile")
    sweep.dialog("draw", "draw")
    page.locator("#hand li").nth(0).click()
    page.locator("#hand li").nth(1).click()
    sweep.dialog("take", "take")
    page.keyboard.press("Escape")
    page.locator("#resign").click()
    sweep.check("resign")
    page.locator("#confirm-cancel").click()
    page.locator("#actions button[data-action=draw]").click()
    page.locator("#confirm-ok").click()
    wait_idle(page)
    page.locator("#hint-btn").click()
    expect(page.locator("#hint h3, #hint .error")).to_be_visible()
    sweep.check("hint")
    sweep.shot("hint")
    page.keyboard.press("Escape")
    page.locator("#hand li").nth(0).click()
    for action in ("lay", "swap", "discard"):
        sweep.dialog(action, action)
    sweep.shot("discard")
    page.locator("#hand li").nth(1).click()
    page.locator("#hand li").nth(2).click()
    sweep.dialog("meld", "meld")
    # a refused lay-off explains itself: every own meld tried with the first card
    page.keyboard.press("Escape")
    page.locator("#hand li").nth(0).click()
    page.locator("#own-melds .meld").first.click()
    page.locator("#confirm-ok").click()
    wait_idle(page)
    sweep.check("after a lay-off")
    assert len(hand(page)) > 0

    # the end: scores, verdict, share text
    page.locator("#resign").click()
    page.locator("#confirm-ok").click()
    wait_idle(page)
    expect(page.locator("#verify-status")).to_have_attribute("data-state", "verified",
                                                             timeout=90_000)  # fmt: skip
    sweep.check("end screen")
    sweep.shot("end")

    # the daily habit: place in the field, statistics, leagues
    page.goto(f"/field/{attempt}")
    page.wait_for_selector("body[data-ready='1']")
    sweep.check("field")
    sweep.shot("field")
    page.goto("/stats")
    page.wait_for_selector("body[data-ready='1']")
    sweep.check("stats")
    status, created = call("POST", "/api/leagues", {"name": LONG_NAME})
    assert status == 201, created
    page.goto("/leagues")
    page.wait_for_selector("body[data-ready='1']")
    sweep.check("leagues")
    page.goto(f"/leagues/{created['league']['code']}")
    page.wait_for_selector("body[data-ready='1']")
    sweep.check("league")
    sweep.shot("league")

    # rankings: every tab
    page.goto("/rankings")
    page.wait_for_selector("body[data-ready='1']")
    for tab in ("today", "alltime", "around", "day"):
        page.locator(f"#tab-{tab}").click()
        page.wait_for_load_state("networkidle")
        sweep.check(f"rankings: {tab}")
        if tab in ("today", "day"):  # the board of a day names its date, in the page's language
            expect(page.locator("#board-title")).to_contain_text("2030")
    sweep.shot("rankings")

    # the next day: the archive and the replay of the closed day
    # (ten days on, by the calendar: replacing the day's digits in the text turned 2030-06-03
    # into 2130-06-03, unnoticed while the archive listed only days that had players)
    stack.clock.set_day((dt.date.fromisoformat(day) + dt.timedelta(days=10)).isoformat())
    sweep.page_at("/archive", "archive")
    sweep.shot("archive")
    # Pik Dame's archive speaks of its day's hand, not of Gin's "gesetztes Match"
    expect(page.locator(f"li.day[data-date='{day}'] .hint-text")).not_to_contain_text(
        re.compile("match", re.I)
    )
    page.locator(f"li.day[data-date='{day}'] button.check").click()
    sweep.check("archive: fairness check")
    page.goto(f"/replay/{attempt}")
    page.wait_for_selector("body[data-ready='1']")
    page.keyboard.press("End")
    sweep.check("replay")
    sweep.shot("replay")
    page.goto(f"/rankings?date={day}&tab=day")
    page.wait_for_selector("body[data-ready='1']")
    sweep.check("rankings of a closed day")
    page.goto("/rules?lang=de")


@pytest.mark.parametrize(("lang", "size"), LANG_SIZES)
def test_every_tables_page(page: Page, stack: Stack, artifacts: Path, lang: str, size: str) -> None:
    """The pages: Spielen, the invite's join page, the waiting room, the table with its
    countdown, a bot's level menu and the resign dialog, the cut, the standings and the replay."""
    page.set_viewport_size(SIZES[size])
    sweep = Sweep(page, artifacts, f"tables-{lang}-{size}")
    sweep.page_at(f"/spielen?lang={lang}", "tables: new")
    sweep.shot("new")
    sweep.page_at("/tables/0000000000000000", "tables: unknown table")
    link = create_table(page, LONG_NAME, ["human", "zen", "beginner"], lang=lang, timer=60)
    sweep.check("tables: waiting room")
    sweep.shot("waiting")
    table_url = page.url
    as_stranger(page, lambda: sweep.page_at(link, "tables: join page"))
    page.goto(table_url)
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#start-button").click()
    expect(page.locator("#hand li").first).to_be_visible()
    expect(page.locator("#countdown")).to_contain_text(LONG_NAME)  # R9: the turn timer, shown
    seconds = int("".join(ch for ch in page.locator("#countdown").inner_text() if ch.isdigit()))
    assert 0 <= seconds <= 60
    sweep.check("tables: table")
    sweep.shot("table")
    page.locator("[data-bot-level='2']").click()
    sweep.check("tables: bot level menu")
    page.locator("#resign").click()
    sweep.check("tables: resign dialog")
    page.locator("#confirm-ok").click()
    expect(page.locator("#standings")).to_be_visible()
    sweep.check("tables: standings")
    sweep.shot("standings")
    page.locator("#replay-link").click()
    page.wait_for_selector("body[data-ready='1']")
    sweep.check("tables: replay")
    as_stranger(page, lambda: sweep.page_at(link, "tables: join page of an ended table"))
    expect(page.locator("#join-closed")).to_be_visible()

    create_table(page, LONG_NAME, ["advanced"], lang=lang)
    page.locator("#start-button").click()
    expect(page.locator("#cut-control")).to_be_visible()
    sweep.check("tables: cut")
    sweep.shot("cut")


@pytest.mark.parametrize(("lang", "size"), LANG_SIZES)
def test_every_gin_page(page: Page, stack: Stack, artifacts: Path, lang: str, size: str) -> None:
    """Gin Rommé's pages: Spielen with Gin, the waiting room, the table at the player's
    discard with a card selected, the knock dialog, the defence, a hand's result, the resign and
    "Wiederholen" dialogs, the standings, the replay viewer, and the daily pages' Gin parts."""
    page.set_viewport_size(SIZES[size])
    sweep = Sweep(page, artifacts, f"gin-{lang}-{size}")
    page.goto(f"/spielen?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("input[name=game][value=gin]").check()
    sweep.check("gin: new")
    page.locator("#name").fill(LONG_NAME)
    page.locator("#turn-timer").select_option("60")
    page.locator("#create-button").click()
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("body[data-ready='1']")
    sweep.check("gin: waiting room")
    page.locator("#start-button").click()
    expect(page.locator("#gin-hand li").first).to_be_visible()
    table_id = page.url.rstrip("/").rsplit("/", 1)[1]
    sweep.check("gin: table")
    sweep.shot("table")
    page.locator(".keys-help summary").click()
    page.locator(".gin-log-box summary").click()
    sweep.check("gin: keys and moves")
    # through the API to the interesting places, each then seen on the page
    call = api_call(page)

    def table() -> dict[str, Any]:
        return dict(call("GET", f"/api/tables/{table_id}", None)[1]["table"])

    seen = {"discard": False, "knock": False, "defend": False, "result": False}
    current = table()
    for _ in range(3000):
        if current["status"] == "finished" or all(seen.values()):
            break
        view = current["view"]
        mine = view["turn"] == 0
        options = view["discards"] or {}
        if mine and view["phase"] == "discard" and not seen["discard"]:
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
            page.locator("#gin-hand li").first.click()
            sweep.check("gin: a card selected")
            seen["discard"] = True
        knockable = any(o["deadwood"] <= 10 for o in options.values())
        if mine and view["phase"] == "discard" and not seen["knock"] and knockable:
            card = min(options, key=lambda c: options[c]["deadwood"])
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
            page.locator(f"#gin-hand li[data-card='{card}']").click()
            page.locator("[data-gin-action=knock]").click()
            expect(page.locator("#gin-confirm")).to_be_visible()
            sweep.check("gin: knock dialog")
            sweep.shot("knock")
            page.keyboard.press("Escape")
            seen["knock"] = True
        if mine and view["phase"] == "defend" and not seen["defend"]:
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
            expect(page.locator("#gin-defend")).to_be_visible()
            sweep.check("gin: defence")
            sweep.shot("defend")
            seen["defend"] = True
        move = gin_choice(view)
        status, body = call(
            "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": current["seq"]}
        )
        assert status == 200, (move, body)
        before = len(view["results"])
        current = body["table"]
        if len(current["view"]["results"]) > before and not seen["result"]:
            seen["result"] = True  # the page heard it through its stream: the result box
            expect(page.locator("#gin-result")).to_be_visible()
            sweep.check("gin: hand result")
            # the lay-offs' legend ("angelegt: Karte → Meldung") only over lay-offs
            assert page.evaluate(LEGEND_WITHOUT_LAYOFFS) == []
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    if current["status"] != "finished":
        page.locator("#repeat").click()
        sweep.check("gin: Wiederholen dialog")
        page.locator("#table-confirm-cancel").click()
        page.locator("#resign").click()
        sweep.check("gin: resign dialog")
        page.locator("#table-confirm-ok").click()
    expect(page.locator("#standings")).to_be_visible()
    sweep.check("gin: standings")
    sweep.shot("standings")
    page.locator("#replay-link").click()
    page.wait_for_selector("body[data-ready='1']")
    page.keyboard.press("End")
    sweep.check("gin: replay")
    sweep.shot("replay")
    # the daily pages' Gin parts
    sweep.page_at(f"/?lang={lang}", "gin: today")
    sweep.page_at("/rankings?game=gin", "gin: rankings")
    sweep.page_at("/archive?game=gin", "gin: archive")
    sweep.page_at("/gin/play/0000000000000000", "gin: unknown attempt")


# What the page shows when the resign link stays hidden: enough to tell a stale state from a
# hidden board. (It was hidden while a round waited for the player's cut, when a bot had gone
# out at once in round 2: fixed, test_tables.py's test_a_player_asked_to_cut_can_still_resign.)
PAGE_STATE = """() => ({
  status: document.querySelector("#status").textContent,
  table: document.querySelector("#table").className,
  resignHidden: document.querySelector("#resign").hidden,
  roundResult: !document.querySelector("#round-result").hidden,
  standings: Boolean(document.querySelector("#standings:not([hidden])")),
  cut: !document.querySelector("#cut-box").hidden,
  stream: document.body.dataset.stream,
  message: document.querySelector("#message").textContent,
  round: document.querySelector("#round-no").textContent,
})"""


def resign_when_shown(page: Page, sweep: Sweep, server: Callable[[], Any]) -> None:
    """Click "Aufgeben" once the page shows it; if it never does, fail with what the page shows
    and what the server says (and a screenshot in the artifacts) instead of a bare timeout."""
    try:
        expect(page.locator("#resign")).to_be_visible(timeout=30_000)
    except AssertionError as missing:
        sweep.shot("resign-missing")
        shown = page.evaluate(PAGE_STATE)
        status, body = server()
        T = body.get("table", {}) if isinstance(body, dict) else {}
        facts = {k: T.get(k) for k in ("status", "round", "turn", "awaiting_cut", "seq")}
        raise AssertionError(f"no resign link: page {shown}, server {status} {facts}") from missing
    page.locator("#resign").click()


@pytest.mark.parametrize(("lang", "size"), LANG_SIZES)
@pytest.mark.parametrize("game", ["pikdame", "tausende"])
def test_every_table_state_of_each_game(
    page: Page, stack: Stack, artifacts: Path, game: str, lang: str, size: str
) -> None:
    """The pages and the "Play" for each table game: the waiting room and the
    invite naming the game and its rules, the cut, play (Tausende's panel: openers, owners, the
    swapping round), a round's results, the final standings and the replay."""
    page.set_viewport_size(SIZES[size])
    sweep = Sweep(page, artifacts, f"{game}-{lang}-{size}")
    options = ("strict_1000", "ace_high_only") if game == "tausende" else ("hand_out_double",)
    link = create_table(page, LONG_NAME, ["advanced"], lang=lang, timer=90, game=game,
                        options=options)  # fmt: skip
    expect(page.locator("#waiting .game-name")).to_be_visible()
    sweep.check("waiting room")
    sweep.shot("waiting")
    table_url = page.url
    table_id = table_url.rsplit("/", 1)[1]

    def join_page() -> None:
        sweep.page_at(link, "join page")
        expect(page.locator("#join-table .game-name")).to_be_visible()
        sweep.shot("join")

    as_stranger(page, join_page)
    page.goto(table_url)
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#start-button").click()
    expect(page.locator("#cut-control")).to_be_visible()  # two seats: seat 0 cuts (R2)
    last = "107" if game == "tausende" else "109"  # R3: 1 … 109; R12.1's 108 cards: 1 … 107
    expect(page.locator("#cut-value")).to_contain_text(last)
    expect(page.locator("#cut-help")).to_contain_text(last)
    sweep.check("cut")
    page.locator("#cut-button").click()
    expect(page.locator("#hand li").first).to_be_visible()
    if game == "tausende":
        expect(page.locator("#tausende")).to_be_visible()
    sweep.check("play")
    sweep.shot("play")
    call = api_call(page)
    play_until(call, table_id, 0, lambda T: T["status"] != "playing" or T["round"] >= 2)
    expect(page.locator("#round-result")).to_be_visible(timeout=60_000)
    # shown where the eye is (under the status line), not below the whole board on a phone
    page.evaluate("() => window.scrollTo(0, 0)")
    expect(page.locator("#round-result-title")).to_be_in_viewport()
    sweep.check("round results")
    sweep.shot("round")
    page.locator("#round-close").click()
    resign_when_shown(page, sweep, lambda: call("GET", f"/api/tables/{table_id}", None))
    page.locator("#confirm-ok").click()
    expect(page.locator("#standings")).to_be_visible()
    sweep.check("final standings")
    sweep.shot("standings")
    page.locator("#replay-link").click()
    page.wait_for_selector("body[data-ready='1']")
    sweep.check("replay")


@pytest.mark.parametrize(("lang", "size"), LANG_SIZES)
def test_a_gin_tables_invite_and_waiting_room(
    page: Page, stack: Stack, artifacts: Path, lang: str, size: str
) -> None:
    """Gin at a table (made through the API until "Spielen" offers it): its invite and waiting
    room name Gin Rommé and its rules like the others'."""
    page.set_viewport_size(SIZES[size])
    sweep = Sweep(page, artifacts, f"gin-{lang}-{size}")
    page.goto(f"/spielen?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    status, made = api_call(page)(
        "POST",
        "/api/tables",
        {"game": "gin", "name": LONG_NAME, "seats": [{"kind": "human"}, {"kind": "human"}],
         "rules": {"turn_timer": 30}},
    )  # fmt: skip
    assert status == 201, made
    sweep.page_at(f"/tables/{made['table']['id']}", "waiting room")
    expect(page.locator("#waiting .game-name")).to_be_visible()
    sweep.shot("waiting")

    def join_page() -> None:
        sweep.page_at(f"/t/{made['invite']}", "join page")
        expect(page.locator("#join-table .game-name")).to_be_visible()

    as_stranger(page, join_page)
