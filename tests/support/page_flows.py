"""Page flows shared by the browser tests: start today's game from the front page, and wait for
the end screen's verification."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect

VERIFY_TIMEOUT_MS = 90_000


def start_game(page: Page, name: str) -> str:
    """Open the front page, enter a name, start; returns the attempt id from the table's URL."""
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#name").fill(name)
    page.locator("#start-button").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+$"))
    page.wait_for_selector("body[data-ready='1']")
    return page.url.rsplit("/", 1)[1]


def wait_verified(page: Page) -> tuple[int, int]:
    """Wait on the end screen until the verification is done; returns (score, rank)."""
    status = page.locator("#verify-status")
    expect(status).to_have_attribute("data-state", "verified", timeout=VERIFY_TIMEOUT_MS)
    rank_text = page.locator("#rank-value").inner_text()
    rank = int(re.sub(r"\D", "", rank_text))
    score_text = page.locator("#own-score").inner_text().replace("−", "-").replace("+", "")
    return int(score_text.replace(".", "").replace(",", "")), rank


def patient_call(page: Page) -> Any:
    """A ``call(method, path, body)`` with the page's own session (its player) that waits out
    the front's rate limit (429, ``Retry-After``) as a player would."""

    def call(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        for _ in range(100):
            answer = page.request.fetch(path, method=method, data=body)
            if answer.status != 429:
                return answer.status, answer.json()
            page.wait_for_timeout(1000 * int(answer.headers.get("retry-after", "1")))
        raise AssertionError(f"{path}: rate limited")

    return call


def api_call(page: Page) -> Any:
    """A ``call(method, path, body)`` for :func:`tests.support.player.play_to_end` that goes through
    the real server with the page's own session cookie (so the page may then show the attempt)."""

    def call(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        response = page.request.fetch(
            path,
            method=method,
            data=None if body is None else json.dumps(body),
            headers={"Content-Type": "application/json"} if body is not None else {},
        )
        return response.status, response.json()

    return call


def advance_to_melds(call: Any, attempt_id: str) -> None:
    """Play through the API (draw, the hint's melds, the costliest discard) until the player
    has a meld and it is their draw again: the table then offers every dialog."""
    status, body = call("GET", f"/api/attempts/{attempt_id}", None)
    attempt = body["attempt"]
    for _ in range(200):
        view = attempt["view"]
        assert attempt["status"] == "playing", "the round ended before the player melded"
        if view["phase"] == "draw" and view["melds"][0] and len(view["hand"]) > 4:
            return
        if view["phase"] == "draw":
            move = "draw"
        else:
            _, hint = call("GET", f"/api/attempts/{attempt_id}/hint", None)
            melds = [m for m in hint["moves"] if m.startswith("meld")]
            move = melds[0] if melds and len(view["hand"]) > 4 else f"discard {view['hand'][-1]}"
        status, body = call(
            "POST", f"/api/attempts/{attempt_id}/moves", {"move": move, "seq": attempt["seq"]}
        )
        assert status == 200, (move, body)
        attempt = body["attempt"]
    raise AssertionError("no meld in 200 moves")
