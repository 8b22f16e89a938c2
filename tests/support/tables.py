"""Helpers for the tables' tests: seeds for whole games, and a simple scripted table player that
sees only what a client sees (the table document ``T``)."""

from __future__ import annotations

import hashlib
import http.client
import itertools
import json
import re
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

import redis

from engine.core.cards import NAMES, Card
from engine.pikdame.match import Match
from engine.pikdame.state import deal_for
from service.tables import store as tables
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


def tausende_move(table: dict[str, Any]) -> list[str]:
    """Tausende's simple player (R12): in the swapping round put the costliest card face up
    (R12.2; a Q♠ never), else draw; at an empty stock the engine's take candidates; in the play
    phase discard the costliest card but a Q♠ (R12.6), or ``pass`` with Q♠s only. It never
    melds, so it never opens (R12.3) and never takes (R12.4)."""
    if table["awaiting_cut"]:
        return ["cut 54"]
    view = table["view"]
    hand = [c for c in view["hand"] if c != "QS"]
    costliest = sorted(set(hand), key=card_points, reverse=True)
    if view["phase"] == "draw":
        swap = [f"swap-up {costliest[0]}"] if view.get("swaps") is not None and costliest else []
        return [*swap, "draw", *take_candidates(view)]
    return [f"discard {c}" for c in costliest] + ["pass"]


def play_turn(call: Call, table: dict[str, Any]) -> dict[str, Any]:
    """One scripted move of the seat to act (the first try the server accepts); every refused
    try must be a 422 that changed nothing. Returns the table after it."""
    table_id = table["id"]
    moves = tausende_move(table) if table["game"] == "tausende" else scripted_move(table)
    for move in moves:
        status, body = call(
            "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": table["seq"]}
        )
        if status == 200:
            return dict(body["table"])
        assert status == 422, body
    raise AssertionError(f"no move found in {table['view']}")


def play_game(call: Call, table_id: str, seat: int, limit: int = 3000) -> dict[str, Any]:
    """Play seat ``seat`` scriptedly until the game is over; returns the final table."""
    status, body = call("GET", f"/api/tables/{table_id}", None)
    assert status == 200, body
    table: dict[str, Any] = body["table"]
    for _ in range(limit):
        if table["status"] == "finished":
            return table
        assert table["turn"] == seat, table["turn"]
        table = play_turn(call, table)
    raise AssertionError("the game did not end")


class EventStream:
    """A Server-Sent Events client over one HTTP connection (docs/TABLES.md): ``next()`` gives
    the next message's ``(id, data)``, skipping heartbeats."""

    def __init__(
        self, base: str, path: str, token: str, last_id: int | None = None, timeout: float = 20
    ) -> None:
        parsed = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(
            parsed.hostname or "127.0.0.1", parsed.port, timeout=timeout
        )
        headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
        if last_id is not None:
            headers["Last-Event-ID"] = str(last_id)
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.content_type = self.response.getheader("Content-Type", "")

    def next(self) -> tuple[int | None, dict[str, Any]]:
        event_id: int | None = None
        data: list[str] = []
        while True:
            raw = self.response.readline()
            if not raw:
                raise EOFError("the stream ended")
            line = raw.decode().rstrip("\n")
            if line == "":
                if data:
                    return event_id, json.loads("\n".join(data))
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "id":
                event_id = int(value)
            elif name == "data":
                data.append(value)

    def until(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            _, message = self.next()
            if predicate(message):
                return message

    def close(self) -> None:
        self.connection.close()


CARD = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][SHDC]|X)(?![0-9A-Za-z])")


def hidden_from(game: Any, seat: int) -> set[str]:
    """Card names of which every copy is hidden from ``seat``: in other hands or the stock and
    never named in a public move (R10)."""
    state = game.state
    hidden = {str(c) for s in range(state.players) if s != seat for c in state.hand(s)}
    hidden.update(str(c) for c in state.stock)
    known = {str(c) for c in state.hand(seat)}
    known.update(str(c) for ms in state.melds for m in ms for c in m.cards)
    known.update(str(c) for c in state.discard)
    known.update(str(c) for c in state.removed)
    for _, move in state.history:
        known.update(CARD.findall(move))
    return hidden - known


def face_up(match: Match, facts: Any) -> set[str]:
    """The round's first face-up card in Tausende (R12.1): public from the deal on."""
    if not match.rules.tausende:
        return set()
    card = deal_for(facts.seed, match.rules, facts.dealer, facts.cut).face_up
    return set() if card is None else {NAMES[Card.from_id(card)]}


def assert_nothing_hidden(client: redis.Redis[str], table_id: str, seat: int, text: str) -> None:
    """``text`` (an answer or a stream message for ``seat``) names no card the seat may not know
    in the running round and no seed of a round not yet over (R10; API.md "Fairness")."""
    table = tables.load(client, table_id)
    assert table is not None and table.session is not None
    match = table.loaded()
    assert isinstance(match, Match)
    if match.pending is not None:
        assert match.pending[1].hex() not in text
    named_before: set[str] = set()  # an answer may name the last round's public moves
    for facts, game in match.rounds:
        if game.finished:
            named_before.update(c for _, m in game.state.history for c in CARD.findall(m))
        else:
            assert facts.seed.hex() not in text
            # the lucky grab (R3, F3 step 4) is shown to everyone: the cutter's Q♠ and jokers;
            # so is Tausende's face-up card (R12.1), which a swap-up takes into a hand unnamed
            public = named_before | set(facts.lucky) | face_up(match, facts)
            leaked = set(CARD.findall(text)) & (hidden_from(game, seat) - public)
            assert not leaked, f"hidden cards {leaked} in {text}"
    assert '"stock":' not in text and '"hands":' not in text and '"position"' not in text


def timed_table(web: Any) -> tuple[str, str]:
    """A started two-seat table (Ada and a bot) with R9's shortest turn timer (30 s): Ada's cut
    is timed. ``web`` answers ``call(method, path, body, token)``. Its id and Ada's token."""
    status, body = web.call(
        "POST",
        "/api/tables",
        {
            "name": "Ada",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}],
            "rules": {"turn_timer": 30},
        },
    )
    assert status == 201, body
    table_id, token = body["table"]["id"], body["token"]
    status, body = web.call("POST", f"/api/tables/{table_id}/start", {}, token)
    assert status == 200 and body["table"]["awaiting_cut"], body
    assert body["table"]["deadline"] is not None, body
    return str(table_id), str(token)
