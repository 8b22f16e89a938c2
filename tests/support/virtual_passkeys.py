"""Chromium's own passkey authenticator for the browser tests: a virtual platform authenticator
(the DevTools protocol's WebAuthn domain) that says yes, user verified, to every ceremony. The API
tests without a browser use tests/support/authenticator.py instead."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from playwright.sync_api import CDPSession, Page

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
