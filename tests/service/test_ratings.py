"""Ratings per game (docs/LOBBY.md "Ratings", "Leaving a rated game") on a real Redis: a rated game
moves its accounts' ratings once (a casual one does not), a bot's seat does not rate, the turn
timer playing three turns in a row for an absent player resigns that player's rated game (a
loss), the board and the history in ``/api/me/stats``, repeated pairings in ``pikdame
suspicious``, and the update's determinism. Issue 38 (farming): an agreed resignation before
ratings.MIN_MOVES is not rated, a newcomer's loss and repeated results count less, a deleted
account never returns, and ``pikdame suspicious`` lists fresh feeders and quick resignations."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from service.accounts import suspicious
from service.common import keys
from service.lobby import sweep
from service.tables import ratings, timers
from service.tables import store as tables
from service.tables.ratings import NEW, Rated, Skill
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
    session.resign(1)  # the timer rule resigned Bob (a forfeit: rated however few moves)
    table.forfeits = [1]
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


# --- issue 38: farming (docs/LOBBY.md "What a rated game counts") ------------------------------


def play_moves(table_id: str, clients: list[FlaskClient], each: int) -> None:
    """Every seat plays ``each`` moves of its own (its turns, in turn)."""
    made = [0] * len(clients)
    while min(made) < each:
        t = clients[0].get(f"/api/tables/{table_id}").get_json()["table"]
        assert t["status"] == "playing", t["status"]
        turn = t["turn"]
        mine = clients[turn].get(f"/api/tables/{table_id}").get_json()["table"]
        play_own_turn(clients[turn], mine)
        made[turn] += 1


def both_resign(table_id: str, clients: list[FlaskClient]) -> dict[str, Any]:
    for client in clients:
        assert client.post(f"/api/tables/{table_id}/resign", json={}).status_code == 200
    doc: dict[str, Any] = clients[0].get(f"/api/tables/{table_id}").get_json()["table"]
    assert doc["status"] == "finished"
    return doc


def test_an_agreed_resignation_before_min_moves_is_not_rated(
    app: Flask, rdb: redis.Redis[str], clock: Clock
) -> None:
    """Issue 38: two accounts agreeing to resign a rated game before each made
    ratings.MIN_MOVES moves of their own played no real game: nobody's rating moves, no game
    counts (before: a full win, +105)."""
    table_id, ada, bob = rated_table(app, "gin", [HUMAN, HUMAN])
    play_moves(table_id, [ada, bob], ratings.MIN_MOVES - 1)
    t = both_resign(table_id, [ada, bob])
    assert t["rating_changes"] == []
    for client in (ada, bob):
        assert client.get("/api/me/stats").get_json()["ratings"]["gin"]["games"] == 0
    assert rdb.zcard(keys.rating_board("gin", provisional=True)) == 0
    # MIN_MOVES moves each: a real game, rated
    table_id, cy, dan = rated_table(app, "gin", [HUMAN, HUMAN])
    play_moves(table_id, [cy, dan], ratings.MIN_MOVES)
    t = both_resign(table_id, [cy, dan])
    assert len(t["rating_changes"]) == 2
    assert cy.get("/api/me/stats").get_json()["ratings"]["gin"]["games"] == 1


def established(rdb: redis.Redis[str], game: str, account: str, sigma: float = 3.0) -> None:
    rdb.hset(
        keys.rating(game, account),
        mapping={"mu": "25.0", "sigma": repr(sigma), "games": 30, "name": account},
    )


def mu_of(rdb: redis.Redis[str], game: str, account: str) -> float:
    return ratings.read(rdb, game, account).mu


def test_a_provisional_or_new_accounts_loss_moves_its_opponent_little(
    rdb: redis.Redis[str],
) -> None:
    """Issue 38: beating an account with g rated games counts max(0.1, g/10) of the full
    update for the winner (ratings.FRESH_WEIGHT, PROVISIONAL_GAMES); the loser's own loss counts
    fully. One account beating twelve brand-new accounts stays near 1500 (before: 2174)."""
    established(rdb, "gin", "acc-est")
    full = ratings.update([ratings.read(rdb, "gin", "acc-est"), NEW], [1, 2])[0]
    ratings.settle(
        rdb, "gin", "t0", [Rated(0, "acc-est", "E", None, 1), Rated(1, "n0", "N", None, 2)], 0
    )
    gained = mu_of(rdb, "gin", "acc-est") - 25.0
    assert gained == pytest.approx(ratings.FRESH_WEIGHT * (full.mu - 25.0), abs=2e-6)
    farmer = "acc-farmer"
    for n in range(12):
        seats = [Rated(0, farmer, "Farmer", None, 1), Rated(1, f"fresh{n}", f"F{n}", None, 2)]
        ratings.settle(rdb, "pikdame", f"farm{n}", seats, 1000 * n)
    assert ratings.read(rdb, "pikdame", farmer).rating < 1650


def test_repeated_results_between_two_accounts_within_the_period_count_less(
    rdb: redis.Redis[str],
) -> None:
    """Issue 38: the k-th result between the same two accounts within ratings.REPEAT_PERIOD_MS
    (seven days) before it counts ratings.REPEAT_WEIGHT ** k (1, 1/2, 1/4, …); after the period,
    fully again."""
    established(rdb, "gin", "a")
    established(rdb, "gin", "b")
    seats = [Rated(0, "a", "A", None, 1), Rated(1, "b", "B", None, 2)]
    hour = 3600 * 1000
    for k in range(3):
        before = [ratings.read(rdb, "gin", "a"), ratings.read(rdb, "gin", "b")]
        full = ratings.update(before, [1, 2])
        ratings.settle(rdb, "gin", f"t{k}", seats, k * hour)
        weight = ratings.REPEAT_WEIGHT**k
        assert mu_of(rdb, "gin", "a") - before[0].mu == pytest.approx(
            weight * (full[0].mu - before[0].mu), abs=2e-6
        ), k
        assert mu_of(rdb, "gin", "b") - before[1].mu == pytest.approx(
            weight * (full[1].mu - before[1].mu), abs=2e-6
        ), k
    before = [ratings.read(rdb, "gin", "a"), ratings.read(rdb, "gin", "b")]
    full = ratings.update(before, [1, 2])
    ratings.settle(rdb, "gin", "later", seats, 2 * hour + ratings.REPEAT_PERIOD_MS + 1)
    assert mu_of(rdb, "gin", "a") == full[0].mu  # the period passed: it counts fully


def test_a_deleted_accounts_rating_never_returns(
    app: Flask, rdb: redis.Redis[str], clock: Clock
) -> None:
    """Issue 38: an account deleted during a rated game is not brought back on the boards when
    the game settles after the deletion (its seat no longer rates; alone, Ada's nothing)."""
    table_id, ada, bob = rated_table(app, "gin", [HUMAN, HUMAN])
    assert bob.delete("/api/account", json={}).status_code == 200
    t = ada_plays_bob_is_gone(rdb, clock, table_id, ada, tables.TIMEOUT_RESIGN)
    assert t["status"] == "finished" and t["forfeits"] == [1]
    assert t["rating_changes"] == []
    for provisional in (False, True):
        board = ada.get(f"/api/ratings/gin?provisional={str(provisional).lower()}").get_json()
        assert [e["name"] for e in board["entries"]] == []
    assert [k for k in rdb.scan_iter(keys.rating("gin", "*")) if rdb.hget(k, "name") == "Bob"] == []
    # directly: forgotten, then a settlement naming the account writes nothing of it
    ratings.forget(rdb, ["pikdame"], "gone")
    seats = [
        Rated(0, "gone", "G", None, 1),
        Rated(1, "x", "X", None, 2),
        Rated(2, "y", "Y", None, 3),
    ]
    changes = ratings.settle(rdb, "pikdame", "after", seats, 0)
    assert sorted(c["seat"] for c in changes) == [1, 2]
    assert rdb.exists(keys.rating("pikdame", "gone"), keys.rating_history("pikdame", "gone")) == 0
    assert rdb.zscore(keys.rating_board("pikdame", provisional=True), "gone") is None


def test_pikdame_suspicious_reports_farming_patterns(
    rdb: redis.Redis[str], rankings: redis.Redis[str], clock: Clock
) -> None:
    """Issue 38: besides pairs meeting again and again, ``pikdame suspicious`` lists an account
    that beat suspicious.FRESH_FEEDERS accounts or more in their first rated games (fresh
    accounts feeding one), and pairs that ended suspicious.QUICK_ENDS games or more by an
    agreed resignation before ratings.MIN_MOVES moves."""
    for n in range(suspicious.FRESH_FEEDERS):
        report = suspicious.report(rdb, rankings, clock.today)
        assert report["rated_fresh_feeders"] == []
        seats = [Rated(0, "farmer", "F", None, 1), Rated(1, f"fresh{n}", f"N{n}", None, 2)]
        ratings.settle(rdb, "gin", f"farm{n}", seats, 1000 * n)
    report = suspicious.report(rdb, rankings, clock.today)
    assert report["rated_fresh_feeders"] == [
        {
            "game": "gin",
            "account": "farmer",
            "fresh": [f"fresh{n}" for n in range(suspicious.FRESH_FEEDERS)],
        }
    ]
    quick = [Rated(0, "p", "P", None, 1), Rated(1, "q", "Q", None, 2)]
    for n in range(suspicious.QUICK_ENDS):
        assert suspicious.report(rdb, rankings, clock.today)["rated_quick_resignations"] == []
        assert ratings.settle(rdb, "gin", f"quick{n}", quick, 5000 + n, counts=False) == []
    found = suspicious.report(rdb, rankings, clock.today)["rated_quick_resignations"]
    assert found == [{"game": "gin", "accounts": ["p", "q"], "games": suspicious.QUICK_ENDS}]
    assert ratings.read(rdb, "gin", "p").games == 0


@given(st.lists(skills, min_size=2, max_size=4), st.data())
def test_a_weighted_update_lies_between_no_change_and_the_full_one(
    before: list[Skill], data: st.DataObject
) -> None:
    """Issue 38's weights (FRESH_WEIGHT, REPEAT_WEIGHT) only shorten an update: each weight is
    in (0, 1], the weighted mu lies between the old and the full one, rounded, deterministic."""
    n = len(before)
    places = data.draw(st.permutations(range(1, n + 1)))
    met = [[0 if i == j else data.draw(st.integers(0, 5)) for j in range(n)] for i in range(n)]
    met = [[max(met[i][j], met[j][i]) for j in range(n)] for i in range(n)]  # a pair's count
    full = ratings.update(before, places)
    gained = [f.mu > b.mu for b, f in zip(before, full, strict=True)]
    by = ratings.weights(before, places, gained, met)
    after = ratings.weighted(before, full, by)
    assert after == ratings.weighted(before, full, ratings.weights(before, places, gained, met))
    for b, f, a, w in zip(before, full, after, by, strict=True):
        assert 0 < w <= 1
        assert min(b.mu, f.mu) - 1e-6 <= a.mu <= max(b.mu, f.mu) + 1e-6
        assert a.mu == round(a.mu, ratings.DIGITS) and a.sigma == round(a.sigma, ratings.DIGITS)
        assert a.games == b.games + 1
