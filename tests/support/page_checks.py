"""What a person would notice on a page, measured in the browser: elements outside the screen,
sideways scrolling, raw placeholders or "null" in the visible text, and unreadable contrast."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page

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


# Visible text that fails WCAG 2 AA contrast (1.4.3): 4.5:1, or 3:1 for large text (24 px, or
# 18.66 px bold). The text's colour (with its alpha and every ancestor's opacity) is laid over its
# effective background: the ancestors' background colours composited from the first opaque one
# upwards (the page's paper under all). Text over a background image or gradient cannot be
# measured this way and is left out, as are disabled controls (WCAG exempts them) and anything
# still animating (its colours are on the way). [(text, ratio, needed, colour, background)]
_LOW_CONTRAST = r"""() => {
  const rgba = (s) => {
    const v = (s.match(/[\d.]+/g) || []).map(Number);
    return v.length >= 3 ? [v[0], v[1], v[2], v.length > 3 ? v[3] : 1] : [0, 0, 0, 0];
  };
  const over = (top, below) => top.slice(0, 3).map((c, i) => c * top[3] + below[i] * (1 - top[3]));
  const lum = (rgb) => {
    const c = rgb.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const moving = new Set(document.getAnimations().map((a) => a.effect && a.effect.target));
  const paper = rgba(getComputedStyle(document.documentElement).backgroundColor);
  const bad = [];
  const done = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || done.has(el) || !node.textContent.trim()) continue;
    if (el.closest("script, style, template, [hidden], .sr, :disabled, [aria-hidden=true]")) {
      continue;
    }
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== "visible") continue;
    done.add(el);
    // the backgrounds under the text, nearest first, and the opacity it is drawn with
    const layers = [];
    let alpha = 1, image = false, still = true;
    for (let n = el; n; n = n.parentElement) {
      if (moving.has(n)) still = false;
      const s = getComputedStyle(n);
      alpha *= Number(s.opacity);
      if (s.backgroundImage !== "none") image = true;
      const c = rgba(s.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1 || image) break;
    }
    if (image || !still || alpha < 0.05) continue;
    let bg = paper[3] >= 1 ? paper.slice(0, 3) : [255, 255, 255];
    for (const layer of layers.reverse()) bg = over(layer, bg);
    const fg = rgba(style.color);
    const ink = over([fg[0], fg[1], fg[2], fg[3] * alpha], bg);
    const [a, b] = [lum(ink), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < needed - 0.005) {
      bad.push([node.textContent.trim().slice(0, 60), Math.round(ratio * 100) / 100, needed,
                style.color, "rgb(" + bg.map(Math.round).join(", ") + ")"]);
    }
  }
  return bad;
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


def low_contrast(page: Page) -> list[Any]:
    """Visible text below WCAG AA contrast against what it stands on (empty when all reads)."""
    result: list[Any] = page.evaluate(_LOW_CONTRAST)
    return result


# A count of one with a plural noun ("Serie: 1 Tage", "1 days", "1 dagen"): the string was not
# plural-aware.
_PLURAL_NOUNS = [
    "Tage",
    "Züge",
    "Spiele",
    "Karten",
    "Punkte",
    "Runden",
    "Versuche",
    "Siege",
    "Partien",
    "Stunden",
    "Minuten",
    "Sekunden",
    "Wochen",
    "Meldungen",
    "days",
    "moves",
    "games",
    "cards",
    "points",
    "rounds",
    "attempts",
    "wins",
    "hours",
    "minutes",
    "seconds",
    "weeks",
    "players",
    "melds",
    "dagen",
    "beurten",
    "zetten",
    "spellen",
    "kaarten",
    "punten",
    "rondes",
    "pogingen",
    "overwinningen",
    "partijen",
    "uren",
    "minuten",
    "seconden",
    "weken",
    "spelers",
    "combinaties",
    "handen",
]
_WRONG_PLURAL = r"""(nouns) => {
  const wrong = new RegExp("(?<![\\d.,'’-])1\\s+(" + nouns.join("|") + ")\\b", "u");
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("script, style, template, [hidden]")) continue;
    if (el.getClientRects().length === 0) continue;
    const text = el.textContent.replace(/\s+/g, " ");
    if (wrong.test(node.textContent) || wrong.test(text)) bad.push(text.trim().slice(0, 120));
  }
  return [...new Set(bad)];
}"""


def wrong_plurals(page: Page) -> list[str]:
    """Visible text counting one with a plural noun ("1 Tage", "1 days")."""
    result: list[str] = page.evaluate(_WRONG_PLURAL, _PLURAL_NOUNS)
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


# The WCAG contrast ratio of the chart's labels (SVG text: its fill) against the nearest opaque
# background under them.
_CHART_LABEL_CONTRAST = r"""(root) => {
  const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
  const lum = (c) => {
    const v = c.slice(0, 3).map((x) => {
      const s = x / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  };
  let bg = [255, 255, 255];
  for (let n = root; n; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length >= 3 && (c.length === 3 || c[3] >= 1)) { bg = c; break; }
  }
  return [...root.querySelectorAll("svg.chart text")].map((t) => {
    const [a, b] = [lum(rgb(getComputedStyle(t).fill)), lum(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  });
}"""


def chart_label_contrast(root: Locator) -> list[float]:
    """The WCAG contrast ratio of every chart label under ``root`` (SVG text, drawn with its
    fill, which the text check above does not read) against the background under it."""
    ratios: list[float] = root.evaluate(_CHART_LABEL_CONTRAST)
    return ratios
