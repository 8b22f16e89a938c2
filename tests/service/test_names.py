"""Player names are normalised (NFKC), visible, with bounded accents, and no name
looks like another player's name of the same day. Refusals are 422 ``bad_value`` with a reason
and create nothing."""

from __future__ import annotations

import pytest
import redis
from flask.testing import FlaskClient

from service.common import keys
from service.common.names import normalise, skeleton
from service.errors import BadName
from tests.support.api import start
from tests.support.service_app import Clock

INVISIBLE = {
    "hangul filler": "\u3164",
    "halfwidth hangul filler": "\uffa0",
    "braille blank": "\u2800",
    "hangul choseong filler": "\u115f",
    "zero-width space": "\u200b",
    "zero-width joiner": "\u200d",
    "word joiner": "\u2060",
    "byte order mark": "\ufeff",
    "only combining marks": "\u0301\u0308",
    "spaces around a mark": " \u0301 ",
    "ideographic space": "\u3000",
    "filler after a name": "Ada\u3164",
    "zero-width inside a name": "A\u200bda",
}


def post_name(client: FlaskClient, clock: Clock, name: str) -> tuple[int, dict[str, str]]:
    response = client.post(f"/api/daily/{clock.today}/attempts", json={"name": name})
    body = response.get_json()
    return response.status_code, body.get("error") or body["attempt"]


@pytest.mark.parametrize("case", sorted(INVISIBLE))
def test_a_name_that_does_not_show_is_refused(
    case: str, client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    status, error = post_name(client, clock, INVISIBLE[case])
    assert (status, error["code"]) == (422, "bad_value")
    assert error["message"].startswith("name: ")
    assert rdb.keys(keys.attempt("*")) == []


def test_a_stack_of_combining_marks_is_refused(client: FlaskClient, clock: Clock) -> None:
    status, error = post_name(client, clock, "Z" + "\u0301\u0300\u0308\u0327" * 5)
    assert (status, error["code"]) == (422, "bad_value")
    assert "accents" in error["message"]
    with pytest.raises(BadName):
        normalise("a\u0301\u0301\u0301")  # precomposed á plus two more: three on one letter
    assert normalise("Vi\u1ec7t") == "Vi\u1ec7t"  # ệ: two marks, a real Vietnamese letter


def test_names_are_stored_in_nfkc_with_spaces_tidied(client: FlaskClient, clock: Clock) -> None:
    status, attempt = post_name(client, clock, "  \uff21\uff44\uff41   Lovelace ")  # fullwidth
    assert status == 201
    assert attempt["name"] == "Ada Lovelace"


@pytest.mark.parametrize(
    "lookalike",
    ["Ada", "ADA", "ada", "\u0410da", "A\u0064\u0430", "A da", "A.da", "\u00c0da", "\uff21da"],
)
def test_a_lookalike_of_another_players_name_of_the_day_is_refused(
    lookalike: str, client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    start(client, clock.today, "Ada")
    other = client.application.test_client()  # another browser: another player
    status, error = post_name(other, clock, lookalike)
    assert (status, error["code"]) == (422, "bad_value")
    assert "another player" in error["message"]
    assert len(rdb.keys(keys.attempt("*"))) == 1
    # a different name is fine, and so is the same name on another day
    assert post_name(other, clock, "Bob")[0] == 201
    clock.advance(days=1)
    assert post_name(client.application.test_client(), clock, lookalike)[0] == 201


def test_skeletons_fold_what_looks_alike_and_keep_what_does_not() -> None:
    assert skeleton("Ivan") == skeleton("lvan") == skeleton("1van")
    assert skeleton("Olga") == skeleton("0lga")
    assert skeleton("Marn") == skeleton("Mam")
    assert skeleton("Ada") != skeleton("Ida")
    assert skeleton("Zoë") == skeleton("Zoe")
