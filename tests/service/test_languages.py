"""The site's three languages: German, English and Dutch. Every language has every string, with
the same placeholders and plural forms as the German; the page's language is ``?lang=``, then the
cookie, then the browser's Accept-Language, then German; every game's rules page exists in each;
the switch offers all three."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask

from service.pages.strings import LANG_NAMES, LANGS, strings

# a branch of a plural or select argument: "one {…}", "=0 {…}", "low {…}"
BRANCH = re.compile(r"\s*(=?\w+)\s*\{")


def closing(text: str, start: int) -> int:
    """The index of the "}" closing the "{" at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i
    raise AssertionError(f"unbalanced: {text}")


def arguments(text: str) -> set[str]:
    """Every argument of an ICU-like message as (name, type, branches) read the way
    templates/static/js/lib/i18n.js reads it: "{n}", "{n, plural, one {…} other {…}}"."""
    found: set[str] = set()
    at = text.find("{")
    while at >= 0:
        end = closing(text, at)
        name, _, rest = text[at + 1 : end].partition(",")
        kind, _, branches = rest.partition(",")
        found.add(f"{name.strip()}:{kind.strip()}")
        i = 0
        while (match := BRANCH.match(branches, i)) is not None:
            body_end = closing(branches, match.end() - 1)
            found.add(f"{name.strip()}={match.group(1)}")
            found |= arguments(branches[match.end() : body_end])
            i = body_end + 1
        at = text.find("{", end + 1)
    return found


def test_every_language_has_every_string_with_its_placeholders() -> None:
    german = strings("de")
    for lang in LANGS:
        table = strings(lang)
        assert set(table) == set(german), (lang, set(table) ^ set(german))
        for key, text in german.items():
            mine = arguments(table[key])
            names = {re.split("[:=]", a)[0] for a in mine}
            assert names == {re.split("[:=]", a)[0] for a in arguments(text)}, (lang, key)
            # a count the language words by plural has its "one" and "other" (CLDR: de, en, nl)
            for plural in (a.split(":")[0] for a in mine if a.endswith(":plural")):
                assert {f"{plural}=one", f"{plural}=other"} <= mine, (lang, key)


def test_dutch_is_dutch() -> None:
    """A spot check that nl.json is no copy of another language."""
    dutch = strings("nl")
    assert dutch["action.draw"] == "Trekken"
    assert dutch["card.name"] == "{suit} {rank}" and dutch["suit.S"] == "Schoppen"
    assert dutch["tables.game.tausende"] == "Duizenden"  # its Dutch family's own name

    def words(text: str) -> str:  # a text without its placeholders: what a translator writes
        return re.sub(r"\{[^{}]*\}", "", text)

    same = [
        k
        for k, v in dutch.items()
        if v in (strings("de")[k], strings("en")[k]) and len(words(v).strip(" :→()“”·")) > 12
    ]
    assert len(same) < 10, same


@pytest.mark.parametrize(
    ("query", "cookie", "accept", "lang"),
    [
        ("", None, None, "de"),
        ("", None, "nl", "nl"),
        ("", None, "nl-BE,nl;q=0.9,en;q=0.5", "nl"),
        ("", None, "fr-FR,fr;q=0.9,en;q=0.8", "en"),
        ("", None, "fr", "de"),
        ("", "en", "nl", "en"),
        ("?lang=nl", "en", "de", "nl"),
        ("?lang=xx", "nl", None, "nl"),
    ],
)
def test_the_pages_language(
    app: Flask, query: str, cookie: str | None, accept: str | None, lang: str
) -> None:
    client = app.test_client()
    if cookie:
        client.set_cookie("lang", cookie)
    headers = {"Accept-Language": accept} if accept else {}
    page = client.get(f"/{query}", headers=headers).get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    assert strings(lang)["today.title"] in page


def test_a_chosen_language_is_remembered(app: Flask) -> None:
    client = app.test_client()
    chosen = client.get("/rules?lang=nl", headers={"Accept-Language": "de"})
    assert "lang=nl" in chosen.headers["Set-Cookie"]
    assert '<html lang="nl">' in client.get("/", headers={"Accept-Language": "de"}).get_data(
        as_text=True
    )


@pytest.mark.parametrize(
    ("path", "title"),
    [
        (
            "/rules",
            {"de": "Spielregeln: Pik Dame", "en": "Rules: Pik Dame", "nl": "Regels: Pik Dame"},
        ),
        ("/rules/gin", {"de": "Gin Rommé", "en": "Rules: Gin Rummy", "nl": "Regels: Gin Rummy"}),
        (
            "/rules/tausende",
            {"de": "Regeln: Tausende", "en": "Rules: Tausende", "nl": "Regels: Duizenden"},
        ),
    ],
)
def test_every_rules_page_in_every_language(app: Flask, path: str, title: dict[str, str]) -> None:
    client = app.test_client()
    for lang in LANGS:
        page = client.get(f"{path}?lang={lang}")
        assert page.status_code == 200
        assert title[lang] in page.get_data(as_text=True), (path, lang)


def test_the_switch_offers_every_language(app: Flask) -> None:
    page = app.test_client().get("/archive?game=gin&lang=en").get_data(as_text=True)
    for lang in LANGS:
        link = f'href="/archive?game=gin&amp;lang={lang}" hreflang="{lang}" lang="{lang}"'
        assert link in page, lang
        assert LANG_NAMES[lang] in page
    assert 'hreflang="en" lang="en" aria-current="true"' in page


#: Words a language has its own word for, as another language writes them: Gin's "deadwood" is
#: "Restpunkte" in German and "restpunten" in Dutch (the table's word, the lesson's and the
#: rules' alike); a device is no "Gerät" outside German.
FOREIGN = {
    "de": ("deadwood",),
    "en": ("restpunkte", "restpunten", "gerät"),
    "nl": ("deadwood", "restpunkte", "gerät", "exakt"),
}
#: Letters of German words that neither English nor Dutch writes.
GERMAN_LETTERS = {"en": "äöüß", "nl": "äüß"}
PAGES = Path(__file__).resolve().parents[2] / "templates"


def words(text: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]+", text.lower()))


def test_no_language_uses_another_languages_word() -> None:
    """Defect (issue 38): Dutch pages showed "Deadwood (exact)" and "Gerät 1", and German said
    "Restpunkte" at the table but "Deadwood" in the Gin lesson. Every string and every rules
    page of a language uses its own words; English and Dutch have no German letters."""
    for lang in LANGS:
        texts = {f"{lang}.json:{key}": text for key, text in strings(lang).items()}
        for rules in sorted(PAGES.glob(f"*/rules_{lang}.html")):
            texts[str(rules.relative_to(PAGES))] = rules.read_text(encoding="utf-8")
        for where, text in texts.items():
            assert not words(text) & set(FOREIGN[lang]), (where, words(text) & set(FOREIGN[lang]))
            assert not set(text) & set(GERMAN_LETTERS.get(lang, "")), where
