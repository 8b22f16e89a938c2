"""axe-core (Deque's accessibility engine, locked in templates/package-lock.json) run inside the
page under test: the WCAG 2.x A and AA rules and axe's best practices, with every serious or
critical violation reported as the rule, its impact and the offending elements."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "templates" / "node_modules" / "axe-core" / "axe.min.js"
#: What fails a page: axe's two gravest impacts. Minor and moderate findings are reported by axe
#: as well but left to review.
GRAVE = ("serious", "critical")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

# axe's run over the whole document; "region" (every text inside a landmark) is a best practice
# that the skip link and the site's header already serve, and reported as moderate anyway.
_RUN = """async (tags) => {
  const result = await axe.run(document, {
    runOnly: {type: "tag", values: tags},
    resultTypes: ["violations"],
  });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => ({target: n.target.join(" "),
                                             summary: (n.failureSummary || "").slice(0, 300)})),
  }));
}"""


def inject(page: Page) -> None:
    """axe into the current document (again after each navigation; a CSP never blocks a script
    Playwright adds through the DevTools protocol's own path)."""
    if not AXE.is_file():
        raise AssertionError(f"{AXE} is missing: run `npm ci --prefix templates`")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")


def violations(page: Page, impacts: tuple[str, ...] = GRAVE) -> list[dict[str, Any]]:
    """axe's violations of the page as it stands now, of the given impacts."""
    inject(page)
    found: list[dict[str, Any]] = page.evaluate(_RUN, TAGS)
    return [v for v in found if v["impact"] in impacts]
