"""The daily habit over the API on a real Redis: streaks, statistics, the place in the
field, the bot's par (never before the end), the share text (no card names) and leagues.

The verifier runs in-process here (worker.verify.verify, the job's own function); the RQ path is
in test_habit_flow.py.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import redis
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service.common import keys
from service.dailies import ranking
from service.habit import field, leagues, streaks
from tests.support.player import play_to_end
from tests.support.service_app import SECRET, Clock
from worker import par as par_job
from worker.verify import verify

# F1's card notation: rank and suit, or a joker; the share text must contain none.
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|X)\b")


def call_of(client: FlaskClient) -> Any:
    def call(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        r = client.open(path, method=method, json=body)
        return r.status_code, r.get_json()

    return call


def play_day(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str], date: str, name: str
) -> dict[str, Any]:
    r = client.post(f"/api/daily/{date}/attempts", json={"name": name})
    assert r.status_code == 201, r.get_json()
    aid = r.get_json()["attempt"]["id"]
    final: dict[str, Any] = play_to_end(call_of(client), aid, use_hints=False)
    assert verify(rdb, aid, SECRET, rankings)["status"] == "verified"
    return final


def snapshot(*roles: redis.Redis[str]) -> list[dict[str, Any]]:
    """Every service key of each role's server (game state, rankings)."""
    return [{k: r.dump(k) for k in sorted(r.keys("pd:*"))} for r in roles]


def test_streak_counts_each_day_once_and_a_retried_job_adds_nothing(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str], clock: Clock
) -> None:
    first = play_day(client, rdb, rankings, clock.today, "Ada")
    aid = first["id"]
    before = snapshot(rdb, rankings)
    assert verify(rdb, aid, SECRET, rankings)["new"] is False  # the job retried
    assert snapshot(rdb, rankings) == before
    clock.advance(days=1)
    play_day(client, rdb, rankings, clock.today, "Ada")
    me = client.get("/api/me/stats").get_json()
    assert me["streaks"]["pikdame"] == {"current": 2, "best": 2, "last": clock.today}
    assert me["stats"]["games"] == 2
    assert len(me["stats"]["recent"]) == 2 and me["stats"]["recent"][0]["date"] == clock.today
    clock.advance(days=2)  # a day missed: the streak is broken, the best kept
    me = client.get("/api/me/stats").get_json()
    assert me["streaks"]["pikdame"]["current"] == 0 and me["streaks"]["pikdame"]["best"] == 2


def test_streak_late_verdict_of_an_older_day_changes_nothing(rankings: redis.Redis[str]) -> None:
    """Spec reading: a streak counts days forward; a day verified after a later one (a job
    retried across midnight) neither breaks nor lengthens it."""
    for date in ("2026-11-02", "2026-11-03", "2026-11-01"):
        pipe = rankings.pipeline(transaction=True)
        streaks.advance(pipe, "p:x", "pikdame", date)
        pipe.execute()
    assert streaks.read(rankings, "p:x", "2026-11-03")["pikdame"]["current"] == 2


def test_new_browser_has_empty_stats(client: FlaskClient) -> None:
    me = client.get("/api/me/stats").get_json()
    assert me["stats"]["games"] == 0 and me["streaks"]["pikdame"]["current"] == 0


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-300, 300), min_size=1, max_size=40), st.integers(-300, 300))
def test_matchpoints_match_counting_by_hand(scores: list[int], mine: int) -> None:
    """Results beaten plus half the ties, over N − 1 (the ZCOUNT reading)."""
    client: redis.Redis[str] = redis.Redis(port=_PORT[0], decode_responses=True)
    client.delete(keys.day_rank("2026-01-01"))
    board = {f"a{i}": ranking.rank_key(s, i % 50, i) for i, s in enumerate([*scores, mine])}
    client.zadd(keys.day_rank("2026-01-01"), board)  # type: ignore[arg-type]
    where = field.place(client, "2026-01-01", mine, ranked=True)
    beaten = sum(1 for s in scores if s < mine)
    ties = sum(1 for s in scores if s == mine)
    assert (where.beaten, where.ties, where.others) == (beaten, ties, len(scores))
    exact = Fraction(100 * (2 * beaten + ties), 2 * len(scores))
    assert where.percentage == int(exact * 10 + Fraction(1, 2)) / 10  # one decimal, halves up
    assert field.places(client, [("2026-01-01", mine)]) == [where.percentage]  # the Lua twin


_PORT: list[int] = []


def test_matchpoints_property(redis_url: str) -> None:
    _PORT[:] = [int(redis_url.rsplit(":", 1)[1].split("/")[0])]
    test_matchpoints_match_counting_by_hand()


test_matchpoints_match_counting_by_hand.__test__ = False  # type: ignore[attr-defined]


def test_place_par_and_share_only_after_the_end(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str], clock: Clock
) -> None:
    """The par tells of the deal: an unfinished player's answers never contain it."""
    date = clock.today
    par = par_job.compute(rankings, date, SECRET)  # the par lives with the rankings
    assert par_job.compute(rankings, date, SECRET) == par  # idempotent
    play_day(client, rdb, rankings, date, "Ada")
    other = client.application.test_client()
    r = other.post(f"/api/daily/{date}/attempts", json={"name": "Bob"})
    bob = r.get_json()["attempt"]["id"]
    token = r.get_json()["token"]
    seen = [
        other.get(f"/api/attempts/{bob}"),
        other.get(f"/api/attempts/{bob}/place"),
        other.get(f"/api/attempts/{bob}/share"),
        other.get("/api/me/stats"),
        other.get(f"/api/attempts/{bob}/place", headers={"Authorization": f"Bearer {token}"}),
    ]
    assert [r.status_code for r in seen] == [200, 409, 409, 200, 409]
    for r in seen:
        assert '"par"' not in r.get_data(as_text=True)
    final = play_to_end(call_of(other), bob, use_hints=False)
    # Finished but not yet verified: compared as if added, provisional, with the par.
    place = other.get(f"/api/attempts/{bob}/place").get_json()
    assert place["ranked"] is False and place["final"] is False
    assert place["par"] == par and place["score"] == final["view"]["outcome"]["round_scores"][0]
    verify(rdb, bob, SECRET, rankings)
    place = other.get(f"/api/attempts/{bob}/place").get_json()
    assert place["ranked"] is True and place["total"] == 2 and place["others"] == 1
    assert place["rank"] in (1, 2)
    assert sum(bar["count"] for bar in place["histogram"]) == 2
    assert any(bar["from"] == place["mark"] for bar in place["histogram"])
    for lang, word in (("de", "Serie 1"), ("en", "streak 1")):
        text = other.get(f"/api/attempts/{bob}/share?lang={lang}").get_json()["text"]
        assert date in text and word in text and f"{place['percentage']:g} %" in text
        assert CARD.search(text) is None, text
    assert other.get(f"/api/attempts/{bob}/share?lang=fr").status_code == 422
    clock.advance(days=2)
    assert other.get(f"/api/attempts/{bob}/place").get_json()["final"] is True


def test_a_share_text_without_a_percentage_leaves_it_out(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str], clock: Clock
) -> None:
    """The day's first player has no one to compare with (percentage null): the share text
    says nothing of a percentage instead of a bare "– %"."""
    ada = play_day(client, rdb, rankings, clock.today, "Ada")["id"]
    assert client.get(f"/api/attempts/{ada}/place").get_json()["percentage"] is None
    for lang, word in (("de", "Serie 1"), ("en", "streak 1")):
        text = client.get(f"/api/attempts/{ada}/share?lang={lang}").get_json()["text"]
        assert word in text and "%" not in text and "–" not in text, text


def test_leagues_create_join_boards_leave(
    app: Any, rdb: redis.Redis[str], rankings: redis.Redis[str], clock: Clock
) -> None:
    ada, bob, eve = app.test_client(), app.test_client(), app.test_client()
    play_day(ada, rdb, rankings, clock.today, "Ada")
    play_day(bob, rdb, rankings, clock.today, "Bob")
    r = ada.post("/api/leagues", json={"name": "  Stammtisch  "})
    assert r.status_code == 201
    league = r.get_json()["league"]
    assert league["name"] == "Stammtisch" and league["members"] == 1 and league["member"]
    code = league["code"]
    assert bob.post(f"/api/leagues/{code}/join", json={}).get_json()["league"]["members"] == 2
    assert bob.post(f"/api/leagues/{code}/join", json={}).get_json()["league"]["members"] == 2
    doc = eve.get(f"/api/leagues/{code}").get_json()
    assert doc["league"]["member"] is False
    assert sorted(e["name"] for e in doc["day"]["entries"]) == ["Ada", "Bob"]
    assert {e["percentage"] for e in doc["day"]["entries"]} <= {0.0, 50.0, 100.0}
    assert [e["days"] for e in doc["all_time"]["entries"]] == [1, 1]
    assert [e["code"] for e in bob.get("/api/leagues").get_json()["leagues"]] == [code]
    assert not rankings.keys("pd:*matchpoints*")  # an open day's matchpoints are not final
    clock.advance(days=2)
    later = eve.get(f"/api/leagues/{code}").get_json()
    assert later["all_time"] == doc["all_time"]
    assert len(rankings.keys("pd:*matchpoints*")) == 2  # the closed day's, kept per member
    assert eve.get(f"/api/leagues/{code}").get_json()["all_time"] == doc["all_time"]
    assert bob.post(f"/api/leagues/{code}/leave", json={}).get_json()["league"]["members"] == 1
    assert bob.post(f"/api/leagues/{code}/leave", json={}).status_code == 409


def test_league_bad_input_is_a_clear_4xx_and_changes_nothing(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    code = client.post("/api/leagues", json={"name": "Liga"}).get_json()["league"]["code"]
    before = snapshot(rdb, rankings)
    answers = {
        "oversize": client.post("/api/leagues", json={"name": "x" * (leagues.MAX_NAME + 1)}),
        "blank": client.post("/api/leagues", json={"name": "   "}),
        "type": client.post("/api/leagues", json={"name": 5}),
        "unknown join": client.post("/api/leagues/ZZZZZZZZ/join", json={}),
        "malformed": client.post("/api/leagues/abc-1/join", json={}),
        "unknown board": client.get("/api/leagues/ZZZZZZZZ"),
        "unknown leave": client.post("/api/leagues/ZZZZZZZZ/leave", json={}),
        "bad date": client.get(f"/api/leagues/{code}?date=2026-13-01"),
        "not json": client.post(f"/api/leagues/{code}/join", data="x"),
    }
    codes = {
        k: (r.status_code, (r.get_json() or {}).get("error", {}).get("code"))
        for k, r in answers.items()
    }
    assert codes == {
        "oversize": (422, "bad_value"),
        "blank": (422, "bad_value"),
        "type": (422, "bad_value"),
        "unknown join": (404, "unknown_league"),
        "malformed": (404, "unknown_league"),
        "unknown board": (404, "unknown_league"),
        "unknown leave": (404, "unknown_league"),
        "bad date": (422, "bad_value"),
        "not json": (415, "unsupported_media_type"),
    }
    assert snapshot(rdb, rankings) == before
