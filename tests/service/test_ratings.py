"""Ratings per game (docs/LOBBY.md "Ratings", "Leaving a rated game") on a real Redis: a rated game
moves its accounts' ratings once (a casual one does not), a bot's seat does not rate, the turn
timer playing three turns in a row for an absent player resigns that player's rated game (a
loss), the board and the history in ``/api/me/stats``, repeated pairings in ``pikdame
suspicious``, and the update's determinism."""

from __future__ import annotations

from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from service.common import keys
from service.habit import suspicious
from service.lobby import ratings, sweep
from service.lobby.ratings import NEW, Rated, Skill
from service.tables import store as tables
from service.tables import timers
from tests.support.clock import Clock
from tests.support.lobby import LIFETIMES, play_own_turn, signed_up, timer_plays

HUMAN: dict[str, Any] = {"kind": "human"}


def rated_table(
    app: Flask, game: str, seats: list[dict[str, Any]], rated: bool = True
) -> tuple[str, FlaskClient, FlaskClient]:
    """Ada's public table (rated, 30 s timer), Bob seated: it has started."""
    ada, bob = signed_up(app, "Ada"), signed_up(app, "Bob")
    made = ada.post(
        "/api/tables",
        json={
            "game": game,
            "name": "Ada",
            "seats": seats,
            "rules": {"turn_timer": 30},
            "public": True,
            "rated": rated,
        },
    )
    assert made.status_code == 201, made.get_json()
    table_id = made.get_json()["table"]["id"]
    joined = bob.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})
    assert joined.status_code == 200 and joined.get_json()["table"]["status"] == "playing"
    return table_id, ada, bob


def ada_plays_bob_is_gone(
    rdb: redis.Redis[str], clock: Clock, table_id: str, ada: FlaskClient, timer_turns: int
) -> dict[str, Any]:
    """Ada (seat 0) plays her turns, the timer plays Bob's (seat 1) ``timer_turns`` times; the
    table as Ada sees it then."""
    played = 0
    while played < timer_turns:
        t = ada.get(f"/api/tables/{table_id}").get_json()["table"]
        if t["status"] == "finished":
            break
        if t["turn"] == 0:
            play_own_turn(ada, t)
        else:
            assert t["turn"] == 1
            timer_plays(rdb, clock, table_id)
            played += 1
    doc: dict[str, Any] = ada.get(f"/api/tables/{table_id}").get_json()["table"]
    return doc


def test_leaving_a_rated_game_resigns_it_and_the_ratings_move(
    app: Flask, rdb: redis.Redis[str], clock: Clock
) -> None:
    table_id, ada, bob = rated_table(app, "gin", [HUMAN, HUMAN])
    t = ada_plays_bob_is_gone(rdb, clock, table_id, ada, tables.TIMEOUT_RESIGN - 1)
    assert t["status"] == "playing" and t["seats"][1]["timed_out"] == 2
    t = ada_plays_bob_is_gone(rdb, clock, table_id, ada, 1)
    assert t["status"] == "finished" and t["forfeits"] == [1]
    assert t["result"]["winner"] == 0
    changes = {c["seat"]: c for c in t["rating_changes"]}
    assert changes[0]["change"] > 0 > changes[1]["change"]
    assert changes[0]["before"] == changes[1]["before"] == NEW.rating
    assert changes[0]["games"] == 1 and changes[0]["provisional"] is True
    assert rdb.zscore(keys.RATED_OPEN, table_id) is None
    # the board (provisional players until ten games) and each player's history
    board = ada.get("/api/ratings/gin?provisional=true").get_json()
    assert [(e["name"], e["rating"]) for e in board["entries"]] == [
        ("Ada", changes[0]["after"]),
        ("Bob", changes[1]["after"]),
    ]
    assert ada.get("/api/ratings/gin").get_json()["entries"] == []
    mine = ada.get("/api/me/stats").get_json()["ratings"]
    assert mine["gin"]["rating"] == changes[0]["after"] and mine["gin"]["games"] == 1
    assert mine["gin"]["history"][0]["table"] == table_id
    assert mine["gin"]["history"][0]["place"] == 1
    assert mine["pikdame"] == {"rating": 1500, "provisional": True, "games": 0, "history": []}
    assert bob.get("/api/me/stats").get_json()["ratings"]["gin"]["history"][0]["place"] == 2
    assert app.test_client().get("/api/me/stats").get_json()["ratings"] is None
    # settled once: asking again changes nothing
    before = rdb.hgetall(keys.rating("gin", "x"))  # nobody
    assert tables.settle_ratings(rdb, table_id, 0) == t["rating_changes"]
    again = ada.get("/api/me/stats").get_json()["ratings"]["gin"]
    assert again["games"] == 1 and rdb.hgetall(keys.rating("gin", "x")) == before


def test_a_deleted_account_leaves_the_ratings_boards(
    app: Flask, rdb: redis.Redis[str], clock: Clock
) -> None:
    """Deleting an account takes it off every ratings board with its rating and history; the
    rating its games gave the others stays (docs/LOBBY.md "Ratings")."""
    table_id, ada, bob = rated_table(app, "gin", [HUMAN, HUMAN])
    t = ada_plays_bob_is_gone(rdb, clock, table_id, ada, tables.TIMEOUT_RESIGN)
    assert t["status"] == "finished"
    after = {c["seat"]: c["after"] for c in t["rating_changes"]}
    board = ada.get("/api/ratings/gin?provisional=true").get_json()
    assert [e["name"] for e in board["entries"]] == ["Ada", "Bob"]
    assert bob.delete("/api/account", json={}).status_code == 200
    board = ada.get("/api/ratings/gin?provisional=true").get_json()
    assert [(e["name"], e["rating"]) for e in board["entries"]] == [("Ada", after[0])]
    assert board["total"] == 1
    kept = [k for k in rdb.scan_iter(keys.rating("gin", "*")) if rdb.hget(k, "name") == "Bob"]
    assert kept == []
    mine = ada.get("/api/me/stats").get_json()["ratings"]["gin"]
    assert mine["rating"] == after[0] and mine["games"] == 1


def test_a_casual_game_moves_no_rating_and_nobody_is_resigned(
    app: Flask, rdb: redis.Redis[str], clock: Clock
) -> None:
    table_id, ada, bob = rated_table(app, "gin", [HUMAN, HUMAN], rated=False)
    t = ada_plays_bob_is_gone(rdb, clock, table_id, ada, tables.TIMEOUT_RESIGN + 2)
    assert t["status"] == "playing" and t["forfeits"] == []
    for client in (ada, bob):
        assert client.post(f"/api/tables/{table_id}/resign", json={}).status_code == 200
    t = ada.get(f"/api/tables/{table_id}").get_json()["table"]
    assert t["status"] == "finished" and t["rating_changes"] is None
    assert ada.get("/api/me/stats").get_json()["ratings"]["gin"]["games"] == 0
    assert rdb.zcard(keys.rating_board("gin", provisional=True)) == 0


def test_a_bot_seat_does_not_rate(app: Flask, rdb: redis.Redis[str], clock: Clock) -> None:
    bot = {"kind": "bot", "level": "beginner"}
    table_id, ada, _ = rated_table(app, "pikdame", [HUMAN, HUMAN, bot])
    t = ada_plays_bob_is_gone(rdb, clock, table_id, ada, tables.TIMEOUT_RESIGN)
    assert t["status"] == "finished" and t["forfeits"] == [1]
    assert sorted(c["seat"] for c in t["rating_changes"]) == [0, 1]
    changes = {c["seat"]: c["change"] for c in t["rating_changes"]}
    assert changes[0] > 0 > changes[1]


def test_one_account_with_bots_rates_nobody(
    app: Flask, rdb: redis.Redis[str], clock: Clock
) -> None:
    ada = signed_up(app, "Ada")
    made = ada.post(
        "/api/tables",
        json={
            "game": "pikdame",
            "name": "Ada",
            "seats": [HUMAN, {"kind": "bot", "level": "beginner"}],
            "rules": {"turn_timer": 30},
            "rated": True,
        },
    ).get_json()
    table_id = made["table"]["id"]
    assert ada.post(f"/api/tables/{table_id}/start", json={}).status_code == 200
    for _ in range(tables.TIMEOUT_RESIGN):
        timer_plays(rdb, clock, table_id)
    t = ada.get(f"/api/tables/{table_id}").get_json()["table"]
    assert t["status"] == "finished" and t["forfeits"] == [0] and t["rating_changes"] == []
    assert ada.get("/api/me/stats").get_json()["ratings"]["pikdame"]["games"] == 0


def test_repeated_pairings_feed_pikdame_suspicious(
    rdb: redis.Redis[str], rankings: redis.Redis[str], clock: Clock
) -> None:
    seats = [Rated(0, "acc-a", "A", "10.0.0.1", 1), Rated(1, "acc-b", "B", "10.0.0.1", 2)]
    for n in range(suspicious.REPEATED_PAIRINGS):
        report = suspicious.report(rdb, rankings, clock.today)
        assert report["rated_pairings"] == []
        ratings.settle(rdb, "gin", f"table{n}", seats, 1000 * n)
    report = suspicious.report(rdb, rankings, clock.today)["rated_pairings"]
    assert {"game": "gin", "accounts": ["acc-a", "acc-b"], "games": 3} in report
    assert {"game": "gin", "address": "10.0.0.1", "games": 3} in report


def test_places_rank_a_forfeit_last_then_the_winner_then_by_total() -> None:
    assert ratings.places([300, 1010, 700], 1, []) == [3, 1, 2]
    assert ratings.places([300, 1010, 700], 1, [1]) == [2, 3, 1]
    assert ratings.places([500, 500], None, []) == [1, 1]
    assert ratings.places([40, 120], 0, []) == [1, 2]  # Gin: the winner first (G2)


skills = st.builds(
    Skill,
    st.floats(min_value=0, max_value=50).map(lambda x: round(x, 6)),
    st.floats(min_value=0.5, max_value=9).map(lambda x: round(x, 6)),
    st.integers(min_value=0, max_value=100),
)


@given(st.lists(skills, min_size=2, max_size=4), st.data())
def test_an_update_is_a_pure_function_rounded_and_moves_the_winner_up(
    before: list[Skill], data: st.DataObject
) -> None:
    places = data.draw(st.permutations(range(1, len(before) + 1)))
    first = ratings.update(before, places)
    assert first == ratings.update(before, places)  # the same input, the same ratings
    for skill in first:
        assert skill.mu == round(skill.mu, ratings.DIGITS)
        assert skill.sigma == round(skill.sigma, ratings.DIGITS)
    for old, new, place in zip(before, first, places, strict=True):
        assert new.games == old.games + 1
        if place == 1:
            assert new.mu >= old.mu
        if place == len(before):
            assert new.mu <= old.mu


def test_the_workers_sweep_settles_a_game_whose_finisher_died(
    app: Flask, rdb: redis.Redis[str], clock: Clock, queue_url: str
) -> None:
    """A rated game committed as finished by a process that died before settling it (its
    table written, nothing after): the workers' lobby sweep settles it, once."""
    table_id, ada, _ = rated_table(app, "gin", [HUMAN, HUMAN])
    table = tables.load(rdb, table_id)
    assert table is not None
    session = table.loaded()
    session.resign(1)
    table.session = session.to_json()
    table.status = "finished"
    table.deadline_ms = None
    rdb.set(keys.table(table_id), table.to_json())  # the commit, and then the process died
    assert ada.get(f"/api/tables/{table_id}").get_json()["table"]["rating_changes"] is None
    assert rdb.zscore(keys.RATED_OPEN, table_id) is not None
    timer_queue = timers.queue_on(redis.Redis.from_url(queue_url), "ratings-sweep")
    now = int(clock().timestamp() * 1000)
    done = sweep.run(rdb, timer_queue, LIFETIMES, now, "worker-1", 3000)
    assert done["settled"] == [table_id]
    t = ada.get(f"/api/tables/{table_id}").get_json()["table"]
    changes = {c["seat"]: c["change"] for c in t["rating_changes"]}
    assert changes[0] > 0 > changes[1]
    rdb.delete(sweep.LOCK)
    assert sweep.run(rdb, timer_queue, LIFETIMES, now, "worker-1", 3000)["settled"] == []
    assert ada.get("/api/me/stats").get_json()["ratings"]["gin"]["games"] == 1
