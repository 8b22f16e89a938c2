"""The season standing per calendar month (issue 42, docs/EVENTS.md "The season"): a week
belongs to its Thursday's month; a player's points are the sum of their best four event scores
of the month, recomputed here from the weeks' own standings answers."""

from __future__ import annotations

import datetime as dt
import itertools
import random

import redis
from flask.testing import FlaskClient

from engine.core import events
from service.events import deals, seasons, store


def test_a_week_belongs_to_the_month_of_its_thursday() -> None:
    assert seasons.weeks_of("2030-07") == ["2030-W27", "2030-W28", "2030-W29", "2030-W30"]
    # five Thursdays, the last week (Dec 28 … Jan 3) in 2026's December
    assert seasons.weeks_of("2026-12") == [f"2026-W{w}" for w in range(49, 54)]
    assert seasons.weeks_of("2027-01")[0] == "2027-W01"
    day, seen = dt.date(2024, 1, 1), []
    while day.year < 2032:  # every week in exactly one month, in order, none left out
        month = f"{day.year:04d}-{day.month:02d}"
        for week in seasons.weeks_of(month):
            assert seasons.month_of(week) == month
            seen.append(week)
        day = (day.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    mondays = [events.week_monday(w) for w in seen]
    assert all(b - a == dt.timedelta(days=7) for a, b in itertools.pairwise(mondays))


def test_the_best_four_count_and_the_tie_breaks() -> None:
    def entry(player: str, percent: float) -> dict[str, object]:
        return {"player": player, "name": player.upper(), "percent": percent}

    finals = [
        [entry("a", 60.0), entry("b", 50.0), entry("c", 40.0)],
        [entry("a", 10.0), entry("b", 50.0)],
        [entry("a", 70.5), entry("c", 80.0)],
        [entry("a", 30.25), entry("c", 80.0)],
        [entry("a", 20.0)],
    ]
    lines = seasons.season(finals)
    # c: 40 + 80 + 80 over three events; a: 70.5 + 60 + 30.25 + 20 (10 is its fifth); b: 100
    assert [(line.player, line.points, line.events) for line in lines] == [
        ("c", 20000, 3),
        ("a", 18075, 5),
        ("b", 10000, 2),
    ]
    assert lines[1].counted == (7050, 6000, 3025, 2000)
    tied = seasons.season([[entry("x", 50.0), entry("y", 50.0)], [entry("y", 0.0)]])
    assert [line.player for line in tied] == ["y", "x"]  # equal points: more events first


def test_the_months_season_through_the_api(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """November 2026 (the clock's Monday is 2026-11-30): four closed events, W45 … W48; five
    players fold random results (some finish fewer events or deals); each week's final standings
    answer is read, and the season must be the sum of each player's best four of them."""
    rng = random.Random(42)
    month = seasons.weeks_of("2026-11")
    assert month == ["2026-W45", "2026-W46", "2026-W47", "2026-W48"]
    players = [f"p{i}" for i in range(5)]
    for week in month:
        for player in players:
            rdb.hset(deals.names_key("pikdame", week), player, player.upper())
            deals_played = 6 if rng.random() < 0.8 else rng.randint(1, 5)
            for n in range(1, deals_played + 1):
                store.fold(rankings, "pikdame", week, player, n, rng.randint(-3, 3), n)
    points: dict[str, list[float]] = {}
    for week in month:
        answer = client.get(f"/api/events/pikdame/{week}/standings").get_json()
        assert answer["final"] is True
        for line in answer["entries"]:
            points.setdefault(line["name"], []).append(line["percent"])
    answer = client.get("/api/events/pikdame/seasons/2026-11")
    assert answer.status_code == 200, answer.get_json()
    doc = answer.get_json()
    assert doc["final"] is True and [w["week"] for w in doc["weeks"]] == month
    got = {e["name"]: (e["points"], e["events"]) for e in doc["entries"]}
    want = {
        name: (round(sum(sorted(p, reverse=True)[:4]), 2), len(p)) for name, p in points.items()
    }
    assert got == want
    assert [e["place"] for e in doc["entries"]] == list(range(1, len(want) + 1))
    order = [(-e["points"], -e["events"]) for e in doc["entries"]]
    assert order == sorted(order)


def test_an_unknown_or_unopened_month_is_404(client: FlaskClient) -> None:
    # Tausende has no event (it declares no EVENT capability); Gin has, since its one-hand deal
    for path in ("pikdame/seasons/2026-13", "pikdame/seasons/2027-01", "tausende/seasons/2026-11"):
        answer = client.get(f"/api/events/{path}")
        assert answer.status_code == 404, path
        assert answer.get_json()["error"]["code"] == "unknown_event"
    assert client.get("/api/events/gin/seasons/2026-11").status_code == 200
