"""The Tausende rules page (R12), German first and English, linked from the rules page."""

from __future__ import annotations

from service.app import create_app


def test_tausende_rules_page_in_both_languages(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "PIKDAME_SECRET": "test-secret"})
    client = app.test_client()
    de = client.get("/rules/tausende")
    assert de.status_code == 200 and "Regeln: Tausende" in de.get_data(as_text=True)
    en = client.get("/rules/tausende?lang=en")
    assert en.status_code == 200 and "Rules: Tausende" in en.get_data(as_text=True)
    for lang in ("de", "en"):
        page = client.get(f"/rules?lang={lang}").get_data(as_text=True)
        assert 'href="/rules/tausende"' in page
