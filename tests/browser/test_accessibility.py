"""axe-core over every page and every table state of every game, in each language of the site, on
a phone held upright (390 × 844) and on a desktop (1280 × 800): no serious or critical violation
(contrast to WCAG AA among them), and what the sweep (test_sweep.py) checks besides: no raw
placeholder, no wrong plural, nothing wider than the screen. A state is reached once and looked at
in every language by reloading the page with ``?lang=`` (a table's state is the server's: it comes
back as it was), and at both sizes by resizing it; only the states a reload does not bring back
(an open dialog, Gin's result of a hand) are opened again or reached once per language."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from playwright.sync_api import Page, ViewportSize, expect

from service.pages.strings import LANGS
from tests.support.axe import violations
from tests.support.browser_stack import Stack, settings_changed
from tests.support.gin_daily import play_gin_to_end
from tests.support.gin_player import gin_choice
from tests.support.page_checks import low_contrast, overflow, raw_text, wrong_plurals
from tests.support.page_flows import advance_to_melds, api_call
from tests.support.table_flows import create_table, play_until

SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}
READY = "body[data-ready='1']"
# A long name in every table; not test_sweep.py's, which plays the same day (a name is one
# player's per day).
NAME = "Johann Sebastian B."


def in_lang(url: str, lang: str) -> str:
    """``url`` with its ``lang`` argument set to ``lang`` (its other arguments kept)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "lang"] + [("lang", lang)]
    return urlunsplit(parts._replace(query=urlencode(query)))


class Audit:
    """axe's grave findings (and the suite's own contrast measure) per place, language and size,
    collected over a whole flow and asserted at its end: one run names every problem."""

    def __init__(self, page: Page, artifacts: Path, label: str) -> None:
        self.page = page
        self.artifacts = artifacts
        self.label = label
        self.found: dict[str, Any] = {}
        self.seen: list[str] = []

    def now(self, where: str) -> None:
        """The page as it stands, at each size (the desktop's last)."""
        page = self.page
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            # a card landing on the pile is faint until its animation ends
            page.wait_for_function(
                "() => document.getAnimations().every((a) => a.playState !== 'running')"
            )
            place = f"{where} ({size})"
            self.seen.append(place)
            grave = violations(page)
            faint = low_contrast(page)
            # what the sweep checks too: no raw placeholder, no "1 dagen", no sideways scroll
            text = raw_text(page) + wrong_plurals(page)
            wide = overflow(page)
            if grave or faint or text or wide > 0:
                self.found[place] = {"axe": grave, "contrast": faint, "text": text, "wide": wide}
                slug = re.sub(r"\W+", "-", f"{self.label}-{place}").strip("-")
                page.screenshot(path=str(self.artifacts / f"axe-{slug}.png"))

    def each_language(
        self, where: str, url: str | None = None, then: Callable[[], None] | None = None
    ) -> None:
        """``url`` (the page's own by default) in every language, each looked at after
        ``then()`` (what brings back a state a reload closes)."""
        page = self.page
        base = url or page.url
        for lang in LANGS:
            page.goto(in_lang(base, lang))
            page.wait_for_load_state("networkidle")
            if then is not None:
                then()
            self.now(f"{where} [{lang}]")

    def clean(self) -> None:
        """Every place looked at is clean; else each problem in one line (the whole findings in
        the artifacts' axe-<label>.json)."""
        assert self.seen, "nothing was looked at"
        report = self.artifacts / f"axe-{self.label}.json"
        report.write_text(json.dumps(self.found, indent=1, ensure_ascii=False))
        lines = (
            [
                f"{place}: {v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']]}"
                for place, found in self.found.items()
                for v in found["axe"]
            ]
            + [
                f"{place}: contrast {text!r} {ratio} < {needed}"
                for place, found in self.found.items()
                for text, ratio, needed, *_ in found["contrast"]
            ]
            + [
                f"{place}: text {found['text']}, {found['wide']} px too wide"
                for place, found in self.found.items()
                if found["text"] or found["wide"] > 0
            ]
        )
        assert not lines, "\n".join(lines)


def ready(page: Page) -> Callable[[], None]:
    """Waits until the page's script has drawn it."""

    def wait() -> None:
        page.wait_for_selector(READY)

    return wait


STATIC_PAGES = (
    "/",
    "/rules",
    "/rules/tausende",
    "/rules/gin",
    "/rankings",
    "/rankings?game=gin",
    "/archive",
    "/archive?game=gin",
    "/stats",
    "/leagues",
    "/account",
    "/spielen",
    "/lernen/pikdame",
    "/lernen/gin",
    "/lernen/tausende",
    "/play/0000000000000000",
    "/tables/0000000000000000",
    "/settings",
    "/offline",
    "/turnier",
    "/turnier/2030-W23/stand",  # the week of the test's day, 2030-06-06
    "/turnier/archiv",
    "/turnier/saison",
    "/turnier?game=gin",  # Gin's week on the same pages
    "/turnier/2030-W23/stand?game=gin",
    "/turnier/archiv?game=gin",
    "/turnier/saison?game=gin",
)


def test_every_page(page: Page, stack: Stack, artifacts: Path) -> None:
    """The pages outside a game: today's, the rules, rankings, archive, statistics, leagues, the
    account, "Spielen", the lessons, an unknown game and table, the settings, the offline page,
    the week's tournament (its page, standings, archive and season);
    the settings page once more with four colours, the largest cards and high contrast."""
    stack.clock.set_day("2030-06-06")
    audit = Audit(page, artifacts, "pages")
    for path in STATIC_PAGES:
        audit.each_language(path, path)
    page.evaluate(
        "() => localStorage.setItem('pikdame.settings',"
        " JSON.stringify({deck: 'four', size: 'larger', contrast: true}))"
    )
    audit.each_language("settings: four colours, largest cards, high contrast", "/settings")
    audit.clean()


def test_the_daily_pik_dame(page: Page, stack: Stack, artifacts: Path) -> None:
    """Pik Dame's daily: the table (its move log long enough to scroll), a confirmation panel,
    the hint, the end screen with its verdict, the owner's replay and the place in the field."""
    day = "2030-06-02"  # its deal gives the simple API player a meld (test_sweep.py)
    stack.clock.set_day(day)
    audit = Audit(page, artifacts, "daily")
    page.goto("/")
    page.wait_for_selector(READY)
    call = api_call(page)
    status, started = call("POST", f"/api/daily/{day}/attempts", {"name": NAME})
    assert status == 201, started
    attempt = started["attempt"]["id"]
    advance_to_melds(call, attempt)
    audit.each_language("daily: play", f"/play/{attempt}", ready(page))

    def discard_dialog() -> None:
        page.wait_for_selector(READY)
        page.locator("#hand li").first.click()
        page.locator("#actions button[data-action=discard]").click()
        expect(page.locator("#confirm")).to_be_visible()

    def hint() -> None:
        page.wait_for_selector(READY)
        page.locator("#hint-btn").click()
        expect(page.locator("#hint h3, #hint .error")).to_be_visible()

    status, body = call("GET", f"/api/attempts/{attempt}", None)
    status, body = call(
        "POST", f"/api/attempts/{attempt}/moves", {"move": "draw", "seq": body["attempt"]["seq"]}
    )
    assert status == 200, body
    audit.each_language("daily: discard dialog", f"/play/{attempt}", discard_dialog)
    audit.each_language("daily: hint", f"/play/{attempt}", hint)
    page.locator("#resign").click()
    page.locator("#confirm-ok").click()
    expect(page.locator("#verify-status")).to_have_attribute("data-state", "verified",
                                                             timeout=90_000)  # fmt: skip

    def verified() -> None:
        expect(page.locator("#verify-status")).to_have_attribute("data-state", "verified")

    audit.each_language("daily: end screen", f"/play/{attempt}", verified)

    def replay_end() -> None:
        page.wait_for_selector(READY)
        page.keyboard.press("End")

    audit.each_language("daily: replay", f"/replay/{attempt}", replay_end)
    audit.each_language("daily: field", f"/field/{attempt}", ready(page))
    audit.clean()


def test_the_daily_gin(page: Page, stack: Stack, artifacts: Path) -> None:
    """Gin's daily: its table, its end screen, the owner's replay."""
    day = "2030-06-03"
    stack.clock.set_day(day)
    audit = Audit(page, artifacts, "gin-daily")
    page.goto("/")
    page.wait_for_selector(READY)
    call = api_call(page)
    status, started = call("POST", f"/api/daily/{day}/attempts", {"name": NAME, "game": "gin"})
    assert status == 201, started
    attempt = started["attempt"]["id"]
    audit.each_language("gin daily: play", f"/gin/play/{attempt}", ready(page))
    with settings_changed(stack, limit_moves="10000 per second"):
        play_gin_to_end(call, attempt)
    audit.each_language("gin daily: end", f"/gin/play/{attempt}", ready(page))
    audit.each_language("gin daily: replay", f"/gin/replay/{attempt}", ready(page))
    audit.clean()


def table_game(page: Page, stack: Stack, artifacts: Path, game: str) -> None:
    """A Pik Dame or Tausende table against a bot: the invite, the waiting room, the cut, play
    with a long move log, a round's results, the final standings and the replay."""
    audit = Audit(page, artifacts, game)
    link = create_table(page, NAME, ["advanced"], timer=90, game=game)
    table_url = page.url
    table_id = table_url.rsplit("/", 1)[1]
    audit.each_language(f"{game}: waiting room", table_url, ready(page))
    saved = page.context.cookies()
    page.context.clear_cookies()
    audit.each_language(f"{game}: invite", link)
    page.context.clear_cookies()
    page.context.add_cookies(saved)  # type: ignore[arg-type]
    page.goto(table_url)
    page.wait_for_selector(READY)
    page.locator("#start-button").click()
    expect(page.locator("#cut-control")).to_be_visible()
    audit.each_language(f"{game}: cut", table_url, ready(page))
    page.locator("#cut-button").click()
    expect(page.locator("#hand li").first).to_be_visible()
    call = api_call(page)
    first = play_until(call, table_id, 0, lambda T: T["view"] is not None)
    stock = first["view"]["stock_size"]
    play_until(call, table_id, 0, lambda T: T["round"] > 1 or T["view"]["stock_size"] < stock - 30)
    audit.each_language(f"{game}: play", table_url, ready(page))
    play_until(call, table_id, 0, lambda T: T["status"] != "playing" or T["round"] >= 2)

    def results() -> None:
        expect(page.locator("#round-result")).to_be_visible(timeout=60_000)

    audit.each_language(f"{game}: round results", table_url, results)
    page.locator("#round-close").click()
    expect(page.locator("#resign")).to_be_visible(timeout=30_000)
    page.locator("#resign").click()
    page.locator("#confirm-ok").click()
    expect(page.locator("#standings")).to_be_visible()
    audit.each_language(f"{game}: standings", table_url, ready(page))

    def replay_end() -> None:
        page.wait_for_selector(READY)
        page.keyboard.press("End")

    audit.each_language(f"{game}: replay", f"{table_url}/replay", replay_end)
    audit.clean()


def test_a_pik_dame_table(page: Page, stack: Stack, artifacts: Path) -> None:
    table_game(page, stack, artifacts, "pikdame")


def test_a_tausende_table(page: Page, stack: Stack, artifacts: Path) -> None:
    table_game(page, stack, artifacts, "tausende")


def test_a_gin_table(page: Page, stack: Stack, artifacts: Path) -> None:
    """Gin at a table: waiting room, play, the knock dialog, the defence, a hand's result (in each
    language a hand of its own: a reload shows the results' list, not the box), the standings,
    the replay."""
    audit = Audit(page, artifacts, "gin")
    page.goto("/spielen")
    page.wait_for_selector(READY)
    call = api_call(page)
    status, made = call(
        "POST",
        "/api/tables",
        {
            "game": "gin",
            "name": NAME,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "plain"}],
        },
    )
    assert status == 201, made
    table_id = made["table"]["id"]
    table_url = f"/tables/{table_id}"
    audit.each_language("gin: waiting room", table_url, ready(page))
    page.locator("#start-button").click()
    expect(page.locator("#gin-hand li").first).to_be_visible()
    audit.each_language("gin: play", table_url, ready(page))

    def table() -> dict[str, Any]:
        return dict(call("GET", f"/api/tables/{table_id}", None)[1]["table"])

    def knock_dialog(card: str) -> Callable[[], None]:
        def open_it() -> None:
            page.wait_for_selector(READY)
            page.locator(f"#gin-hand li[data-card='{card}']").click()
            page.locator("[data-gin-action=knock]").click()
            expect(page.locator("#gin-confirm")).to_be_visible()

        return open_it

    current = table()
    languages = list(LANGS)  # a hand's result in each, in turn
    page.goto(in_lang(table_url, languages[0]))
    page.wait_for_selector(READY)
    knocked = defended = False
    for _ in range(3000):
        if current["status"] != "playing" or not (languages or not knocked or not defended):
            break
        view = current["view"]
        mine = view["turn"] == 0
        options = view["discards"] or {}
        knockable = [c for c, o in options.items() if o["deadwood"] <= 10]
        if mine and view["phase"] == "discard" and knockable and not knocked:
            audit.each_language("gin: knock dialog", table_url, knock_dialog(min(knockable)))
            knocked = True
        if mine and view["phase"] == "defend" and not defended:
            audit.each_language("gin: defence", table_url, ready(page))
            defended = True
        if languages and not page.url.endswith(f"lang={languages[0]}"):
            # a look in every language ends in the last: back to the one the next result is for
            page.goto(in_lang(table_url, languages[0]))
            page.wait_for_selector(READY)
        move = gin_choice(view)
        status, body = call(
            "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": current["seq"]}
        )
        assert status == 200, (move, body)
        before = len(view["results"])
        current = body["table"]
        if len(current["view"]["results"]) > before and languages:
            expect(page.locator("#gin-result")).to_be_visible()
            audit.now(f"gin: a hand's result [{languages.pop(0)}]")
            if languages:
                page.goto(in_lang(table_url, languages[0]))
                page.wait_for_selector(READY)
    page.goto(table_url)
    page.wait_for_selector(READY)
    if current["status"] == "playing":
        page.locator("#resign").click()
        page.locator("#table-confirm-ok").click()
    expect(page.locator("#standings")).to_be_visible()
    audit.each_language("gin: standings", table_url, ready(page))

    def replay_end() -> None:
        page.wait_for_selector(READY)
        page.keyboard.press("End")

    audit.each_language("gin: replay", f"{table_url}/replay", replay_end)
    audit.clean()
