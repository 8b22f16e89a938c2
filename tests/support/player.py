"""A simple API player for tests: draws, lays what the hint says, discards its costliest card.

It talks to the service only through HTTP-shaped calls (a Flask test client or a real server),
seeing exactly what any client sees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# (method, path, json body or None) -> (status, json)
Call = Callable[[str, str, dict[str, Any] | None], tuple[int, Any]]

POINTS = {"A": 20, "T": 10, "J": 10, "Q": 10, "K": 10}


def card_points(card: str) -> int:
    """R1, for choosing a discard (the service never needs this: it is the test's strategy)."""
    if card == "X":
        return 20
    if card == "QS":
        return 100
    return POINTS.get(card[0], 5)


def next_move(view: dict[str, Any], hint: dict[str, Any] | None) -> str:
    if view["phase"] == "draw":
        return "draw" if view["can_draw"] else "resign"
    if hint and hint["moves"]:
        return str(hint["moves"][0])
    hand: list[str] = view["hand"]
    return "discard " + max(hand, key=card_points)


def play_to_end(call: Call, attempt_id: str, use_hints: bool = True, limit: int = 400) -> Any:
    """Play the attempt until its round ends; returns the final attempt document."""
    status, body = call("GET", f"/api/attempts/{attempt_id}", None)
    assert status == 200, body
    attempt = body["attempt"]
    for _ in range(limit):
        if attempt["status"] == "finished":
            return attempt
        view = attempt["view"]
        hint = None
        if use_hints and view["phase"] == "play":
            status, hint = call("GET", f"/api/attempts/{attempt_id}/hint", None)
            assert status == 200, hint
        move = next_move(view, hint)
        status, body = call(
            "POST", f"/api/attempts/{attempt_id}/moves", {"move": move, "seq": attempt["seq"]}
        )
        assert status == 200, (move, body)
        attempt = body["attempt"]
    raise AssertionError("the round did not end")
