"""Chromium's own passkey authenticator for the browser tests: a virtual platform authenticator
(the DevTools protocol's WebAuthn domain) that says yes, user verified, to every ceremony. The API
tests without a browser use tests/support/authenticator.py instead."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from playwright.sync_api import BrowserContext, CDPSession, Page, expect

OPTIONS: dict[str, Any] = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


def virtual_authenticator(
    page: Page, credentials: Iterable[dict[str, Any]] = ()
) -> tuple[CDPSession, str]:
    """(the page's DevTools session, the authenticator's id), holding ``credentials`` (passkeys
    read from another device's authenticator) from the start."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": OPTIONS})
    key = str(added["authenticatorId"])
    for credential in credentials:
        cdp.send("WebAuthn.addCredential", {"authenticatorId": key, "credential": credential})
    return cdp, key


def signed_up(ctx: BrowserContext, name: str, errors: list[str]) -> Page:
    """A new page of ``ctx`` signed up as ``name`` with a virtual passkey; its page errors go
    into ``errors``."""
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
    virtual_authenticator(page)
    page.goto("/account")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#account-name", name)
    page.click("#signup-button")
    expect(page.locator("#signed-in")).to_be_visible()
    return page
