"""Tausende (R12) positions for tests: a small table described by its hands and melds."""

from __future__ import annotations

from typing import Any

from engine.core.cards import JOKER_CODE, held
from engine.pikdame.cards import QUEEN_OF_SPADES_CODE
from engine.pikdame.errors import NotationError
from engine.pikdame.meldgen import iter_melds
from engine.pikdame.moves import DRAW, RESIGN, Move
from engine.pikdame.state import State
from engine.pikdame.tausende import PASS, TausendeState, meld_fault

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


def legal_moves_by_trying(s: TausendeState, max_meld: int | None = None) -> list[Move]:
    """The reference for Tausende's ``legal_moves``: the engine's first implementation (before
    the fast one), kept verbatim in behaviour: every candidate tried with ``push`` on a
    copy, so the list is exactly what ``push`` accepts, in the same order."""

    def accepts(move: Move) -> bool:
        try:
            s.copy().push(move)
        except (NotationError, ValueError):
            return False
        return True

    if s.outcome is not None:
        return []
    out: list[Move] = []
    seat = s.turn
    hand = s.hands[seat]
    if s.phase == "draw":
        if s.stock:
            out.append(DRAW)
        if s.swaps is not None:
            if s.swaps < s.players:
                out.extend(Move("swap-up", (c,)) for c in held(hand) if c != QUEEN_OF_SPADES_CODE)
        else:
            for meld in s._take_melds(max_meld):
                if accepts(Move.laying(meld, "take")):
                    out.append(Move.laying(meld, "take"))
        out.append(RESIGN)
        return out
    size = s.hand_sizes[seat]
    limit = size - 1 if max_meld is None else min(size - 1, max_meld)
    for meld in iter_melds(hand, max_len=limit):
        move = Move.laying(meld)
        if meld_fault(meld, s.rules) is None and accepts(move):
            out.append(move)
    if s.opened[seat]:
        for owner in range(s.players):
            address = None if owner == seat else owner
            for number, meld in enumerate(s.melds[owner], start=1):
                for card in held(hand):
                    ends: tuple[str | None, ...] = (None,)
                    if card == JOKER_CODE and meld.kind == "run":
                        ends = (None, "low")
                    for end in ends:
                        lay = Move("lay", (card,), number, end, None, address)
                        if meld.accepts(card) and accepts(lay):
                            out.append(lay)
                    swap = Move("swap", (card,), number, None, None, address)
                    if meld.swappable(card) and accepts(swap):
                        out.append(swap)
    for card in held(hand):
        discard = Move("discard", (card,))
        if accepts(discard):
            out.append(discard)
    if accepts(PASS):
        out.append(PASS)
    out.append(RESIGN)
    return out
