"""Helpers for the engine tests: hand-made positions (F5) and checked pushes.

Every test position is written as an F5 document, read with ``State.from_position``, so a test
states its situation exactly. ``reject`` checks an error's F7 code and that nothing changed.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from engine import Card, Meld, Move, PikDameError, State

# R1 points, written out independently of engine.pikdame.cards.
RANK_POINTS = {
    "A": 20,
    "2": 5,
    "3": 5,
    "4": 5,
    "5": 5,
    "6": 5,
    "7": 5,
    "8": 5,
    "9": 5,
    "T": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
}


def points(name: str) -> int:
    """R1: the points of one card named in F1 notation (independent of the engine)."""
    if name == "X":
        return 20
    if name == "QS":
        return 100
    return RANK_POINTS[name[0]]


def cards(text: str) -> list[str]:
    return text.split()


def meld_json(text: str) -> dict[str, Any]:
    """``"run QH KH AH"`` / ``"set 7S 7H 7D"`` → F5's meld object."""
    kind, *names = text.split()
    assert kind in ("set", "run"), text
    return {"kind": kind, "cards": names}


def doc(
    hands: Sequence[str],
    *,
    melds: Sequence[Sequence[str]] | None = None,
    stock: str = "",
    discard: str = "",
    removed: str = "",
    turn: int = 0,
    phase: str = "play",
    dealer: int | None = None,
    hand_out_double: bool = False,
    strict_1000: bool = False,
    totals: Sequence[int] | None = None,
    opened: bool | None = None,
    round: int = 1,
) -> dict[str, Any]:
    """An F5 position document; ``hands[i]`` and zones as space-separated F1 cards."""
    n = len(hands)
    melds = list(melds) if melds is not None else [[] for _ in range(n)]
    if opened is None:
        opened = bool(melds[turn])
    return {
        "format": "pikdame-position/1",
        "rules": {"players": n, "hand_out_double": hand_out_double, "strict_1000": strict_1000},
        "round": round,
        "dealer": (turn - 1) % n if dealer is None else dealer,
        "turn": turn,
        "phase": phase,
        "opened_at_turn_start": opened,
        "hands": [cards(h) for h in hands],
        "melds": [[meld_json(m) for m in ms] for ms in melds],
        "stock": cards(stock),
        "discard": cards(discard),
        "removed": cards(removed),
        "totals": list(totals) if totals is not None else [0] * n,
    }


def state(hands: Sequence[str], **kw: Any) -> State:
    return State.from_position(doc(hands, **kw))


def snapshot(s: State) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    return copy.deepcopy(s.to_position()), list(s.history)


def reject(s: State, move: str | Move, code: str, seat: int | None = None) -> PikDameError:
    """Pushing ``move`` fails with F7 ``code`` and leaves the state exactly as it was."""
    before = snapshot(s)
    with pytest.raises(PikDameError) as info:
        s.push(move, seat)
    assert info.value.code == code, f"{move}: expected {code}, got {info.value.code}: {info.value}"
    assert snapshot(s) == before, f"{move}: a rejected move changed the state"
    return info.value


def hand(s: State, seat: int | None = None) -> list[str]:
    return [str(c) for c in s.hand(s.turn if seat is None else seat)]


def meld_cards(s: State, seat: int) -> list[tuple[str, list[str]]]:
    return [(m.kind, [str(c) for c in m.cards]) for m in s.melds[seat]]


def all_cards(position: dict[str, Any]) -> Counter[str]:
    """Every card of a position document by F1 name: hands, melds, stock, pile, removed."""
    found: Counter[str] = Counter()
    for h in position["hands"]:
        found.update(h)
    for ms in position["melds"]:
        for m in ms:
            found.update(m["cards"])
    for zone in ("stock", "discard", "removed"):
        found.update(position[zone])
    return found


def full_deck() -> Counter[str]:
    """R1: two 52-card decks and six jokers, by F1 name."""
    deck: Counter[str] = Counter({"X": 6})
    for suit in "SHDC":
        for rank in "A23456789TJQK":
            deck[rank + suit] = 2
    return deck


def meld_is_valid(m: Meld) -> bool:
    try:
        return Meld.build(m.cards, m.kind) == m
    except PikDameError:
        return False


def card(name: str) -> Card:
    return Card.parse(name)


def choose(s: State, rng: Any, max_meld: int | None = 4, resign_chance: float = 0.0) -> Move:
    """A random legal move of the seat to move (resign only with ``resign_chance``)."""
    if resign_chance and rng.random() < resign_chance:
        return Move.resign()
    moves = [m for m in s.legal_moves(max_meld=max_meld) if m.kind != "resign"]
    assert moves, f"no legal move but resign in {s.to_position()}"
    pick: int = rng.randrange(len(moves))
    return moves[pick]


def expected_scores(position: dict[str, Any]) -> list[int]:
    """R7 round scores recomputed from a finished position with independent card points."""
    outcome = position["outcome"]
    scores = []
    for seat, melds in enumerate(position["melds"]):
        score = sum(points(c) for m in melds for c in m["cards"])
        if seat != outcome["winner"]:
            score -= sum(points(c) for c in position["hands"][seat])
        scores.append(score)
    if outcome["doubled"]:
        scores = [2 * x for x in scores]
    return scores
