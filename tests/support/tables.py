"""Helpers for the tables' tests: seeds for whole games, and a simple scripted table player that
sees only what a client sees (the table document ``T``)."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterator
from typing import Any

from tests.support.player import card_points

# (method, path, json body or None) -> (status, json)
Call = Callable[[str, str, dict[str, Any] | None], tuple[int, Any]]


def seeds(label: str) -> Callable[[], bytes]:
    """A deterministic seed source for engine tests (the service draws from ``secrets``)."""
    counter: Iterator[int] = itertools.count(1)
    return lambda: hashlib.sha256(f"{label}/{next(counter)}".encode()).digest()


def take_candidates(view: dict[str, Any]) -> Iterator[str]:
    """Every ``take`` of the pile's top card with two hand cards (the engine judges each)."""
    top = view["discard"][-1]
    hand: list[str] = view["hand"]
    for a, b in itertools.combinations(sorted(set(hand)), 2):
        if [a, b, top].count("X") < 2:
            yield f"take {a} {b} {top}"
    for a in sorted(set(hand)):
        if hand.count(a) >= 2 and a != "X":
            yield f"take {a} {a} {top}"


def scripted_move(table: dict[str, Any]) -> list[str]:
    """The moves to try, in order: cut in the middle; draw; else a take (a forced take at an
    empty stock, R4.4); in the play phase discard the costliest card."""
    if table["awaiting_cut"]:
        return ["cut 55"]
    view = table["view"]
    if view["phase"] == "draw":
        if view["can_draw"]:
            return ["draw"]
        return list(take_candidates(view))
    return ["discard " + max(view["hand"], key=card_points)]


def play_game(call: Call, table_id: str, seat: int, limit: int = 3000) -> dict[str, Any]:
    """Play seat ``seat`` scriptedly until the game is over; returns the final table. Every
    refused try must be a 422 that changed nothing (the seq stays)."""
    status, body = call("GET", f"/api/tables/{table_id}", None)
    assert status == 200, body
    table = body["table"]
    for _ in range(limit):
        if table["status"] == "finished":
            return table
        assert table["turn"] == seat, table["turn"]
        for move in scripted_move(table):
            status, body = call(
                "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": table["seq"]}
            )
            if status == 200:
                table = body["table"]
                break
            assert status == 422, body
        else:
            raise AssertionError(f"no move found in {table['view']}")
    raise AssertionError("the game did not end")
