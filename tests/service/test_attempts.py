"""Starting and reading attempts: one ranked attempt per player per day, owners, errors."""

from __future__ import annotations

import redis
from flask.testing import FlaskClient

from service.common import keys
from tests.support.api import start
from tests.support.service_app import Clock


def error(response: object) -> tuple[int, str]:
    body = response.get_json()  # type: ignore[attr-defined]
    return response.status_code, body["error"]["code"]  # type: ignore[attr-defined]


def test_start_returns_attempt_and_token(client: FlaskClient, clock: Clock) -> None:
    response = client.post(f"/api/daily/{clock.today}/attempts", json={"name": "Ada"})
    assert response.status_code == 201
    body = response.get_json()
    attempt = body["attempt"]
    assert attempt["name"] == "Ada" and attempt["status"] == "playing"
    assert attempt["seq"] == 0 and attempt["verification"] is None
    view = attempt["view"]
    assert view["seat"] == 0 and view["turn"] == 0 and view["phase"] == "draw"
    assert len(view["hand"]) == 15 and view["can_draw"] is True
    assert len(body["token"]) >= 32


def test_second_attempt_same_day_is_409_with_its_id(client: FlaskClient, clock: Clock) -> None:
    attempt, token = start(client, clock.today)
    again = client.post(f"/api/daily/{clock.today}/attempts", json={"name": "Ada2"})
    assert error(again) == (409, "attempt_exists")
    assert again.get_json()["error"]["attempt_id"] == attempt["id"]
    # an API client without the cookie, presenting the token, is the same player
    fresh = client.application.test_client()
    by_token = fresh.post(
        f"/api/daily/{clock.today}/attempts",
        json={"name": "Ada3"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert error(by_token) == (409, "attempt_exists")


def test_next_day_allows_a_new_attempt(client: FlaskClient, clock: Clock) -> None:
    start(client, clock.today)
    clock.advance(days=1)
    start(client, clock.today)


def test_past_day_is_closed_and_future_day_unknown(client: FlaskClient, clock: Clock) -> None:
    assert error(client.post("/api/daily/2026-11-29/attempts", json={"name": "A"})) == (
        409,
        "day_closed",
    )
    assert error(client.post("/api/daily/2026-12-01/attempts", json={"name": "A"})) == (
        404,
        "unknown_day",
    )


def test_bad_names_are_422_and_create_nothing(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    for name in ["", "x" * 25, "tab\there", "   ", 42, None, ["Ada"]]:
        response = client.post(f"/api/daily/{clock.today}/attempts", json={"name": name})
        assert error(response) == (422, "bad_value"), name
    assert client.post(f"/api/daily/{clock.today}/attempts", json={}).status_code == 422
    assert rdb.keys(keys.attempt("*")) == []
    start(client, clock.today, "Zoë 🂡 Ω" + "x" * 10)  # printable unicode is a fine name


def test_error_precedence_400_before_404_before_409(client: FlaskClient, clock: Clock) -> None:
    bad_json = client.post(
        "/api/daily/2027-01-01/attempts", data="{nope", content_type="application/json"
    )
    assert error(bad_json) == (400, "bad_json")
    # unknown (future) day beats a bad name
    assert error(client.post("/api/daily/2027-01-01/attempts", json={"name": ""}))[0] == 404
    start(client, clock.today)
    # an existing attempt (409) beats a bad name (422)
    assert error(client.post(f"/api/daily/{clock.today}/attempts", json={"name": ""}))[0] == 409


def test_owner_reads_others_cannot(client: FlaskClient, clock: Clock) -> None:
    attempt, token = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}"
    assert client.get(path).status_code == 200  # the session cookie
    stranger = client.application.test_client()
    assert error(stranger.get(path)) == (401, "unauthorized")
    ok = stranger.get(path, headers={"Authorization": f"Bearer {token}"})
    assert ok.status_code == 200 and ok.get_json()["attempt"]["id"] == attempt["id"]
    _other, other_token = start(stranger, clock.today, "Bob")
    assert error(stranger.get(path)) == (403, "forbidden")
    foreign = client.application.test_client().get(
        path, headers={"Authorization": f"Bearer {other_token}"}
    )
    assert error(foreign) == (403, "forbidden")
    bogus = stranger.get(path, headers={"Authorization": "Bearer not-a-token"})
    assert error(bogus) == (403, "forbidden")
    assert error(stranger.get(path, headers={"Authorization": "Basic abc"})) == (
        401,
        "unauthorized",
    )
    assert error(client.get("/api/attempts/doesnotexist")) == (404, "unknown_attempt")


def test_log_before_finish_is_409(client: FlaskClient, clock: Clock) -> None:
    attempt, _ = start(client, clock.today)
    assert error(client.get(f"/api/attempts/{attempt['id']}/log")) == (409, "not_finished")
    stranger = client.application.test_client()
    assert error(stranger.get(f"/api/attempts/{attempt['id']}/log"))[0] == 401


def test_practice_only_for_closed_days(client: FlaskClient, clock: Clock) -> None:
    today = clock.today
    assert error(client.post(f"/api/daily/{today}/practice", json={"name": "A"})) == (
        409,
        "day_open",
    )
    response = client.post("/api/daily/2026-11-28/practice", json={"name": "A"})
    assert response.status_code == 201
    attempt = response.get_json()["attempt"]
    assert attempt["ranked"] is False and attempt["date"] == "2026-11-28"
    # practice is unranked: it neither counts as the day's attempt nor blocks another practice
    assert client.post("/api/daily/2026-11-28/practice", json={"name": "A"}).status_code == 201
    start(client, today)
    assert client.get("/api/daily/2026-11-28").get_json()["attempts"] == 0


def test_a_failed_start_sets_no_cookie(client: FlaskClient, clock: Clock) -> None:
    bad = client.post(f"/api/daily/{clock.today}/attempts", json={"name": ""})
    assert bad.status_code == 422 and "Set-Cookie" not in bad.headers
    good = client.post(f"/api/daily/{clock.today}/attempts", json={"name": "Ada"})
    assert good.status_code == 201 and "Set-Cookie" in good.headers


def test_an_unchanged_attempt_answers_304_to_its_etag(client: FlaskClient, clock: Clock) -> None:
    """The attempt's view carries an ETag from its seq (and verdict); asking with it
    again gets 304 until a move changes the attempt; private, never for a shared cache."""
    attempt, _ = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}"
    first = client.get(path)
    tag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "private, no-cache"
    again = client.get(path, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == tag
    client.post(f"{path}/moves", json={"move": "draw", "seq": attempt["seq"]})
    moved = client.get(path, headers={"If-None-Match": tag})
    assert moved.status_code == 200
    assert moved.get_json()["attempt"]["seq"] > attempt["seq"]
    assert moved.headers["ETag"] != tag


def test_an_etag_opens_the_view_to_its_readers_only(client: FlaskClient, clock: Clock) -> None:
    """The 304 path reads the attempt's head only: the owner check still comes first, so
    the right tag without credentials is 401, with another attempt's token 403, never a 304 (a
    304 would tell a stranger the attempt is unchanged); a made-up id is 404 either way."""
    attempt, token = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}"
    tag = client.get(path).headers["ETag"]
    stranger = client.application.test_client()
    assert error(stranger.get(path, headers={"If-None-Match": tag})) == (401, "unauthorized")
    _, other_token = start(stranger, clock.today, "Bob")
    other = {"If-None-Match": tag, "Authorization": f"Bearer {other_token}"}
    assert error(stranger.get(path, headers=other)) == (403, "forbidden")
    by_token = stranger.application.test_client().get(
        path, headers={"If-None-Match": tag, "Authorization": f"Bearer {token}"}
    )
    assert by_token.status_code == 304 and by_token.headers["ETag"] == tag
    assert error(client.get("/api/attempts/nosuchattempt", headers={"If-None-Match": tag})) == (
        404,
        "unknown_attempt",
    )


def test_a_stale_etag_gets_the_same_view_as_no_etag(client: FlaskClient, clock: Clock) -> None:
    """After a move the client's tag is stale: the answer is the whole current view, byte for
    byte what a request without a tag gets (same ETag, same private Cache-Control)."""
    attempt, _ = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}"
    old = client.get(path).headers["ETag"]
    client.post(f"{path}/moves", json={"move": "draw", "seq": attempt["seq"]})
    fresh = client.get(path)
    stale = client.get(path, headers={"If-None-Match": old})
    assert stale.status_code == fresh.status_code == 200
    assert stale.data == fresh.data and stale.headers["ETag"] == fresh.headers["ETag"] != old
    assert stale.headers["Cache-Control"] == fresh.headers["Cache-Control"] == "private, no-cache"
