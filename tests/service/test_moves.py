"""Moves: the bots answer, seq guards, illegal moves and bad input change nothing."""

from __future__ import annotations

import json

import redis
from flask.testing import FlaskClient

from engine import Game, daily_game, daily_seed
from service.common import keys
from tests.support.api import caller, start
from tests.support.player import play_to_end
from tests.support.service_app import SECRET, Clock


def stored(rdb: redis.Redis[str], attempt_id: str) -> dict[str, str]:
    return rdb.hgetall(keys.attempt(attempt_id))


def test_draw_then_discard_the_bots_answer(client: FlaskClient, clock: Clock) -> None:
    attempt, _ = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}/moves"
    drawn = client.post(path, json={"move": "draw", "seq": 0}).get_json()
    assert drawn["events"] == [{"seat": 0, "move": "draw"}]
    assert drawn["attempt"]["seq"] == 1 and len(drawn["attempt"]["view"]["hand"]) == 16
    card = drawn["attempt"]["view"]["hand"][0]
    played = client.post(path, json={"move": f"discard {card}", "seq": 1}).get_json()
    events = played["events"]
    assert events[0] == {"seat": 0, "move": f"discard {card}"}
    assert [e["seat"] for e in events[1:]][:1] == [1] and {e["seat"] for e in events[1:]} == {
        1,
        2,
        3,
    }
    assert played["attempt"]["seq"] == 2 + len(events) - 1
    assert played["attempt"]["view"]["turn"] == 0
    # the same moves on the engine directly give the same bot answers (the service adds no rule)
    game = daily_game(daily_seed(SECRET, clock.today), "Ada")
    game.play("draw", 0)
    assert [{"seat": s, "move": m} for s, m in game.play(f"discard {card}", 0)] == events


def test_stale_seq_is_409_and_changes_nothing(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    attempt, _ = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}/moves"
    assert client.post(path, json={"move": "draw", "seq": 0}).status_code == 200
    before = stored(rdb, attempt["id"])
    response = client.post(path, json={"move": "draw", "seq": 0})
    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "stale"
    assert response.get_json()["error"]["seq"] == 1
    assert stored(rdb, attempt["id"]) == before


def test_illegal_and_malformed_moves(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    attempt, _ = start(client, clock.today)
    aid = attempt["id"]
    path = f"/api/attempts/{aid}/moves"
    before = stored(rdb, aid)
    cases = [
        ({"move": "dance", "seq": 0}, 422, "syntax"),
        ({"move": "discard 2S", "seq": 0}, 422, "wrong_phase"),
        ({"move": "discard ZZ", "seq": 0}, 422, "syntax"),
        ({"move": "", "seq": 0}, 422, "syntax"),
        ({"move": "draw"}, 400, "bad_request"),
        ({"move": "draw", "seq": "0"}, 400, "bad_request"),
        ({"move": ["draw"], "seq": 0}, 400, "bad_request"),
        ({"move": "draw", "seq": 7}, 409, "stale"),
        ({"move": "draw " * 200, "seq": 0}, 400, "bad_request"),
    ]
    for body, status, code in cases:
        response = client.post(path, json=body)
        assert (response.status_code, response.get_json()["error"]["code"]) == (status, code), body
    raw = [
        ("{not json", "application/json", 400, "bad_json"),
        ("[1, 2]", "application/json", 400, "bad_json"),
        ('{"move": "draw", "seq": 0}', "text/plain", 415, "unsupported_media_type"),
        ("move=draw&seq=0", "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
        ("\xff\xfe", "application/json", 400, "bad_json"),
        (json.dumps({"move": "draw", "seq": 0, "pad": "x" * 40000}), "application/json", 413, ""),
    ]
    for data, ctype, status, code in raw:
        response = client.post(path, data=data, content_type=ctype)
        assert response.status_code == status, (data[:20], response.get_json())
        if code:
            assert response.get_json()["error"]["code"] == code
    assert stored(rdb, aid) == before


def test_wrong_seat_cannot_move_for_a_bot(client: FlaskClient, clock: Clock) -> None:
    attempt, _ = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}/moves"
    client.post(path, json={"move": "draw", "seq": 0})
    # a "seat" field is not part of the API: the player always plays seat 0
    response = client.post(path, json={"move": "draw", "seq": 1, "seat": 2})
    assert response.status_code == 422 and response.get_json()["error"]["code"] == "wrong_phase"


def test_moves_need_the_owner(client: FlaskClient, clock: Clock, rdb: redis.Redis[str]) -> None:
    attempt, _ = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}/moves"
    before = stored(rdb, attempt["id"])
    stranger = client.application.test_client()
    assert stranger.post(path, json={"move": "draw", "seq": 0}).status_code == 401
    _, other_token = start(stranger, clock.today, "Bob")
    assert stranger.post(path, json={"move": "draw", "seq": 0}).status_code == 403
    headers = {"Authorization": f"Bearer {other_token}"}
    fresh = client.application.test_client()
    assert fresh.post(path, json={"move": "draw", "seq": 0}, headers=headers).status_code == 403
    # 401/403 win over 409 and 422
    assert stranger.post(path, json={"move": "nonsense", "seq": 9}).status_code == 403
    assert stored(rdb, attempt["id"]) == before
    missing = client.post("/api/attempts/nope/moves", json={"move": "draw", "seq": 0})
    assert missing.status_code == 404


def test_moves_after_the_grace_are_409_day_closed(client: FlaskClient, clock: Clock) -> None:
    attempt, _token = start(client, clock.today)
    path = f"/api/attempts/{attempt['id']}/moves"
    clock.advance(hours=16)  # 01:00 next day: the grace lets a started game go on
    assert client.post(path, json={"move": "draw", "seq": 0}).status_code == 200
    clock.advance(hours=1, minutes=1)
    response = client.post(path, json={"move": "resign", "seq": 1})
    assert response.status_code == 409 and response.get_json()["error"]["code"] == "day_closed"


def test_play_to_the_end_then_log_and_no_more_moves(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], qdb: redis.Redis[str]
) -> None:
    attempt, _token = start(client, clock.today)
    aid = attempt["id"]
    final = play_to_end(caller(client), aid)
    assert final["status"] == "finished"
    assert final["verification"]["status"] == "queued"
    outcome = final["view"]["outcome"]
    assert outcome is not None
    log = client.get(f"/api/attempts/{aid}/log").get_json()
    assert log["format"] == "pikdame-log/1" and log["deal"]["seed"] is None
    assert log["result"] == outcome and len(log["moves"]) == final["seq"]
    late = client.post(f"/api/attempts/{aid}/moves", json={"move": "draw", "seq": final["seq"]})
    assert late.status_code == 422 and late.get_json()["error"]["code"] == "round_over"
    # the job is queued under its deterministic id
    assert qdb.exists(f"rq:job:verify-{aid}") == 1
    # once the day has closed, the finished attempt and its record are public, seed included
    clock.advance(days=1)
    stranger = client.application.test_client()
    assert stranger.get(f"/api/attempts/{aid}").status_code == 200
    public = stranger.get(f"/api/attempts/{aid}/log").get_json()
    assert public["deal"]["seed"] == daily_seed(SECRET, attempt["date"]).hex()
    # the public record replays on the engine from its published seed, as anyone can check (F4);
    # the owner's earlier copy may not (a bot's face-down going-out card is masked, R4.3)
    from engine import replay

    assert replay(public).state.outcome is not None
    assert public["moves"][:-1] == log["moves"][:-1]


def test_hint_is_the_optimisers_arrangement(client: FlaskClient, clock: Clock) -> None:
    attempt, _ = start(client, clock.today)
    aid = attempt["id"]
    early = client.get(f"/api/attempts/{aid}/hint")
    assert early.status_code == 409 and early.get_json()["error"]["code"] == "wrong_phase"
    drawn = client.post(f"/api/attempts/{aid}/moves", json={"move": "draw", "seq": 0}).get_json()
    hint = client.get(f"/api/attempts/{aid}/hint").get_json()
    from engine.pikdame.optimiser import HINT, best_arrangement

    game = Game.from_json(
        json.loads(client.application.extensions["pikdame_redis"].hget(keys.attempt(aid), "game"))
    )
    best = best_arrangement(game.state.hand(0), game.state.melds[0], HINT)
    assert best == best_arrangement(game.state.hand(0), game.state.melds[0])  # a small hand
    assert hint == {"moves": [str(m) for m in best.moves], "points": best.points, "exact": True}
    # the hint's moves are legal, in order
    seq = drawn["attempt"]["seq"]
    for move in hint["moves"]:
        response = client.post(f"/api/attempts/{aid}/moves", json={"move": move, "seq": seq})
        assert response.status_code == 200, response.get_json()
        seq = response.get_json()["attempt"]["seq"]
    stranger = client.application.test_client()
    assert stranger.get(f"/api/attempts/{aid}/hint").status_code == 401
