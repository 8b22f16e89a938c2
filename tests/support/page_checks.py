"""What a person would notice on a page, measured in the browser: elements outside the screen,
sideways scrolling, raw placeholders or "null" in the visible text, and unreadable contrast."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

# Every element matching the selectors that is visible but not wholly inside the viewport (at the
# current scroll position): [(selector, index, box)].
_OUTSIDE = """(selectors) => {
  const out = [];
  const w = window.innerWidth, h = window.innerHeight;
  for (const selector of selectors) {
    const nodes = [...document.querySelectorAll(selector)];
    if (nodes.length === 0) out.push([selector, -1, null]);
    nodes.forEach((el, i) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5) {
        out.push([selector, i, {left: r.left, top: r.top, right: r.right, bottom: r.bottom}]);
      }
    });
  }
  return out;
}"""

# Pairs of visible elements whose boxes overlap: [(a, b)].
_OVERLAPS = """([a, b]) => {
  const boxes = (s) => [...document.querySelectorAll(s)].map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
  const hits = [];
  for (const p of boxes(a)) for (const q of boxes(b)) {
    if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) {
      hits.push([p.top, p.bottom, q.top, q.bottom]);
    }
  }
  return hits;
}"""

# Visible text (and accessible names a screen reader reads) with a raw "{…}" placeholder or a
# bare null/undefined/NaN word.
_RAW_TEXT = r"""() => {
  const bad = [];
  const raw = /\{[^}]*\}|\b(null|undefined|NaN)\b/;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("script, style, template, [hidden]")) continue;
    if (!node.textContent.trim() || el.getClientRects().length === 0) continue;
    if (raw.test(node.textContent)) bad.push(node.textContent.trim().slice(0, 120));
  }
  for (const el of document.querySelectorAll("[aria-label], [title], textarea, input[type=text]")) {
    if (el.closest("[hidden]")) continue;
    for (const text of [el.getAttribute("aria-label"), el.getAttribute("title"), el.value]) {
      if (text && raw.test(text)) bad.push(text.slice(0, 120));
    }
  }
  return bad;
}"""

_CONTRAST = """(el) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  // the first ancestor with an opaque background is what the text stands on
  let bg = null;
  for (let n = el; n && !bg; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length >= 3 && (c.length === 3 || c[3] > 0.9)) bg = c;
  }
  const fg = rgb(getComputedStyle(el).color);
  const [a, b] = [lum(fg), lum(bg || [255, 255, 255])].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def outside_viewport(page: Page, selectors: list[str]) -> list[Any]:
    result: list[Any] = page.evaluate(_OUTSIDE, selectors)
    return result


def overlaps(page: Page, a: str, b: str) -> list[Any]:
    result: list[Any] = page.evaluate(_OVERLAPS, [a, b])
    return result


def overflow(page: Page) -> int:
    """How far the page scrolls sideways (0 when it fits)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def raw_text(page: Page) -> list[str]:
    result: list[str] = page.evaluate(_RAW_TEXT)
    return result


def contrast(page: Page, selector: str) -> float:
    """The WCAG contrast ratio of the element's text against what it stands on."""
    return float(page.locator(selector).first.evaluate(_CONTRAST))


def keys_of(value: Any) -> set[str]:
    """Every key of a JSON document, at any depth (for the hidden-card tests: no field that
    carries hidden cards may appear in what the browser received)."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()
