"""Direct play in a browser test (issue 41): a card dragged by the mouse or by a finger (Chromium's
touch events through the DevTools protocol, what a touch screen sends; Playwright's touchscreen
only taps), the gestures a page saw (its primary pointer presses) and Chromium's layout-shift
score while a turn is played."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

from playwright.sync_api import Browser, Locator, Page, Request

from tests.support.browser_stack import Stack

#: The system's motion setting a page is opened with (``prefers-reduced-motion``).
Motion = Literal["no-preference", "reduce"]
#: Narrower than this, a page is a phone's: driven by a finger.
PHONE_WIDTH = 700

# Before any page script: every primary press counted, every layout shift summed (all of them,
# and those without a recent input: Chromium's standard score leaves out the 500 ms after an
# input), with what moved.
WATCH = """
window.__presses = 0;
window.addEventListener("pointerdown", (e) => { if (e.isPrimary) window.__presses += 1; }, true);
window.__shift = {all: 0, unprompted: 0, moved: []};
const named = (n) => (n ? n.id || String(n.className || n.nodeName) : "?");
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__shift.all += entry.value;
    if (!entry.hadRecentInput) window.__shift.unprompted += entry.value;
    for (const s of entry.sources || []) {
      window.__shift.moved.push(`${named(s.node)} ${s.previousRect.y}->${s.currentRect.y}`);
    }
  }
}).observe({type: "layout-shift", buffered: true});
"""


@contextmanager
def watched_page(
    browser: Browser,
    stack: Stack,
    viewport: dict[str, int],
    speed: str = "veryfast",
    motion: Motion = "no-preference",
) -> Iterator[Page]:
    """A page in a profile of its own under :data:`WATCH`: a phone's (touch) when narrower than
    :data:`PHONE_WIDTH`, else a desktop's with a mouse; the bots' ``speed`` and the system's
    ``motion`` setting. On the way out, no page script threw."""
    phone = viewport["width"] < PHONE_WIDTH
    ctx = browser.new_context(
        base_url=stack.base_url,
        viewport={"width": viewport["width"], "height": viewport["height"]},
        has_touch=phone,
        is_mobile=phone,
        reduced_motion=motion,
    )
    ctx.add_init_script(f"localStorage.setItem('pikdame.speed', JSON.stringify('{speed}'))")
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, errors


def center(locator: Locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None, locator
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page: Page, source: Locator, target: Locator, steps: int = 8) -> None:
    """Press the mouse on ``source``, move it in ``steps`` onto ``target`` and release."""
    (x0, y0), (x1, y1) = center(source), center(target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.up()


class Finger:
    """One finger on a touch screen (a context with ``has_touch``), moved step by step."""

    def __init__(self, page: Page) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.at = (0.0, 0.0)

    def send(self, kind: str, points: list[dict[str, Any]]) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x: float, y: float) -> None:
        self.at = (x, y)
        self.send("touchStart", [{"x": x, "y": y}])

    def move(self, x: float, y: float, steps: int = 8) -> None:
        x0, y0 = self.at
        for k in range(1, steps + 1):
            self.send(
                "touchMove", [{"x": x0 + (x - x0) * k / steps, "y": y0 + (y - y0) * k / steps}]
            )
        self.at = (x, y)

    def up(self) -> None:
        self.send("touchEnd", [])
        self.cdp.detach()


def touch_drag(page: Page, source: Locator, target: Locator, steps: int = 8) -> None:
    """A finger on ``source``, moved in ``steps`` onto ``target`` and lifted."""
    finger = Finger(page)
    finger.down(*center(source))
    finger.move(*center(target), steps=steps)
    finger.up()


def presses(page: Page) -> int:
    return int(page.evaluate("() => window.__presses"))


def layout_shift(page: Page) -> dict[str, Any]:
    """Chromium's layout-shift score since the watch began: ``unprompted`` is the standard score
    (shifts within 500 ms of an input left out), ``all`` every shift, ``moved`` what moved."""
    shift: dict[str, Any] = page.evaluate("() => window.__shift")
    return shift


def reset_watch(page: Page) -> None:
    page.evaluate(
        "() => { window.__presses = 0; window.__shift = {all: 0, unprompted: 0, moved: []}; }"
    )


def record_moves(page: Page) -> list[str]:
    """The moves the page sends from now on (each POST to a ``…/moves`` route), in order."""
    sent: list[str] = []

    def seen(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/moves"):
            body = request.post_data_json
            assert isinstance(body, dict), body
            sent.append(str(body["move"]))

    page.on("request", seen)
    return sent
