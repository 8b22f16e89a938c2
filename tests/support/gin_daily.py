"""Helpers for the Gin daily challenge's tests (docs/GIN_DAILY.md): a simple
deterministic API player and the check that no card hidden from seat 0 is in a response.

The player sees only what any client sees (the attempt document's Gin view); the engine's
deadwood functions are its strategy, not the service's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.gin import (
    POINTS,
    GinMatch,
    arrange,
    from_mask,
    names,
    parse_card,
    public_moves,
    to_mask,
)

# (method, path, json body or None) -> (status, json)
Call = Callable[[str, str, dict[str, Any] | None], tuple[int, Any]]
#: A Gin card name in any text (F1 without jokers), not inside a longer word or hex.
CARD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][SHDC](?![0-9A-Za-z])")


def _best_discard(hand: list[str], taken: str | None) -> tuple[int, str, tuple[int, ...]]:
    """(deadwood left, card, melds) of the discard leaving the least deadwood: ties by the
    higher card value, then the canonical order (G5: never the card just taken)."""
    mask = to_mask(parse_card(c) for c in hand)
    best: tuple[int, int, str, tuple[int, ...]] | None = None
    for card in hand:
        if card == taken:
            continue
        deadwood, melds = arrange(mask & ~(1 << parse_card(card)))
        key = (deadwood, -POINTS[parse_card(card)], card, melds)
        if best is None or key[:3] < best[:3]:
            best = key
    assert best is not None
    return best[0], best[2], best[3]


def next_gin_move(view: dict[str, Any]) -> str:
    """A simple deterministic strategy: pass the upcard, always draw, knock as soon as the
    deadwood allows (G6), else discard the card that leaves the least deadwood; defend with the
    view's suggested best defence."""
    phase = view["phase"]
    if phase == "upcard":
        return "pass"
    if phase == "draw":
        return "draw"
    if phase == "defend":
        return str(view["suggestion"])
    deadwood, card, melds = _best_discard(view["hand"], view["taken"])
    if deadwood <= 10:
        groups = " | ".join(" ".join(names(from_mask(m))) for m in melds)
        return f"knock {card} {groups}".rstrip()
    return f"discard {card}"


def play_gin_to_end(
    call: Call, attempt_id: str, limit: int = 3000, seen: list[Any] | None = None
) -> Any:
    """Play a Gin daily attempt until its match ends; returns the final attempt document.
    ``seen`` collects every answer (for the hidden-card checks)."""
    status, body = call("GET", f"/api/attempts/{attempt_id}", None)
    assert status == 200, body
    attempt = body["attempt"]
    for _ in range(limit):
        if attempt["status"] == "finished":
            return attempt
        move = next_gin_move(attempt["view"])
        status, body = call(
            "POST", f"/api/attempts/{attempt_id}/moves", {"move": move, "seq": attempt["seq"]}
        )
        assert status == 200, (move, body)
        if seen is not None:
            seen.append(body)
        attempt = body["attempt"]
    raise AssertionError("the match did not end")


def gin_hidden_cards(match: GinMatch) -> set[str]:
    """Cards hidden from seat 0 now: the bot's hand (unless public after its knock or seat 0's
    defence), the stock and the bot's face-down knock card, less any card seat 0 saw: named in
    a move (a card public in an earlier hand may be dealt hidden again), taken by the bot from
    the pile, or on the pile."""
    state = match.state
    view = match.view(0)
    hidden = set(state.stock)
    if view.revealed is None:
        hidden |= set(from_mask(state.hands[1]))
    if state.knock is not None and state.knock.seat == 1 and state.knock.card is not None:
        hidden.add(state.knock.card)
    known = {c for _, text in public_moves(match.moves, 0) for c in CARD.findall(text)}
    # what the bot took from the pile is public (everyone saw the face-up card), as is the pile
    known |= set(names(from_mask(view.took[1]))) | set(names(view.discard))
    return {n for n in names(sorted(hidden)) if n not in known}


def check_gin_hidden(text: str, match: GinMatch, seed_hex: str) -> None:
    """No hidden card of ``match`` and not the seed in a response's text (R10 for Gin, G9)."""
    assert seed_hex not in text
    for field in ('"stock":', '"hands":[', '"position":'):  # no full state, no record
        assert field not in text, (field, text[:300])
    leaked = set(CARD.findall(text)) & gin_hidden_cards(match)
    assert not leaked, f"hidden cards {leaked} in {text[:300]}"


__all__ = ["CARD", "check_gin_hidden", "gin_hidden_cards", "next_gin_move", "play_gin_to_end"]
