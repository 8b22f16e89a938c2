"""Tausende (R12) positions for tests: a small table described by its hands and melds."""

from __future__ import annotations

from typing import Any

from engine.pikdame.state import State
from engine.pikdame.tausende import TausendeState

RULES: dict[str, Any] = {
    "players": 2,
    "hand_out_double": False,
    "strict_1000": False,
    "ruleset": "tausende",
    "ace_high_only": False,
    "no_joker_swap": False,
    "go_out_on_opening": False,
}


def position(
    hands: list[list[str]],
    *,
    melds: list[list[dict[str, Any]]] | None = None,
    opened: list[bool] | None = None,
    phase: str = "play",
    discard: list[str] | None = None,
    stock: list[str] | None = None,
    swaps: int | None = None,
    turn: int = 0,
    opened_at_turn_start: bool | None = None,
    **options: bool,
) -> dict[str, Any]:
    """An F5 document of a Tausende table; seat ``turn`` to move."""
    n = len(hands)
    opened = opened if opened is not None else [False] * n
    return {
        "format": "pikdame-position/1",
        "rules": {**RULES, "players": n, **options},
        "round": 1,
        "dealer": (turn - 1) % n,
        "turn": turn,
        "phase": phase,
        "opened_at_turn_start": opened[turn]
        if opened_at_turn_start is None
        else opened_at_turn_start,
        "hands": hands,
        "melds": melds if melds is not None else [[] for _ in range(n)],
        "stock": stock if stock is not None else ["5D", "9C", "2S"],
        "discard": discard if discard is not None else ["3C"],
        "removed": [],
        "totals": [0] * n,
        "opened": opened,
        "laid": [0] * n,
        "swaps": swaps,
        "turn_points": 0,
    }


def state(hands: list[list[str]], **kw: Any) -> TausendeState:
    s = State.from_position(position(hands, **kw))
    assert isinstance(s, TausendeState)
    return s


def run(*cards: str) -> dict[str, Any]:
    return {"kind": "run", "cards": list(cards)}


def set_(*cards: str) -> dict[str, Any]:
    return {"kind": "set", "cards": list(cards)}
