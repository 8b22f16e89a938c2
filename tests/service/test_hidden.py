"""Hidden information: over many views of many games, no card of another hand, no stock card and
no seed appears in any response before the day closes (RULES.md R10, R11; API.md)."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from engine import Game, daily_seed
from service.common import keys
from tests.support.player import next_move
from tests.support.service_app import SECRET, Clock

CARD = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][SHDC]|X)(?![0-9A-Za-z])")
ATTEMPT_KEYS = {"id", "date", "name", "ranked", "status", "seq", "view", "verification"}
VIEW_KEYS = {
    "seat",
    "turn",
    "phase",
    "hand",
    "melds",
    "hand_sizes",
    "stock_size",
    "discard",
    "removed",
    "can_draw",
    "can_take",
    "outcome",
}


def secret_only_cards(game: Game) -> set[str]:
    """Card names of which every copy is hidden from seat 0: in another hand or the stock, and
    never named in a public move (a face-up discard that a bot later picked up is known)."""
    state = game.state
    hidden: Counter[str] = Counter(str(c) for s in (1, 2, 3) for c in state.hand(s))
    hidden.update(str(c) for c in state.stock)
    known = {str(c) for c in state.hand(0)}
    known.update(str(c) for ms in state.melds for m in ms for c in m.cards)
    known.update(str(c) for c in state.discard)
    known.update(str(c) for c in state.removed)
    for _, move in state.history:
        known.update(CARD.findall(move))
    return {name for name in hidden if name not in known}


def check(text: str, game: Game, seed_hex: str) -> None:
    assert seed_hex not in text
    leaked = set(CARD.findall(text)) & secret_only_cards(game)
    assert not leaked, f"hidden cards {leaked} in {text[:200]}"
    body = json.loads(text)
    assert '"stock":' not in text and '"hands":' not in text and '"position"' not in text
    attempt = body.get("attempt") if isinstance(body, dict) else None
    if attempt:
        assert set(attempt) == ATTEMPT_KEYS
        assert set(attempt["view"]) == VIEW_KEYS
        view = attempt["view"]
        assert view["seat"] == 0
        assert Counter(view["hand"]) == Counter(str(c) for c in game.state.hand(0))


def test_no_hidden_card_or_seed_in_any_response(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    responses = 0
    secret_cards_seen = 0
    for day in range(6):  # six different deals
        today = clock.today
        seed_hex = daily_seed(SECRET, today).hex()
        created = client.post(f"/api/daily/{today}/attempts", json={"name": f"P{day}"})
        aid = created.get_json()["attempt"]["id"]

        def game(aid: str = aid) -> Game:
            return Game.from_json(json.loads(rdb.hget(keys.attempt(aid), "game") or ""))

        check(created.get_data(as_text=True), game(), seed_hex)
        attempt: dict[str, Any] = created.get_json()["attempt"]
        while attempt["status"] == "playing":
            hint = None
            if attempt["view"]["phase"] == "play":
                r = client.get(f"/api/attempts/{aid}/hint")
                check(r.get_data(as_text=True), game(), seed_hex)
                hint = r.get_json()
            move = next_move(attempt["view"], hint if day % 2 else None)
            r = client.post(
                f"/api/attempts/{aid}/moves", json={"move": move, "seq": attempt["seq"]}
            )
            assert r.status_code == 200, r.get_json()
            current = game()
            secret_cards_seen += len(secret_only_cards(current))
            check(r.get_data(as_text=True), current, seed_hex)
            for path in (f"/api/attempts/{aid}", "/api/daily", f"/api/daily/{today}"):
                check(client.get(path).get_data(as_text=True), current, seed_hex)
            attempt = r.get_json()["attempt"]
            responses += 5
        log = client.get(f"/api/attempts/{aid}/log").get_data(as_text=True)
        assert seed_hex not in log and json.loads(log)["deal"]["seed"] is None
        for path in (f"/api/leaderboard/{today}", "/api/days", "/api/leaderboard/all-time"):
            assert seed_hex not in client.get(path).get_data(as_text=True)
        clock.advance(days=1)
    assert responses > 300
    assert secret_cards_seen > 1000  # the check had plenty of hidden cards to catch


def test_the_check_catches_a_leaked_position(client: FlaskClient, clock: Clock) -> None:
    """The hidden-information check can fail: the server-side storage form would trip it."""
    from engine import daily_game

    game = daily_game(daily_seed(SECRET, clock.today), "Ada")
    game.play("draw", 0)
    position = json.dumps({"attempt": None, "leak": game.state.to_position()["stock"]})
    with pytest.raises(AssertionError, match="hidden cards"):
        check(position, game, "0" * 64)


def test_a_bots_face_down_going_out_card_stays_hidden(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    """R4.3: the last card goes out face down. Until the day closes, seat 0 sees a bot's
    going-out move as a bare ``discard`` in the events and in the log, and not among removed."""
    for day in range(8):
        today = clock.today
        created = client.post(f"/api/daily/{today}/attempts", json={"name": f"Q{day}"})
        aid = created.get_json()["attempt"]["id"]
        attempt: dict[str, Any] = created.get_json()["attempt"]
        events: list[dict[str, Any]] = []
        while attempt["status"] == "playing":
            move = next_move(attempt["view"], None)
            r = client.post(
                f"/api/attempts/{aid}/moves", json={"move": move, "seq": attempt["seq"]}
            )
            assert r.status_code == 200, r.get_json()
            attempt, events = r.get_json()["attempt"], r.get_json()["events"]
        outcome = attempt["view"]["outcome"]
        if outcome["end"] == "out" and outcome["winner"] != 0:
            break
        clock.advance(days=1)
    else:
        raise AssertionError("no bot went out in eight days")
    stored = Game.from_json(json.loads(rdb.hget(keys.attempt(aid), "game") or ""))
    winner, real_move = stored.state.history[-1]
    assert winner == outcome["winner"] and real_move.startswith("discard ")
    assert events[-1] == {"seat": winner, "move": "discard"}
    log = client.get(f"/api/attempts/{aid}/log").get_json()
    assert log["moves"][-1] == {"seat": winner, "move": "discard"}
    assert len(log["moves"]) == len(stored.state.history)
    removed = attempt["view"]["removed"]
    assert len(removed) == len(stored.state.removed) - 1
    assert real_move not in json.dumps(log["moves"][-1:])
