"""What a new player meets, each small thing against the real stack in Chromium: the move list's
numbers whole at three digits, a chart of one point still a chart, a table's own tab title and
its dealer mark explained, giving up against bots said as such, a copy button that says what it
copies."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack, settings_changed
from tests.support.page_flows import start_game
from tests.support.table_flows import create_table

# For every numbered line of the move list: the number's text ("114.") and whether it fits in
# the room the list gives its markers (an outside marker sits in the list's left padding).
MARKERS = """() => {
  const list = document.querySelector("#log");
  const style = getComputedStyle(list);
  const probe = document.createElement("span");
  probe.style.font = style.font;
  probe.style.position = "absolute";
  probe.style.whiteSpace = "pre"; // the marker is "114. ", its space included
  document.body.append(probe);
  const cut = [];
  [...list.children].forEach((li, i) => {
    if (getComputedStyle(li).display !== "list-item") return;
    if (getComputedStyle(li).listStylePosition === "inside") return;
    probe.textContent = `${i + 1}. `;
    const room = parseFloat(style.paddingLeft) + parseFloat(getComputedStyle(li).marginLeft);
    if (probe.getBoundingClientRect().width > room) cut.push(probe.textContent.trim());
  });
  probe.remove();
  return cut;
}"""


def test_the_move_list_shows_three_digit_move_numbers_whole(page: Page, stack: Stack) -> None:
    """A long round's move list: "114." was shown as "ı14." (its marker wider than the list's
    left padding, cut by the box)."""
    stack.clock.set_day("2030-09-01")
    page.set_viewport_size({"width": 1366, "height": 800})
    start_game(page, "Zähler")
    page.evaluate(
        """() => {
          const list = document.querySelector("#log");
          for (let i = list.children.length; i < 130; i += 1) {
            const li = document.createElement("li");
            li.textContent = "Bot 1: zieht vom Stapel";
            list.append(li);
          }
        }"""
    )
    assert page.evaluate(MARKERS) == []


CHART = """async () => {
  const { barChart, histogram } = await import("/static/js/lib/chart.js");
  const shown = (svg) => {
    document.body.append(svg);
    const width = svg.getBoundingClientRect().width;
    const bars = [...svg.querySelectorAll("rect.bar")].map((r) => r.getBoundingClientRect().width);
    const labels = [...svg.querySelectorAll("text")].map((t) => t.textContent);
    svg.remove();
    return { width, bars, labels };
  };
  return [
    shown(barChart([{ label: "1. Dez.", value: -75 }], { title: "Letzte Tage" })),
    shown(histogram([{ from: -100, to: -50, count: 1 }], "Verteilung", -100, "Du")),
  ];
}"""


def test_a_chart_of_one_point_is_a_bar_with_axes(page: Page) -> None:
    """The statistics' and the field's charts with a single day or bucket: a bar with labelled
    axes (it was one block filling the whole chart, no axis, no label)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/stats")
    for chart in page.evaluate(CHART):
        assert len(chart["bars"]) == 1
        assert chart["bars"][0] < chart["width"] / 4, chart
        assert "0" in chart["labels"], chart  # the value axis
    one_day, one_bucket = page.evaluate(CHART)
    assert "1. Dez." in one_day["labels"] and "75" in one_day["labels"]
    assert "-100 … -50" in one_bucket["labels"] and "Du" in one_bucket["labels"]


def table_title(game: str, lang: str) -> str:
    tab = {"de": "Tisch", "en": "Table"}[lang]
    name = {"pikdame": "Pik Dame", "tausende": "Tausende"}[game]
    return f"{name} · {tab}" if game == "pikdame" else f"{name} · {tab} · Pik Dame"


def test_a_table_names_its_game_in_the_tab_explains_its_dealer_mark_and_a_lone_resign(
    page: Page, stack: Stack
) -> None:
    """Every table's tab read "Pik Dame · Pik Dame — Tages-Challenge"; the dealer's "G" had only
    a hover title; giving up against bots said "(Vorschlag von …)" though no one was asked."""
    for game, lang in (("tausende", "en"), ("pikdame", "de")):
        create_table(page, "Neuling", ["beginner"], lang=lang, game=game)
        expect(page).to_have_title(table_title(game, lang))
        page.locator("#start-button").click()
        expect(page.locator("#table")).to_be_visible()
    if page.locator("#cut-button").is_visible():
        page.locator("#cut-button").click()
    mark = page.locator("#seat-strip .dealer")
    expect(mark).to_have_count(1)
    expect(mark).to_contain_text("Geber")  # read out by name, not as "G"
    expect(page.locator("#strip-legend")).to_be_visible()
    expect(page.locator("#strip-legend")).to_contain_text("G Geber dieser Runde")
    page.locator("#resign").click()
    page.locator("#confirm-ok").click()
    expect(page.locator("#standings")).to_be_visible()
    outcome = page.locator("#standings-outcome")
    expect(outcome).to_contain_text("Du hast die Partie aufgegeben")
    expect(outcome).not_to_contain_text("Vorschlag")


def test_the_gin_share_button_says_it_copies_the_text(page: Page) -> None:
    """Gin's end screen copies the share text, not a link: its button said "Link kopieren"."""
    page.goto("/gin/play/0000000000000000?lang=de")
    assert page.locator("#share-copy").text_content() == "Kopieren"
    page.goto("/gin/play/0000000000000000?lang=en")
    assert page.locator("#share-copy").text_content() == "Copy"


def test_english_names_tausende_one_way(page: Page) -> None:
    """The English pages named the game "Thousands (Duizenden)" on the table and "Tausende" in
    its rules and panel: one name, Tausende (a proper name, like Pik Dame)."""
    page.goto("/spielen?lang=en")
    strings: dict[str, Any] = page.evaluate(
        "() => JSON.parse(document.getElementById('strings').textContent)"
    )
    names = {v for k, v in strings.items() if k.startswith("tables.game.tausende")}
    assert names == {"Tausende"}
    assert not [v for v in strings.values() if "Thousands" in v]


def test_an_anonymous_player_learns_before_the_start_that_the_game_is_unranked(
    page: Page, stack: Stack
) -> None:
    """The "ohne Wertung" for anonymous play, said before the start: the front page
    promised a public ranking name and "Ein gewerteter Versuch pro Tag", and only the table said
    "Ohne Wertung – melde dich an". (An account's page: tests/browser/test_accounts.py.)"""
    stack.clock.set_day("2030-09-03")
    with settings_changed(stack, rank_anonymous=False):  # the default deployment
        anonymous_front_page(page)
    # where the operator ranks anonymous play (PIKDAME_RANK_ANONYMOUS=1), the page says so
    page.goto("/?lang=de")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("section.start").first).to_contain_text("Ein gewerteter Versuch pro Tag")
    expect(page.locator("#anonymous-note")).to_have_count(0)


def anonymous_front_page(page: Page) -> None:
    page.goto("/?lang=de")
    page.wait_for_selector("body[data-ready='1']")
    start = page.locator("section.start").first
    expect(start).not_to_contain_text("öffentlich in der Rangliste")
    expect(page.locator("label[for=name]")).not_to_contain_text("Rangliste")
    expect(start).not_to_contain_text("gewerteter Versuch")
    note = page.locator("#anonymous-note")
    expect(note).to_contain_text("ohne Wertung")
    expect(note).to_contain_text("vor dem Start an")  # a deal once seen is not played ranked
    expect(page.locator("#anonymous-signin")).to_have_attribute("href", "/account")
    expect(page.locator("#gin-daily")).not_to_contain_text("Ein gewerteter Versuch")
    said_once(page, "ohne wertung", "keiner? rangliste")
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#anonymous-note")).to_contain_text("unranked")
    expect(page.locator("label[for=name]")).not_to_contain_text("ranking")
    said_once(page, "unranked", "no ranking")


def said_once(page: Page, *phrases: str) -> None:
    """Defect (issue 38): the home page said the unranked rule three times (the name's help,
    the note under the form and the Gin section, and the day's ranked_start again): once now,
    in the note beside the sign-in link. Read once the scripts have filled the page in."""
    expect(page.locator("#gin-daily-body")).to_be_visible()
    text = page.locator("main").inner_text().lower()
    for phrase in phrases:
        assert len(re.findall(phrase, text)) == 1, (phrase, text)
