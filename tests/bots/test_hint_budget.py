"""The web's hint searches within a small deterministic budget shared by all swap
plans, so no request waits long on a big hand; past it the hint is the best found and says it is
not proven optimal. The bots keep their own budget (their answers are pinned elsewhere)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest

from engine import Card, Meld
from engine.pikdame.optimiser import BOTS, HINT, best_arrangement, fallback, search
from engine.pikdame.optimiser.tree import Node

OWNED = (
    Meld.build([Card.parse(x) for x in ("X", "5H", "6H")]),
    Meld.build([Card.parse(x) for x in ("AS", "AD", "X")]),
)


def big_hands(count: int = 12) -> Iterator[tuple[list[Card], tuple[Meld, ...]]]:
    for k in range(count):
        ids = hashlib.sha256(f"tests/bots/hint/{k}".encode()).digest() * 2
        yield sorted(Card.from_id(ids[i] % 110) for i in range(40)), OWNED if k % 2 else ()


def test_the_hint_budget_is_smaller_than_the_bots_and_shared() -> None:
    assert HINT.shared and not BOTS.shared
    assert HINT.nodes + HINT.fallback < BOTS.nodes
    assert HINT.per_plan(4).nodes == HINT.nodes // 4


def test_a_hint_never_makes_more_search_calls_than_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = [0]
    exact_search, discrepancy = search.Search.search, fallback.Discrepancies.go

    def counted_search(self: search.Search, node: Node, alpha: int) -> int:
        calls[0] += 1
        return exact_search(self, node, alpha)

    def counted_go(self: fallback.Discrepancies, node: Node, acc: int, slack: int) -> None:
        calls[0] += 1
        discrepancy(self, node, acc, slack)

    monkeypatch.setattr(search.Search, "search", counted_search)
    monkeypatch.setattr(fallback.Discrepancies, "go", counted_go)
    inexact = 0
    for hand, melds in big_hands():
        calls[0] = 0
        hint = best_arrangement(hand, melds, HINT)
        # the exact search stops at its count; past its own, the fallback's open calls each
        # return at once (a few calls that do no work)
        assert calls[0] <= (HINT.nodes + HINT.fallback) * 11 // 10, calls[0]
        inexact += not hint.exact
    assert inexact > 0  # some 40-card hands do run past the hint's budget


def test_a_hint_is_the_bots_answer_when_exact_and_never_better() -> None:
    for hand, melds in big_hands(6):
        hint = best_arrangement(hand, melds, HINT)
        full = best_arrangement(hand, melds)
        if hint.exact:
            assert hint == full
        elif full.exact:
            assert hint.gain <= full.gain
