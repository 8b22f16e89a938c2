"""The Gin daily challenge (docs/GIN_DAILY.md) over the API on a real Redis: the day's
document, a whole match played with a simple deterministic player, hidden cards, bad moves, the
verifier (honest and forged records), one ranked attempt, boards, the record after the close,
practice, the replay viewer's data and the archive."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from engine import gin
from service.common import keys
from service.dailies import archive
from service.errors import EngineMismatch
from service.web.redisconn import settings_of
from tests.support.api import caller, tamper
from tests.support.gin_daily import CARD, check_gin_hidden, next_gin_move, play_gin_to_end
from tests.support.service_app import SECRET, Clock
from worker.verify import verify

DAY = "2026-11-30"
PIKDAME_DAY_KEYS = {
    "date",
    "game",
    "engine",
    "commitment",
    "opens_at",
    "ends_at",
    "closes_at",
    "rules",
    "seats",
    "seed",
    "attempts",
    "ranked_start",  # an addition: what the caller's start would be (tests/service/test_deal_seen)
}


def gin_seed(date: str = DAY) -> bytes:
    """F4 for Gin, written out here: HMAC-SHA256(secret, "pikdame/daily-gin/v1/" + date)."""
    return hmac.new(SECRET, f"pikdame/daily-gin/v1/{date}".encode(), hashlib.sha256).digest()


def start_gin(client: FlaskClient, name: str = "Ada", token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(
        f"/api/daily/{DAY}/attempts", json={"name": name, "game": "gin"}, headers=headers
    )


def started(client: FlaskClient, name: str = "Ada") -> tuple[dict[str, Any], str]:
    """A new player's (a browser of its own) ranked Gin attempt and its token."""
    response = start_gin(client.application.test_client(), name)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["attempt"], body["token"]


def stored_match(rdb: redis.Redis[str], aid: str) -> gin.GinMatch:
    return gin.GinMatch.from_json(json.loads(rdb.hget(keys.attempt(aid), "game") or ""))


def finished(client: FlaskClient, name: str = "Ada") -> tuple[str, str, dict[str, Any]]:
    attempt, token = started(client, name)
    final = play_gin_to_end(caller(client, token), attempt["id"])
    return str(attempt["id"]), token, final


def test_the_gin_day_is_selected_by_game_and_pikdame_keeps_its_shape(
    client: FlaskClient,
) -> None:
    pikdame = client.get("/api/daily").get_json()
    assert set(pikdame) == PIKDAME_DAY_KEYS and pikdame["game"] == "pikdame"
    assert client.get("/api/daily?game=pikdame").get_json() == pikdame
    day = client.get("/api/daily?game=gin").get_json()
    assert set(day) == PIKDAME_DAY_KEYS
    assert day["game"] == "gin" and day["engine"] == gin.ENGINE_VERSION
    assert day["commitment"] == hashlib.sha256(gin_seed()).hexdigest()  # F4 with Gin's message
    assert day["commitment"] != pikdame["commitment"]
    assert day["seats"] == [{"kind": "human"}, {"kind": "bot", "level": "strong"}]
    assert day["rules"] == {"target": 100} and day["seed"] is None
    assert client.get(f"/api/daily/{DAY}?game=gin").get_json() == day
    bad = client.get("/api/daily?game=tausende")
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "bad_value"


def test_a_whole_match_through_the_api_is_verified_and_ranked(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    attempt, token = started(client)
    assert attempt["game"] == "gin" and attempt["ranked"] is True
    assert attempt["view"]["seat"] == 0 and len(attempt["view"]["hand"]) == 10
    seen: list[Any] = []
    final = play_gin_to_end(caller(client, token), attempt["id"], seen=seen)
    assert final["status"] == "finished" and final["view"]["match_winner"] in (0, 1)
    assert max(final["view"]["totals"]) >= 100  # G2: to 100
    assert final["verification"] == {
        "status": "queued",
        "score": None,
        "turns": None,
        "hands": None,
        "rank": None,
        "reason": None,
    }
    assert client.get(f"/api/daily/{DAY}?game=gin").get_json()["attempts"] == 1
    assert client.get(f"/api/daily/{DAY}").get_json()["attempts"] == 0  # Pik Dame's count
    assert verify(rdb, attempt["id"], SECRET, rankings)["status"] == "verified"
    match = stored_match(rdb, attempt["id"])
    totals = final["view"]["totals"]
    v = client.get(
        f"/api/attempts/{attempt['id']}", headers={"Authorization": f"Bearer {token}"}
    ).get_json()["attempt"]["verification"]
    assert v["status"] == "verified" and v["rank"] == 1
    assert v["score"] == totals[0] - totals[1] and v["hands"] == v["turns"] == len(match.results)
    board = client.get(f"/api/leaderboard/{DAY}?game=gin").get_json()
    assert board["game"] == "gin" and board["provisional"] is True and board["total"] == 1
    assert board["entries"] == [
        {
            "rank": 1,
            "name": "Ada",
            "score": v["score"],
            "turns": v["hands"],
            "hands": v["hands"],
            "attempt_id": attempt["id"],
        }
    ]
    around = client.get(f"/api/leaderboard/{DAY}/around/{attempt['id']}?game=gin").get_json()
    assert around["rank"] == 1 and around["game"] == "gin"
    assert client.get(f"/api/leaderboard/{DAY}").get_json()["total"] == 0  # Pik Dame's board
    assert "game" not in client.get(f"/api/leaderboard/{DAY}").get_json()
    assert client.get(f"/api/leaderboard/{DAY}/around/{attempt['id']}").status_code == 404
    alltime = client.get("/api/leaderboard/all-time?game=gin").get_json()
    assert alltime["entries"][0]["total"] == v["score"]
    assert client.get("/api/leaderboard/all-time").get_json()["total"] == 0


def test_hidden_cards_are_in_no_answer(client: FlaskClient, rdb: redis.Redis[str]) -> None:
    """Every answer while playing: not the bot's hand (until public), the stock, the bot's
    face-down knock card (G6) or the seed; the owner's record before the close neither."""
    bot_knocked: set[str] = set()
    for name in ("Ada", "Bob", "Cy"):
        attempt, token = started(client, name)
        aid = attempt["id"]
        seed_hex = gin_seed().hex()
        call = caller(client, token)
        doc = attempt
        for _ in range(3000):
            if doc["status"] == "finished":
                break
            move = next_gin_move(doc["view"])
            response = client.post(
                f"/api/attempts/{aid}/moves",
                json={"move": move, "seq": doc["seq"]},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert response.status_code == 200, response.get_json()
            match = stored_match(rdb, aid)
            check_gin_hidden(response.get_data(as_text=True), match, seed_hex)
            for event in response.get_json()["events"]:  # G6: the bot knocks face down
                if event["seat"] == 1 and event["move"].startswith("knock"):
                    assert event["move"].split()[1] == "??", event
                    bot_knocked.add(name)
            read = client.get(f"/api/attempts/{aid}", headers={"Authorization": f"Bearer {token}"})
            check_gin_hidden(read.get_data(as_text=True), match, seed_hex)
            doc = response.get_json()["attempt"]
        assert doc["status"] == "finished"
        status, log = call("GET", f"/api/attempts/{aid}/log", None)
        assert status == 200 and log["format"] == "gin-log/1" and log["seeds"]["seed"] is None
        text = json.dumps(log)
        assert seed_hex not in text
        match = stored_match(rdb, aid)
        bot_knocks = [m for s, m in match.moves if s == 1 and m.startswith("knock ")]
        shown = [m["move"] for m in log["moves"] if m["seat"] == 1]
        assert all(m.startswith("knock ?? ") or m == "knock ??" for m in shown if "knock" in m)
        assert len([m for m in shown if m.startswith("knock")]) == len(bot_knocks)
    assert bot_knocked  # the face-down card was there to hide


def unchanged_after(
    client: FlaskClient, rdb: redis.Redis[str], aid: str, token: str, move: str, code: str
) -> None:
    before = rdb.hgetall(keys.attempt(aid))
    response = client.post(
        f"/api/attempts/{aid}/moves",
        json={"move": move, "seq": int(before["seq"])},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 422, (move, response.get_json())
    assert response.get_json()["error"]["code"] == code
    assert set(response.get_json()) == {"error"}
    assert rdb.hgetall(keys.attempt(aid)) == before  # a rejected move changes nothing


def to_discard_phase(client: FlaskClient, aid: str, token: str) -> dict[str, Any]:
    """Play (pass, draw) until seat 0 must discard; returns the attempt."""
    auth = {"Authorization": f"Bearer {token}"}
    doc = client.get(f"/api/attempts/{aid}", headers=auth).get_json()["attempt"]
    while doc["view"]["phase"] != "discard" or doc["view"]["turn"] != 0:
        move = "pass" if doc["view"]["phase"] == "upcard" else "draw"
        body = client.post(
            f"/api/attempts/{aid}/moves", json={"move": move, "seq": doc["seq"]}, headers=auth
        ).get_json()
        doc = body["attempt"]
    return dict(doc)


def test_bad_moves_are_422_with_their_code_and_change_nothing(
    client: FlaskClient, rdb: redis.Redis[str]
) -> None:
    attempt, token = started(client)
    aid = attempt["id"]
    for text in ("", "knock", "discard", "fold", "discard 1S", "defend / 8S@0", "take AS"):
        unchanged_after(client, rdb, aid, token, text, "syntax")  # G8
    doc = to_discard_phase(client, aid, token)
    hand = doc["view"]["hand"]
    # G6: declared melds leaving over 10 points (none declared: 10 cards are at least 18 points)
    card = max(hand, key=lambda c: gin.POINTS[gin.parse_card(c)])
    unchanged_after(client, rdb, aid, token, f"knock {card}", "knock_not_allowed")
    rest = [c for c in hand if c != card]
    unchanged_after(client, rdb, aid, token, f"knock {card} {' '.join(rest[:3])}", "invalid_meld")
    hint = client.get(f"/api/attempts/{aid}/hint", headers={"Authorization": f"Bearer {token}"})
    assert hint.status_code == 409 and hint.get_json()["error"]["code"] == "wrong_phase"
    absent = next(n for n in gin.NAMES if n not in hand)
    unchanged_after(client, rdb, aid, token, f"discard {absent}", "card_not_in_hand")
    unchanged_after(client, rdb, aid, token, "draw", "wrong_phase")


def test_knocking_with_the_card_just_taken_is_refused(
    client: FlaskClient, rdb: redis.Redis[str]
) -> None:
    """G5: the card taken from the pile stays in hand this turn (take_not_allowed)."""
    for name in ("Ada", "Bob", "Cy", "Dee", "Eve", "Fay"):
        attempt, token = started(client, name)
        aid = attempt["id"]
        auth = {"Authorization": f"Bearer {token}"}
        doc = attempt
        while doc["view"]["turn"] != 0 or not doc["view"]["can_take"]:
            move = next_gin_move(doc["view"])
            body = client.post(
                f"/api/attempts/{aid}/moves", json={"move": move, "seq": doc["seq"]}, headers=auth
            ).get_json()
            doc = body["attempt"]
            if doc["status"] == "finished":
                break
        if doc["status"] == "finished":
            continue
        body = client.post(
            f"/api/attempts/{aid}/moves", json={"move": "take", "seq": doc["seq"]}, headers=auth
        ).get_json()
        taken = body["attempt"]["view"]["taken"]
        assert taken is not None
        unchanged_after(client, rdb, aid, token, f"knock {taken}", "take_not_allowed")
        unchanged_after(client, rdb, aid, token, f"discard {taken}", "take_not_allowed")
        return
    pytest.fail("no deal offered a take")


def test_one_ranked_attempt_per_player_and_game(client: FlaskClient) -> None:
    attempt, token = started(client)
    again = start_gin(client, token=token)
    assert again.status_code == 409
    assert again.get_json()["error"] == {
        "code": "attempt_exists",
        "message": again.get_json()["error"]["message"],
        "attempt_id": attempt["id"],
    }
    # the same player's Pik Dame attempt is another game's slot
    pikdame = client.post(
        f"/api/daily/{DAY}/attempts",
        json={"name": "Ada"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert pikdame.status_code == 201 and "game" not in pikdame.get_json()["attempt"]
    # a 409 beats a bad name (API.md's order), found in the right game's slot
    bad = start_gin(client, name="", token=token)
    assert bad.status_code == 409 and bad.get_json()["error"]["code"] == "attempt_exists"


def test_lookalike_names_are_refused_within_the_gin_field(client: FlaskClient) -> None:
    started(client, "Ada")
    refused = start_gin(client.application.test_client(), "ΑDA")  # a Greek Alpha: looks alike
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "bad_value"


def test_forged_records_are_rejected_with_the_reason(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    def rejected(aid: str) -> str:
        assert verify(rdb, aid, SECRET, rankings)["status"] == "rejected"
        assert rankings.zscore(keys.day_rank(DAY, "gin"), aid) is None
        return str(rdb.hget(keys.attempt(aid), "reason"))

    def bot_move(record: dict[str, Any]) -> None:
        i = next(i for i, m in enumerate(record["moves"]) if m["seat"] == 1)
        record["moves"][i]["move"] = "take" if record["moves"][i]["move"] == "pass" else "pass"

    def seats(record: dict[str, Any]) -> None:
        record["seats"][1]["level"] = "plain"  # an easier opponent

    def commitment(record: dict[str, Any]) -> None:
        other = gin.daily_seed(SECRET, "2026-11-29")
        record["seeds"] = {"commitment": hashlib.sha256(other).hexdigest(), "seed": other.hex()}

    def totals(record: dict[str, Any]) -> None:
        record["totals"][0] += 50
        record["result"]["totals"][0] += 50

    cases = [
        (bot_move, ("bot_mismatch at move", "not_your_turn at move", "wrong_phase at move")),
        (seats, ("setup_mismatch in seats",)),
        (commitment, ("setup_mismatch in seeds",)),
        (totals, ("score_mismatch",)),
    ]
    for i, (change, reasons) in enumerate(cases):
        aid, _, _ = finished(client, f"P{i}")
        tamper(rdb, aid, change)
        reason = rejected(aid)
        assert reason.startswith(reasons), reason
    # a changed live score with an honest record
    aid, _, _ = finished(client, "Q")
    rdb.hincrby(keys.attempt(aid), "score", 1)
    assert rejected(aid) == "score_mismatch"
    # an engine version this worker does not keep: no verdict, the job fails loudly
    aid, _, _ = finished(client, "R")

    def engine(record: dict[str, Any]) -> None:
        record["engine"] = "pikdame-gin/rules-1/bots-0"

    tamper(rdb, aid, engine)
    with pytest.raises(EngineMismatch):
        verify(rdb, aid, SECRET, rankings)
    assert rdb.hget(keys.attempt(aid), "verification") == "queued"


def test_after_the_close_record_replay_and_practice(
    app: Flask,
    client: FlaskClient,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    tmp_path: Path,
) -> None:
    aid, token, _ = finished(client)
    verify(rdb, aid, SECRET, rankings)
    assert client.get(f"/replay/{aid}/positions").status_code == 409  # the seed is secret
    # its owner sees the match again as seat 0 saw it, without the seed
    own = client.get(f"/replay/{aid}/positions", headers={"Authorization": f"Bearer {token}"})
    assert own.get_json()["seen_by"] == 0 and own.get_json()["record"]["seeds"]["seed"] is None
    clock.advance(hours=17, minutes=1)  # 02:01 the next day: closed
    day = client.get(f"/api/daily/{DAY}?game=gin").get_json()
    assert day["seed"] == gin_seed().hex()
    board = client.get(f"/api/leaderboard/{DAY}?game=gin").get_json()
    assert board["provisional"] is False
    anyone = FlaskClient(app)
    log = anyone.get(f"/api/attempts/{aid}/log")
    assert log.status_code == 200
    record = log.get_json()
    assert record["seeds"]["seed"] == gin_seed().hex()
    assert gin.replay(record).totals == record["totals"]  # anyone can verify it
    assert all("??" not in m["move"] for m in record["moves"])
    replay = anyone.get(f"/replay/{aid}/positions").get_json()
    assert replay["game"] == "gin" and replay["record"] == record
    assert len(replay["positions"]) == len(record["moves"])
    assert len(replay["deals"]) == len(record["hands"])
    assert replay["deals"][0]["hand"] == 1 and replay["positions"][-1]["outcome"] is not None
    days = client.get("/api/days?game=gin").get_json()["days"]
    assert days[0]["date"] == DAY and days[0]["game"] == "gin" and days[0]["attempts"] == 1
    practice = anyone.post(f"/api/daily/{DAY}/practice", json={"name": "Bo", "game": "gin"})
    assert practice.status_code == 201
    p = practice.get_json()["attempt"]
    assert p["game"] == "gin" and p["ranked"] is False and p["verification"] is None
    # the day's deal again: the same first hand as the ranked attempt's first hand
    first = gin.daily_match(gin_seed(), "Bo").view(0).to_json()
    assert p["view"]["hand"] == first["hand"] and p["view"]["discard"] == first["discard"]


def test_a_closed_gin_day_is_archived_and_replays_from_the_archive(
    app: Flask,
    client: FlaskClient,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    tmp_path: Path,
) -> None:
    aid, _, _ = finished(client)
    verify(rdb, aid, SECRET, rankings)
    clock.advance(hours=17, minutes=1)
    settings = settings_of(app)
    store = archive.DirectoryArchive(tmp_path)
    assert archive.archive_closed_days(rdb, store, settings) == {f"gin-{DAY}": 1}
    assert (tmp_path / f"gin-{DAY}.jsonl.gz").exists() and not (
        tmp_path / f"{DAY}.jsonl.gz"
    ).exists()
    (line,) = archive.read_lines(store.read(f"gin-{DAY}") or b"")
    assert line["game"] == "gin" and line["record"]["seeds"]["seed"] == gin_seed().hex()
    rdb.delete(keys.attempt(aid), keys.replay(aid))  # the attempt expired
    replay = archive.archived_entry(rdb, store, aid)
    assert replay is not None and replay["attempt_id"] == aid


def test_the_gin_daily_is_in_the_openapi_document(client: FlaskClient) -> None:
    doc = client.get("/api/openapi.json").get_json()
    for path in (
        "/api/daily",
        "/api/daily/{date}",
        "/api/days",
        "/api/leaderboard/{date}",
        "/api/leaderboard/{date}/around/{attempt_id}",
        "/api/leaderboard/all-time",
    ):
        names = [p["name"] for p in doc["paths"][path]["get"]["parameters"]]
        assert "game" in names, path
    start = doc["paths"]["/api/daily/{date}/attempts"]["post"]["requestBody"]
    body = start["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert doc["components"]["schemas"][body]["properties"]["game"]["enum"] == ["pikdame", "gin"]
    view = doc["components"]["schemas"]["Attempt"]["properties"]["view"]["anyOf"]
    assert {"$ref": "#/components/schemas/GinView"} in view


def test_a_verified_gin_day_advances_the_gin_streak_only(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    attempt = start_gin(client).get_json()["attempt"]
    play_gin_to_end(caller(client), attempt["id"])
    verify(rdb, attempt["id"], SECRET, rankings)
    me = client.get("/api/me/stats").get_json()
    assert me["streaks"]["gin"] == {"current": 1, "best": 1, "last": DAY}
    assert me["streaks"]["pikdame"]["current"] == 0
    place = client.get(f"/api/attempts/{attempt['id']}/place").get_json()
    assert place["rank"] == 1 and place["total"] == 1 and place["par"] is None
    share = client.get(f"/api/attempts/{attempt['id']}/share").get_json()["text"]
    assert share.startswith(f"Gin Rommé · {DAY}") and "Serie 1" in share
    assert not CARD.search(share)  # spoiler-free


def test_an_unknown_day_is_404_before_a_bad_game(client: FlaskClient) -> None:
    """API.md: 404 before 422."""
    response = client.get("/api/daily/2099-01-01?game=chess")
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "unknown_day"
    board = client.get("/api/leaderboard/2099-01-01?game=chess")
    assert board.status_code == 404


def test_equal_scores_rank_fewer_hands_first_then_the_earlier_finish(
    rdb: redis.Redis[str], rankings: redis.Redis[str], client: FlaskClient
) -> None:
    """docs/GIN_DAILY.md: score, then fewer hands, then the earlier finish."""
    from service.dailies.store import Attempt
    from worker.verify import rank_once

    def attempt(aid: str, finished_ms: int) -> Attempt:
        opens = 1_795_996_800_000  # 2026-11-30T00:00Z
        return Attempt(
            id=aid, date=DAY, name=aid, player=f"p{aid}", token_hash="", ranked=True,
            status="finished", seq=0, game_json="{}", created_ms=opens,
            finished_ms=opens + finished_ms, verification="queued", score=None, turns=None,
            reason=None, kind="gin",
        )  # fmt: skip

    rank_once(rankings, attempt("late4", 9_000), 10, 4, "o1")
    rank_once(rankings, attempt("early4", 5_000), 10, 4, "o2")
    rank_once(rankings, attempt("five", 1_000), 10, 5, "o3")
    rank_once(rankings, attempt("best", 20_000), 30, 9, "o4")
    board = client.get(f"/api/leaderboard/{DAY}?game=gin").get_json()
    assert [e["attempt_id"] for e in board["entries"]] == ["best", "early4", "late4", "five"]
    assert [e["hands"] for e in board["entries"]] == [9, 4, 4, 5]
