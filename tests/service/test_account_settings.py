"""The account's page settings (deck colours, card size, contrast, sound, language): kept with the
account, so a second device signed in to it finds them; only the signed-in account reads or
changes them; a value outside its choices is 422 and changes nothing; deleting the account
deletes them."""

from __future__ import annotations

from typing import Any

import redis
from flask import Flask

from service.accounts import store as accounts
from tests.support.accounts import ORIGIN, sign_in, sign_up
from tests.support.authenticator import Authenticator

NOTHING: dict[str, Any] = {
    "deck": None,
    "size": None,
    "contrast": None,
    "sound": None,
    "lang": None,
}


def test_settings_follow_the_account_to_another_device(app: Flask) -> None:
    phone_key = Authenticator(ORIGIN)
    phone = app.test_client()
    account = sign_up(phone, phone_key, "Ada")
    assert phone.get("/api/account/settings").get_json() == {"settings": NOTHING}
    changed = phone.put(
        "/api/account/settings", json={"deck": "four", "size": "large", "lang": "nl"}
    )
    assert changed.status_code == 200, changed.get_json()
    expected = {**NOTHING, "deck": "four", "size": "large", "lang": "nl"}
    assert changed.get_json() == {"settings": expected}
    # a field left out stays, a boolean is a boolean, null forgets one
    phone.put("/api/account/settings", json={"contrast": True, "sound": False, "size": None})
    expected = {**expected, "contrast": True, "sound": False, "size": None}
    laptop = app.test_client()
    assert sign_in(laptop, phone_key)["id"] == account["id"]
    assert laptop.get("/api/account/settings").get_json() == {"settings": expected}


def test_only_a_signed_in_account_has_settings(app: Flask) -> None:
    anonymous = app.test_client()
    assert anonymous.get("/api/account/settings").status_code == 401
    answer = anonymous.put("/api/account/settings", json={"deck": "four"})
    assert answer.status_code == 401
    assert answer.get_json()["error"]["code"] == "unauthorized"


def test_a_value_outside_its_choices_is_422_and_changes_nothing(app: Flask) -> None:
    client = app.test_client()
    sign_up(client, Authenticator(ORIGIN), "Bo")
    client.put("/api/account/settings", json={"deck": "two"})
    for bad in ({"deck": "five"}, {"size": "tiny"}, {"lang": "fr"}, {"contrast": "yes"}):
        answer = client.put("/api/account/settings", json=bad)
        assert answer.status_code == 422, (bad, answer.get_json())
        assert answer.get_json()["error"]["code"] == "bad_value"
    assert client.get("/api/account/settings").get_json() == {
        "settings": {**NOTHING, "deck": "two"}
    }


def test_deleting_the_account_deletes_its_settings(app: Flask, rdb: redis.Redis[str]) -> None:
    client = app.test_client()
    account = sign_up(client, Authenticator(ORIGIN), "Cy")
    client.put("/api/account/settings", json={"deck": "four"})
    assert rdb.exists(accounts.settings_key(account["id"]))
    assert client.delete("/api/account", json={}).status_code == 200
    assert not rdb.exists(accounts.settings_key(account["id"]))
