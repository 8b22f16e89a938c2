"""Gin Rommé at a table in the browser (GIN.md, docs/TABLES.md "Games"), against the real backend
and the bot: a few hands played with the keyboard as the seed page plays (selecting only
prepares, discard and knock confirmed separately), the exact deadwood always shown, the knock
dialog's groups and deadwood, the defender's lay-offs pre-selected and changeable, a reload that
keeps the match, "Wiederholen" dealing the same match, the end of a match to 100, and no hidden
card (the bot's hand, the stock, its face-down knock card) anywhere on the page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from playwright.sync_api import Browser, BrowserContext, Page, expect

from service.tables import store as stored
from tests.support.browser_stack import Stack
from tests.support.gin_flows import (
    action_keys,
    create_gin_table,
    hand_order,
    play_by_keys,
    select_by_keys,
    table_doc,
    wait_seq_after,
)
from tests.support.gin_player import gin_choice
from tests.support.gin_tables import gin_hidden
from tests.support.page_checks import chart_label_contrast, overflow, raw_text
from tests.support.page_flows import api_call
from tests.support.virtual_passkeys import virtual_authenticator


@pytest.fixture
def rdb(stack: Stack) -> Iterator[redis.Redis[str]]:
    client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    yield client
    client.close()


@pytest.fixture
def gin_page(browser: Browser, stack: Stack) -> Iterator[Page]:
    ctx: BrowserContext = browser.new_context(
        base_url=stack.base_url, viewport={"width": 1280, "height": 900}
    )
    tab = ctx.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    yield tab
    ctx.close()
    assert not errors, errors


def page_cards(page: Page, selector: str = "[data-card]") -> set[str]:
    return {
        str(c) for c in page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card)")
    }


# The page without the last hand's result box (its cards are that hand's, checked apart).
OUTSIDE_RESULT = """() => {
  const copy = document.documentElement.cloneNode(true);
  copy.querySelector('#gin-result')?.remove();
  return copy.outerHTML;
}"""


def assert_page_hides(page: Page, rdb: redis.Redis[str], table_id: str) -> None:
    """No card of the bot's hand (unless revealed), the stock or its knock card on the page. The
    last hand's result box shows that hand's laid-down groups (public when they were laid down;
    the next hand is dealt anew): only cards named by a knock's groups or a defence."""
    hidden = gin_hidden(rdb, table_id, 0)
    html = str(page.evaluate(OUTSIDE_RESULT))
    for card in hidden:
        assert f'data-card="{card}"' not in html, card
    found = stored.load(rdb, table_id)
    assert found is not None and found.session is not None
    laid: set[str] = set()
    for entry in found.session["record"]["moves"]:
        words = entry["move"].replace("|", " ").replace("/", " ").split()
        if words[0] == "knock":
            laid.update(words[2:])  # not the face-down card
        elif words[0] == "defend":
            laid.update(w.split("@")[0] for w in words[1:])
    shown = page_cards(page, "#gin-result [data-card]")
    assert shown <= laid, sorted(shown - laid)


def api_move(page: Page, table_id: str, table: dict[str, Any], move: str) -> dict[str, Any]:
    status, body = api_call(page)(
        "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": table["seq"]}
    )
    assert status == 200, (move, body)
    result: dict[str, Any] = body["table"]
    return result


def drive_until(page: Page, table_id: str, want: Any, limit: int = 2000) -> dict[str, Any] | None:
    """Play the scripted player through the API (the page's session) until ``want(table)``."""
    table = table_doc(page, table_id)
    for _ in range(limit):
        if table["status"] == "finished":
            return None
        if want(table):
            return table
        table = api_move(page, table_id, table, gin_choice(table["view"]))
    return None


def test_a_few_hands_with_the_keyboard_against_the_bot(
    gin_page: Page, rdb: redis.Redis[str]
) -> None:
    page = gin_page
    table_id = create_gin_table(page, level="strong")
    table = table_doc(page, table_id)
    hands_seen = 0
    for _ in range(400):
        view = table["view"]
        if table["status"] == "finished" or len(view["results"]) >= 2:
            break
        # G9: the exact minimum deadwood is always shown, and matches the server's
        expect(page.locator("#gin-deadwood")).to_have_attribute(
            "data-deadwood", str(view["deadwood"])
        )
        assert sorted(hand_order(page)) == sorted(view["hand"])
        assert_page_hides(page, rdb, table_id)
        move = play_by_keys(page, view)
        wait_seq_after(page, table["seq"])
        table = table_doc(page, table_id)
        hands_seen = len(table["view"]["results"])
        if move.startswith("discard") and hands_seen == 0 and len(view["history"]) == 6:
            page.reload()  # the unfinished match survives a reload (state is server-side)
            page.wait_for_selector("body[data-ready='1']")
            assert sorted(hand_order(page)) == sorted(table["view"]["hand"])
    assert hands_seen >= 2 or table["status"] == "finished"
    rows = page.locator(".gin-scores tbody tr")
    expect(rows).to_have_count(len(table["view"]["results"]))
    expect(page.locator("#gin-totals")).to_contain_text(str(table["totals"][0]))
    assert not raw_text(page)


def test_the_meisters_moves_arrive_by_the_stream(gin_page: Page) -> None:
    """The Meister moves off the request (docs/TABLES.md "Bots off the request"): a move's
    answer leaves it to move, and the page shows its move when the table's stream brings it,
    as it shows another human's; the seat reads "Computer (Meister)".

    Counted from the answers, never from catching the Meister mid-thought: how fast its worker
    answers (milliseconds on a quiet machine) must not decide what the test sees."""
    page = gin_page
    table_id = create_gin_table(page, level="meister")
    expect(page.locator("body")).to_contain_text("Computer (Meister)")
    handed_over = 0
    for _ in range(60):
        table = table_doc(page, table_id)
        if table["status"] != "playing" or handed_over >= 3:
            break
        if table["turn"] == 1:  # the Meister is to move: its move comes by the stream
            page.wait_for_function(
                "s => Number(document.body.dataset.seq) > s"
                " && !document.querySelector('#gin-board').dataset.busy",
                arg=table["seq"],
                timeout=180_000,
            )
            continue
        expect(page.locator("body")).to_have_attribute("data-seq", str(table["seq"]))
        with page.expect_response(
            lambda r: r.request.method == "POST" and r.url.endswith("/moves")
        ) as answered:
            play_by_keys(page, table["view"])
        body = answered.value.json()
        after = body["table"]
        if after["status"] == "playing" and after["turn"] == 1:
            # the answer stops before the Meister: none of its moves are in it ...
            assert all(e["seat"] == 0 for e in body["events"])
            handed_over += 1
            # ... and the page shows them when the stream brings them, with no reload
            page.wait_for_function(
                "s => Number(document.body.dataset.seq) > s"
                " && !document.querySelector('#gin-board').dataset.busy",
                arg=after["seq"],
                timeout=180_000,
            )
        else:
            wait_seq_after(page, table["seq"])
    assert handed_over >= 3


def own_moves(view: dict[str, Any]) -> int:
    return sum(1 for entry in view["history"] if entry["seat"] == view["seat"])


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_action_keys_are_the_pages_language(gin_page: Page, lang: str) -> None:
    """Each action's key is a letter of its word in the page's language (English D, T, X, P, K;
    Dutch T, P, A, O, K), shown on its button and in the keys' list, and plays the move."""
    page = gin_page
    keys = action_keys(lang)
    assert len(set(keys.values())) == len(keys)  # one action per key
    table_id = create_gin_table(page, lang=lang)
    for name, key in keys.items():
        button = page.locator(f"[data-gin-action='{name}']")
        expect(button).to_have_attribute("aria-keyshortcuts", key)
        expect(button.locator("kbd")).to_have_text(key.upper())
        expect(page.locator(".keys-help kbd", has_text=key.upper()).first).to_be_attached()
    table = table_doc(page, table_id)
    played = 0
    for _ in range(6):  # the first moves: the upcard's pass or take, a draw, a discard
        if table["view"]["turn"] != 0 or table["status"] == "finished":
            break
        before = table["view"]
        play_by_keys(page, before, lang)
        wait_seq_after(page, table["seq"])
        table = table_doc(page, table_id)
        after = table["view"]
        # The key played the seat's move: one more of its moves in the hand's history, or (the
        # table's deal is random, and the computer may knock early) the hand it ended scored.
        if after["hand_no"] == before["hand_no"]:
            assert own_moves(after) == own_moves(before) + 1, (before["history"], after["history"])
        else:
            assert len(after["results"]) == len(before["results"]) + 1
        played += 1
    assert played >= 2


def test_selecting_only_prepares_and_the_taken_card_stays(gin_page: Page) -> None:
    page = gin_page
    table_id = create_gin_table(page)
    table = drive_until(
        page, table_id, lambda t: t["view"]["phase"] == "discard" and t["view"]["turn"] == 0
    )
    assert table is not None
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    card = sorted(table["view"]["discards"])[0]
    select_by_keys(page, card)
    expect(page.locator("#gin-selection")).to_have_attribute(
        "data-after", str(table["view"]["discards"][card]["deadwood"])
    )
    assert table_doc(page, table_id)["seq"] == table["seq"]  # selecting sent nothing
    page.keyboard.press("Escape")
    expect(page.locator("#gin-hand li[aria-selected='true']")).to_have_count(0)
    assert table_doc(page, table_id)["seq"] == table["seq"]


def test_the_knock_dialog_shows_the_declared_groups_and_their_deadwood(gin_page: Page) -> None:
    page = gin_page
    table_id = create_gin_table(page)

    def can_knock(t: dict[str, Any]) -> bool:
        v = t["view"]
        return (
            v["phase"] == "discard"
            and v["turn"] == 0
            and any(o["deadwood"] <= 10 for o in v["discards"].values())
        )

    table = None
    for _ in range(4):
        table = drive_until(page, table_id, can_knock)
        if table is not None:
            break
        table_id = create_gin_table(page)
    assert table is not None
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector("body[data-ready='1']")
    options = table["view"]["discards"]
    card = min(options, key=lambda c: (options[c]["deadwood"], c))
    option = options[card]
    select_by_keys(page, card)
    page.keyboard.press("k")
    dialog = page.locator("#gin-confirm")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".gin-knock-deadwood")).to_have_attribute(
        "data-deadwood", str(option["deadwood"])
    )
    shown = dialog.locator(".meld").evaluate_all("els => els.map(e => e.dataset.meld)")
    assert shown == [" ".join(m) for m in option["melds"]]
    page.keyboard.press("Escape")  # nothing sent: the dialog only shows
    expect(dialog).to_be_hidden()
    assert table_doc(page, table_id)["seq"] == table["seq"]
    page.keyboard.press("k")
    page.locator("#gin-confirm-ok").click()
    wait_seq_after(page, table["seq"])
    after = table_doc(page, table_id)
    assert len(after["view"]["results"]) == len(table["view"]["results"]) + 1
    expect(page.locator("#gin-result")).to_be_visible()
    # the result shows what was laid down: the knock's groups, and the bot's defence
    knock = page.locator("#gin-result .gin-declared[data-kind=knock] .meld")
    assert knock.evaluate_all("els => els.map(e => e.dataset.meld)") == shown
    # the defender answers gin too (D11): its own melds are laid down
    expect(page.locator("#gin-result .gin-declared[data-kind=defend]")).to_have_count(1)


def test_the_defence_is_preselected_and_can_be_changed(
    gin_page: Page, rdb: redis.Redis[str]
) -> None:
    page = gin_page

    def defending(t: dict[str, Any]) -> bool:
        v = t["view"]
        return bool(v["phase"] == "defend" and v["turn"] == 0 and "@" in (v["suggestion"] or ""))

    table = None
    for _ in range(6):
        table_id = create_gin_table(page)
        table = drive_until(page, table_id, defending)
        if table is not None:
            break
    assert table is not None, "the bot knocked with a lay-off for us in one of six matches"
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector("body[data-ready='1']")
    assert_page_hides(page, rdb, table_id)
    suggestion = table["view"]["suggestion"]
    lays = dict(w.split("@") for w in suggestion.split("/")[1].split())
    for card, n in lays.items():
        expect(page.locator(f"select[data-layoff='{card}']")).to_have_value(n)
    card = sorted(lays)[0]
    before = int(str(page.locator(".gin-after").get_attribute("data-after")))
    page.locator(f"select[data-layoff='{card}']").select_option("0")
    expect(page.locator(f"select[data-layoff='{card}']")).to_have_value("0")

    # taking a card back also takes back what was laid on through it (G6): every card now kept
    # counts as deadwood again
    def laid(c: str) -> bool:
        select = page.locator(f"select[data-layoff='{c}']")
        return select.count() == 1 and select.input_value() != "0"

    kept = [c for c in lays if not laid(c)]
    points = sum(min("A23456789TJQK".index(c[0]) + 1, 10) for c in kept)
    expect(page.locator(".gin-after")).to_have_attribute("data-after", str(before + points))
    page.locator("#gin-defend-ok").click()
    wait_seq_after(page, table["seq"])

    found = stored.load(rdb, table_id)
    assert found is not None and found.session is not None
    moves = [m["move"] for m in found.session["record"]["moves"] if m["seat"] == 0]
    defend = [m for m in moves if m.startswith("defend")][-1]
    assert f"{card}@" not in defend and defend != suggestion


def test_wiederholen_deals_the_same_match(gin_page: Page) -> None:
    page = gin_page
    table_id = create_gin_table(page)
    first = table_doc(page, table_id)["view"]
    page.locator("#repeat").click()
    page.locator("#table-confirm-ok").click()
    page.wait_for_url(lambda url: table_id not in url)
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#repeat-flag")).to_be_visible()
    new_id = page.url.rstrip("/").rsplit("/", 1)[1]
    again = table_doc(page, new_id)
    assert again["repeat_of"] == table_id
    assert again["view"]["hand"] == first["hand"] and again["view"]["discard"] == first["discard"]
    assert sorted(hand_order(page)) == sorted(first["hand"])


def test_a_match_to_100_ends_with_the_totals(gin_page: Page) -> None:
    page = gin_page
    table_id = create_gin_table(page)
    assert drive_until(page, table_id, lambda t: False, limit=5000) is None
    table = table_doc(page, table_id)
    assert table["status"] == "finished" and max(table["totals"]) >= 100
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#standings")).to_be_visible()
    expect(page.locator("#standings-totals")).to_contain_text(str(table["totals"][0]))
    expect(page.locator(".gin-scores tbody tr")).to_have_count(len(table["rounds"]))
    # the replay viewer: every position of the public record, both hands open, keys to step
    page.locator("#replay-link").click()
    page.wait_for_url(f"**/tables/{table_id}/replay")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#replay-seats [data-seat] .card")).to_have_count(20)  # the first deal
    page.keyboard.press("ArrowRight")
    expect(page.locator("body")).to_have_attribute("data-step", "1")
    page.keyboard.press("End")
    expect(page.locator("#replay-knock .gin-after")).to_be_visible()
    expect(page.locator("#replay-totals")).to_contain_text(str(table["totals"][0]))
    assert not raw_text(page)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_gin_table_fits_a_phone(browser: Browser, stack: Stack, lang: str) -> None:
    ctx = browser.new_context(
        base_url=stack.base_url,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
    )
    page = ctx.new_page()
    try:
        table_id = create_gin_table(page, lang=lang)
        drive_until(
            page, table_id, lambda t: t["view"]["phase"] == "discard" and t["view"]["turn"] == 0
        )
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        page.locator("#gin-hand li").first.click()
        assert overflow(page) <= 0
        for selector in (
            "#gin-status",
            "#gin-pile-top",
            "#gin-deadwood",
            "#gin-hand",
            "[data-gin-action=discard]",
        ):
            box = page.locator(selector).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, (
                selector,
                box,
            )
        assert not raw_text(page)
    finally:
        ctx.close()


def passkey_device(browser: Browser, stack: Stack) -> tuple[BrowserContext, Page, Any, str]:
    """A profile on http://localhost:PORT (a relying party is a domain) with a virtual platform
    authenticator (the DevTools protocol's WebAuthn domain) that says yes to every ceremony."""
    base = stack.base_url.replace("127.0.0.1", "localhost")
    ctx = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    cdp, key = virtual_authenticator(page)
    return ctx, page, cdp, key


def test_the_match_survives_a_reload_on_another_device(browser: Browser, stack: Stack) -> None:
    """The match is the server's: signed in with the same account (its passkey copied to a
    second device), the second browser opens the same table in the same seat, as it stands."""
    first, page, cdp, auth = passkey_device(browser, stack)
    second, other, cdp2, auth2 = passkey_device(browser, stack)
    try:
        page.goto("/account")
        page.wait_for_selector("body[data-ready='1']")
        page.fill("#account-name", "Gin Ada")
        page.click("#signup-button")
        expect(page.locator("#signed-in")).to_be_visible()
        table_id = create_gin_table(page, "Gin Ada")
        table = drive_until(page, table_id, lambda t: len(t["view"]["history"]) >= 4)
        assert table is not None
        # the same passkey on the second device, then signed in there
        for credential in cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})[
            "credentials"
        ]:
            cdp2.send(
                "WebAuthn.addCredential", {"authenticatorId": auth2, "credential": credential}
            )
        other.goto("/account")
        other.wait_for_selector("body[data-ready='1']")
        other.click("#signin-button")
        expect(other.locator("#signed-in")).to_be_visible()
        other.goto(f"/tables/{table_id}")
        other.wait_for_selector("body[data-ready='1']")
        expect(other.locator("#table")).to_be_visible()
        assert sorted(hand_order(other)) == sorted(table["view"]["hand"])
        expect(other.locator("#gin-deadwood")).to_have_attribute(
            "data-deadwood", str(table["view"]["deadwood"])
        )
        assert table_doc(other, table_id)["seat"] == 0
    finally:
        first.close()
        second.close()


@pytest.fixture
def friends(browser: Browser, stack: Stack) -> Iterator[tuple[Page, Page, str]]:
    """Ada's Gin table for two people, Bea joined by the invite and the match started: the two
    pages and the table's id."""
    contexts = [
        browser.new_context(base_url=stack.base_url, viewport={"width": 1280, "height": 900})
        for _ in range(2)
    ]
    ada, bea = (c.new_page() for c in contexts)
    try:
        ada.goto("/spielen")
        ada.wait_for_selector("body[data-ready='1']")
        ada.locator("input[name=game][value=gin]").check()
        ada.locator("#name").fill("Ada")
        ada.locator("#kind-1").select_option("human")
        ada.locator("#create-button").click()
        ada.wait_for_url("**/tables/*")
        ada.wait_for_selector("body[data-ready='1']")
        link = ada.locator("#invite-link").input_value()
        table_id = ada.url.rstrip("/").rsplit("/", 1)[1]
        bea.goto(link)
        bea.wait_for_selector("body[data-ready='1']")
        expect(bea.locator(".lead")).to_contain_text("Gin Rommé")
        bea.locator("#name").fill("Bea")
        bea.locator("#join-button").click()
        bea.wait_for_url(f"**/tables/{table_id}")
        expect(ada.locator("#waiting-seats")).to_contain_text("Bea")
        ada.locator("#start-button").click()
        expect(bea.locator("#table")).to_be_visible()  # from the stream
        yield ada, bea, table_id
    finally:
        for c in contexts:
            c.close()


def test_a_gin_match_between_two_friends(friends: tuple[Page, Page, str]) -> None:
    """Two seats for two people: the invite names Gin, the friend joins, each sees the other's
    moves from the live stream, and neither page shows the other's hidden cards."""
    ada, bea, table_id = friends
    for _ in range(6):  # a few turns, each by whoever is to move, on their own page
        table = table_doc(ada, table_id)
        mover = ada if table["turn"] == 0 else bea
        view = table_doc(mover, table_id)["view"]
        other_hand = set(table_doc(bea if mover is ada else ada, table_id)["view"]["hand"])
        assert not page_cards(mover, "#gin-board [data-card]") & (
            other_hand - set(view["took"][1 - view["seat"]])
        )
        expect(mover.locator("#gin-board")).to_have_class(re.compile("my-turn"))
        play_by_keys(mover, view)
        waiting = bea if mover is ada else ada
        waiting.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=table["seq"])
    assert table_doc(bea, table_id)["seat"] == 1


def test_a_page_back_after_a_gap_draws_the_missed_moves_at_once(
    friends: tuple[Page, Page, str],
) -> None:
    """Bea's stream is cut (a train's tunnel, a tab asleep) while 50 moves are played; when it
    comes back its first message holds all of them: drawn at once, not played out one by one at
    her slow pace (about a minute behind the table, every later message waiting behind it)."""
    ada, bea, table_id = friends
    bea.evaluate("() => localStorage.setItem('pikdame.speed', JSON.stringify('slow'))")
    bea.route("**/events*", lambda route: route.abort())
    bea.wait_for_function("() => document.body.dataset.stream === 'error'")  # the stream ends
    table = table_doc(ada, table_id)
    pages = {table_doc(p, table_id)["seat"]: p for p in (ada, bea)}
    for _ in range(50):  # pass the upcard, draw, discard the best card, never knock (G3, G4)
        view = table_doc(pages[table["turn"]], table_id)["view"]
        table = api_move(pages[table["turn"]], table_id, table, gin_choice(view, knock=False))
    assert table["status"] == "playing" and table["view"]["hand_no"] == 1, table["view"]
    bea.unroute("**/events*")
    bea.wait_for_function(
        "s => Number(document.body.dataset.seq) >= s", arg=table["seq"], timeout=15_000
    )


def test_a_hands_analysis_lists_every_differing_decision_in_words(gin_page: Page) -> None:
    """docs/ANALYSIS.md "The pages" (issue 40): a Gin table's hand analysis lists every decision
    that differed from the analyst, marked or not, with its cost, the moves in words with card
    symbols (never "discard 6H"), its chart explained and readable on the felt (WCAG AA)."""
    page = gin_page
    table_id = create_gin_table(page, level="plain")
    table = drive_until(page, table_id, lambda T: len(T["view"]["results"]) >= 1)
    assert table is not None, "the first hand ends before the match"
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#hand-analyse").click()
    analysis = page.locator("#hand-analysis")
    expect(analysis).to_have_attribute("data-ready", "1", timeout=120_000)
    status, doc = api_call(page)("GET", f"/api/tables/{table_id}/analysis?hand=1", None)
    assert status == 200, doc
    # the table's deal is the server's random one: a hand may (rarely) have no differing
    # decision, and then the list is rightly empty (a whole Pik Dame round always has some)
    differed = [d for d in doc["decisions"] if d["same"] is None]
    items = analysis.locator(".analysis-decision")
    expect(items).to_have_count(len(differed))
    for i in range(len(differed)):
        text = items.nth(i).inner_text()
        assert not re.search(r"\b(discard|knock|take|draw|pass)\b", text), text
        expect(items.nth(i).locator(".analysis-cost")).to_be_visible()
    expect(analysis.locator(".analysis-graph-note")).to_be_visible()
    ratios = chart_label_contrast(analysis)
    assert ratios and min(ratios) >= 4.5, ratios
