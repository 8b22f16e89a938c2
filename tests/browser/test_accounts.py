"""Accounts with passkeys in Chromium: a virtual authenticator through the DevTools
protocol (WebAuthn.addVirtualAuthenticator: ctap2, internal, resident key, user verification)
signs up, signs out, signs in, plays a ranked attempt and deletes the account."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.support.browser_stack import Stack
from tests.support.launcher import healthy, launch
from tests.support.processes import WebServer, wait_for
from tests.support.servers import free_port
from tests.support.virtual_passkeys import virtual_authenticator

DAY = "2030-08-01"


@pytest.fixture
def localhost(browser: Browser, stack: Stack) -> Iterator[BrowserContext]:
    """A fresh profile on http://localhost:PORT (a relying party must be a domain, not an IP)."""
    base = stack.base_url.replace("127.0.0.1", "localhost")
    ctx = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.setItem('pikdame.speed', JSON.stringify('veryfast'))")
    yield ctx
    ctx.close()


def test_sign_up_out_in_ranked_attempt_and_delete(localhost: BrowserContext, stack: Stack) -> None:
    stack.clock.set_day(DAY)
    page = localhost.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    virtual_authenticator(page)

    page.goto("/account")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#signed-out")).to_be_visible()
    page.fill("#account-name", "Passkey Ada")
    page.click("#signup-button")  # the second click: the passkey
    expect(page.locator("#signed-in")).to_be_visible()
    expect(page.locator("#account-name-title")).to_have_text("Passkey Ada")
    expect(page.locator("#devices li")).to_have_count(1)

    page.click("#signout")
    expect(page.locator("#signed-out")).to_be_visible()
    assert page.request.get("/api/account").status == 401

    page.click("#signin-button")  # discoverable: no name asked
    expect(page.locator("#signed-in")).to_be_visible()
    expect(page.locator("#account-name-title")).to_have_text("Passkey Ada")

    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    # an account's name is its name: the daily form starts with it (it was empty, and
    # "Spiel starten" answered "Bitte gib einen Namen ein")
    expect(page.locator("#name")).to_have_value("Passkey Ada")
    # signed in, the start is ranked and says so; the anonymous player's note is not shown
    expect(page.locator("section.start").first).to_contain_text("Ein gewerteter Versuch pro Tag")
    expect(page.locator("#anonymous-note")).to_have_count(0)
    page.locator("#start-button").click()
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#practice-flag")).to_be_hidden()  # ranked: no "ohne Wertung"
    attempt_id = page.url.rsplit("/", 1)[-1].split("?")[0]
    attempt = page.request.get(f"/api/attempts/{attempt_id}").json()["attempt"]
    assert attempt["ranked"] is True

    page.goto("/account")
    page.wait_for_selector("body[data-ready='1']")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#delete-account")
    expect(page.locator("#signed-out")).to_be_visible()
    assert page.request.get("/api/account").status == 401
    assert errors == []


def test_a_deal_seen_before_signing_in_is_said_before_the_start(
    localhost: BrowserContext, stack: Stack
) -> None:
    """The page says before any deal is shown that a device which has played today's deal gets
    no ranked attempt of it after signing in (the day document's ``ranked_start``), and a start
    is refused with that explanation (409 ``deal_seen``): no rehearsal before the ranked game."""
    stack.clock.set_day("2030-08-02")
    page = localhost.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    virtual_authenticator(page)
    page.goto("/account")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#account-name", "Seen Ada")
    page.click("#signup-button")
    expect(page.locator("#signed-in")).to_be_visible()
    page.click("#signout")
    expect(page.locator("#signed-out")).to_be_visible()

    page.goto("/")  # anonymous now: this device plays today's deal
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#ranked-note")).to_be_hidden()  # this stack ranks anonymous play
    page.fill("#name", "Seen Bea")
    page.locator("#start-button").click()
    page.wait_for_url("**/play/**")

    page.goto("/account")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#signin-button")
    expect(page.locator("#signed-in")).to_be_visible()
    page.evaluate("localStorage.clear()")  # the account has no attempt of today to continue
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#ranked-note")).to_be_visible()
    expect(page.locator("#ranked-note")).to_contain_text("schon gesehen")
    page.fill("#name", "Seen Ada")
    page.locator("#start-button").click()
    expect(page.locator("#start-error")).to_contain_text("schon gesehen")
    assert "/play/" not in page.url
    assert errors == []


def test_passkeys_work_at_the_address_make_run_prints(browser: Browser, tmp_path: Path) -> None:
    """``make run`` (service.run) prints where to open the site; signing up there with a
    passkey works with the development defaults. It printed http://127.0.0.1:8000, where the
    browser refuses a relying party ("Das hat nicht geklappt (SecurityError)")."""
    log = tmp_path / "run.log"
    web_port = free_port()
    web = WebServer(launch(tmp_path / "var", web_port, free_port(), log), "")
    web.base = f"http://127.0.0.1:{web_port}"
    try:
        wait_for(lambda: healthy(web), timeout=60, interval=0.2)
        printed = re.findall(r"web: (?:open )?(http://[^/\s]+)", log.read_text())
        assert printed, log.read_text()
        assert urlsplit(printed[0]).port == web_port
        ctx = browser.new_context(base_url=printed[0])
        try:
            page = ctx.new_page()
            virtual_authenticator(page)
            page.goto("/account")
            page.wait_for_selector("body[data-ready='1']")
            expect(page.locator("#wrong-address")).to_be_hidden()
            page.fill("#account-name", "Ada am Start")
            page.click("#signup-button")
            expect(page.locator("#signed-in")).to_be_visible()
            expect(page.locator("#account-error")).to_be_empty()
        finally:
            ctx.close()
    finally:
        web.process.popen.send_signal(signal.SIGINT)
        web.process.popen.wait(timeout=60)


def test_at_an_ip_address_the_page_says_where_passkeys_work(page: Page, stack: Stack) -> None:
    """Opened at http://127.0.0.1 (the relying party is localhost), the account page shows the
    way to the right address before anyone tries, and a refused passkey (the browser's
    SecurityError) says to open the site there, not a bare "(SecurityError)". A signed-out
    page asks for no account (a 401 in the console); signing out asks for none either."""
    site = stack.base_url.replace("127.0.0.1", "localhost")
    answers: list[tuple[str, int]] = []
    page.on("response", lambda r: answers.append((r.url, r.status)))
    virtual_authenticator(page)
    page.goto("/account")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#signed-out")).to_be_visible()
    expect(page.locator("#wrong-address")).to_be_visible()
    expect(page.locator("#site-link")).to_have_attribute("href", f"{site}/account")
    page.fill("#account-name", "Ada an der IP")
    page.click("#signup-button")
    expect(page.locator("#account-error")).to_contain_text(site)
    expect(page.locator("#account-error")).not_to_contain_text("(SecurityError)")
    assert [a for a in answers if a[1] >= 400] == []
    assert not [a for a in answers if urlsplit(a[0]).path == "/api/account"]


def test_an_unnamed_device_is_named_in_the_pages_language(
    localhost: BrowserContext, stack: Stack
) -> None:
    """Defect (issue 38): Dutch pages listed the account's device as "Gerät 1", the service's
    default name for a device the player did not name; the page now says it in its language."""
    page = localhost.new_page()
    virtual_authenticator(page)
    page.goto("/account?lang=nl")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#account-name", "Apparaat Anna")
    page.click("#signup-button")
    expect(page.locator("#signed-in")).to_be_visible()
    expect(page.locator("#devices li")).to_contain_text("Apparaat 1")
    page.goto("/account?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#devices li")).to_contain_text("Device 1")
    expect(page.locator("#devices li")).not_to_contain_text("Gerät")
