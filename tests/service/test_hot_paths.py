"""The performance work's behaviour (bench/results/service.md): what got cheaper still answers
the same. Rate-limit headers only on a 429; leaderboard names kept beside the ranks, with the
attempt's own name for entries ranked before; a move reads its attempt once."""

from __future__ import annotations

import pytest
import redis
from flask.testing import FlaskClient

from service.common import keys
from service.dailies import ranking
from service.web import limits
from tests.support.api import caller, start
from tests.support.player import play_to_end
from tests.support.servers import command_calls
from tests.support.service_app import SECRET, Clock, make_app
from worker.verify import verify

# A moment in the middle of a one-second counting window: the limits' tests count inside one
# window whatever the real time (three reads at the real clock straddle a window's edge now and
# then, and the third is rightly counted in the next window: CI saw [200, 200, 200]).
MID_WINDOW_S = 1_800_000_000.5


@pytest.fixture
def limit_clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The rate limits' clock, frozen at MID_WINDOW_S; set ``[0]`` to move it."""
    moment = [MID_WINDOW_S]
    monkeypatch.setattr(limits, "now_s", lambda: moment[0])
    return moment


def test_reads_are_counted_in_the_window_of_the_limits_clock(
    redis_url: str, clock: Clock, rdb: redis.Redis[str], limit_clock: list[float]
) -> None:
    app = make_app(redis_url, clock, PIKDAME_LIMITS_ENABLED=True, PIKDAME_LIMIT_DEFAULT="2/second")
    client = app.test_client()
    limit_clock[0] = 1_800_000_000.999  # two reads at a window's last millisecond
    answers = [client.get("/api/daily").status_code for _ in range(2)]
    limit_clock[0] = 1_800_000_001.0  # the third in the next window: counted afresh
    answers.append(client.get("/api/daily").status_code)
    assert answers == [200, 200, 200]
    answers.append(client.get("/api/daily").status_code)
    answers.append(client.get("/api/daily").status_code)
    assert answers[3:] == [200, 429]


def test_rate_limit_headers_only_on_a_429(
    redis_url: str, clock: Clock, rdb: redis.Redis[str], limit_clock: list[float]
) -> None:
    app = make_app(redis_url, clock, PIKDAME_LIMITS_ENABLED=True, PIKDAME_LIMIT_DEFAULT="2/second")
    client = app.test_client()
    answers = [client.get("/api/daily") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert not any(h.startswith("X-RateLimit") for a in answers[:2] for h, _ in a.headers)
    limited = answers[2]
    assert limited.headers["X-RateLimit-Limit"] == "2"
    assert limited.headers["X-RateLimit-Remaining"] == "0"
    assert 1 <= int(limited.headers["Retry-After"]) <= 2
    assert limited.get_json()["error"]["code"] == "rate_limited"


def test_verified_names_sit_beside_the_rank(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    attempt, _ = start(client, clock.today, "Ada")
    play_to_end(caller(client), attempt["id"], use_hints=False)
    assert verify(rdb, attempt["id"], SECRET, rankings)["status"] == "verified"
    assert rankings.hget(keys.day_names(clock.today), attempt["id"]) == "Ada"
    board = client.get(f"/api/leaderboard/{clock.today}").get_json()
    assert [(e["name"], e["attempt_id"], e["rank"]) for e in board["entries"]] == [
        ("Ada", attempt["id"], 1)
    ]


def test_entries_ranked_without_a_kept_name_read_the_attempts(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    day = clock.today
    for i in range(3):  # a0 ranked before names were kept, a1 with its name, a2 gone
        rankings.zadd(keys.day_rank(day), {f"a{i}": ranking.rank_key(100 - i, 20, i)})
    # ranked when one server held everything: its attempt beside the board
    rankings.hset(keys.attempt("a0"), "name", "Old")
    rankings.hset(keys.day_names(day), "a1", "New")
    board = client.get(f"/api/leaderboard/{day}?limit=2").get_json()
    assert board["total"] == 3
    assert [(e["rank"], e["name"], e["score"], e["turns"]) for e in board["entries"]] == [
        (1, "Old", 100, 20),
        (2, "New", 99, 20),
    ]
    around = client.get(f"/api/leaderboard/{day}/around/a2?radius=1").get_json()
    assert around["rank"] == 3 and around["total"] == 3
    assert [(e["attempt_id"], e["name"]) for e in around["entries"]] == [("a1", "New"), ("a2", "")]
    empty = client.get("/api/leaderboard/2026-11-01").get_json()
    assert empty == {"date": "2026-11-01", "total": 0, "entries": [], "provisional": False}


def test_a_move_reads_its_attempt_once(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    attempt, token = start(client, clock.today)
    rdb.config_resetstat()
    answer = client.post(
        f"/api/attempts/{attempt['id']}/moves",
        json={"move": "draw", "seq": attempt["seq"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200
    assert command_calls(rdb, "hgetall") == 1
    assert answer.get_json()["attempt"]["seq"] > attempt["seq"]


def test_reads_count_their_limit_in_their_own_round_trip(
    redis_url: str,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    limit_clock: list[float],
) -> None:
    app = make_app(redis_url, clock, PIKDAME_LIMITS_ENABLED=True, PIKDAME_LIMIT_DEFAULT="3/second")
    client = app.test_client()
    rankings.zadd(keys.day_rank(clock.today), {"a0": ranking.rank_key(10, 20, 0)})
    rankings.hset(keys.day_names(clock.today), "a0", "Ada")
    board = f"/api/leaderboard/{clock.today}"
    client.get(board)
    rankings.config_resetstat()
    assert client.get(board).status_code == 200
    calls = {
        k.removeprefix("cmdstat_"): v["calls"] for k, v in rankings.info("commandstats").items()
    }
    # the count (INCRBY, EXPIRE) and the page script in one pipeline, nothing else sent by the
    # web: the script's own ZCARD, ZREVRANGE and HMGET run inside Redis
    sent = {k for k in calls if k not in {"zcard", "zrevrange", "hmget", "config|resetstat"}}
    assert sent == {"incrby", "expire", "evalsha"}
    assert calls["evalsha"] == 1 and calls["incrby"] == 1
    assert client.get(board).status_code == 200
    assert client.get(board).status_code == 429  # the fourth in this second (per endpoint)
    assert client.get("/api/daily").status_code == 200


def test_a_leaderboard_read_survives_a_redis_that_lost_its_scripts(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    rankings.zadd(keys.day_rank(clock.today), {"a0": ranking.rank_key(10, 20, 0)})
    rankings.hset(keys.day_names(clock.today), "a0", "Ada")
    assert client.get(f"/api/leaderboard/{clock.today}").status_code == 200
    rankings.script_flush()
    board = client.get(f"/api/leaderboard/{clock.today}").get_json()
    assert [e["name"] for e in board["entries"]] == ["Ada"]


def test_a_limited_move_says_which_limit_and_when_it_resets(
    redis_url: str, clock: Clock, rdb: redis.Redis[str]
) -> None:
    """Moves count their two limits themselves (one round trip): a 429 carries the same
    envelope and RFC 6585 headers as Flask-Limiter's, and changes nothing."""
    app = make_app(redis_url, clock, PIKDAME_LIMITS_ENABLED=True, PIKDAME_LIMIT_MOVES="1/minute")
    client = app.test_client()
    attempt, _ = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}/moves"
    assert client.post(path, json={"move": "draw", "seq": 0}).status_code == 200
    seq = rdb.hget(keys.attempt(attempt["id"]), "seq")
    limited = client.post(path, json={"move": "discard " + "x", "seq": int(seq or 0)})
    assert limited.status_code == 429
    assert limited.get_json()["error"] == {
        "code": "rate_limited",
        "message": "rate limit exceeded (1 per 1 minute)",
    }
    assert limited.headers["X-RateLimit-Limit"] == "1"
    assert limited.headers["X-RateLimit-Remaining"] == "0"
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    assert rdb.hget(keys.attempt(attempt["id"]), "seq") == seq
