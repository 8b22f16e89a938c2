"""G9: what a seat may know, and bots that are pure, deterministic functions of it — blind to the
other hand, the stock and the seed (checked by permuting every hidden card)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from engine.gin.bots import PLAIN_LEVELS as LEVELS  # the Meister: test_meister_gin.py
from engine.gin.bots import choose_move
from engine.gin.cards import NAMES, from_mask, to_mask
from engine.gin.melds import is_meld, min_deadwood
from engine.gin.state import HandState
from engine.gin.view import FACE_DOWN, view
from tests.support.determinism import violations
from tests.support.gin_matches import seed
from tests.support.gin_positions import permuted, pts, state

GIN = Path(__file__).resolve().parents[2] / "engine" / "gin"


def hidden_from(s: HandState, seat: int) -> int:
    """The cards ``seat`` cannot see: the other hand (less what it took from the pile) and the
    stock."""
    other = 1 - seat
    return (s.hands[other] & ~s.took[other]) | to_mask(s.stock)


def positions(k: int, limit: int = 400) -> list[HandState]:
    """Every state of a strong-vs-plain hand at which a seat is to move (no knock yet)."""
    s = HandState.new(seed(f"views/{k}"), 1 + k % 3, k % 2)
    found: list[HandState] = []
    while s.outcome is None and len(found) < limit:
        if s.phase != "defend":
            found.append(s.copy())
        level = LEVELS[s.turn]
        s.push(choose_move(level, view(s, s.turn)))
    return found


@pytest.mark.parametrize("k", range(6))
def test_g9_bots_are_blind_to_hidden_cards(k: int) -> None:
    rng = random.Random(k)
    for s in positions(k):
        seat = s.turn
        v = view(s, seat)
        for _ in range(3):
            t = permuted(s, seat, rng)
            assert view(t, seat) == v
            for level in LEVELS:
                assert str(choose_move(level, view(t, seat))) == str(choose_move(level, v))


@pytest.mark.parametrize("k", range(4))
def test_g9_a_view_never_names_a_hidden_card(k: int) -> None:
    for s in positions(k):
        for seat in (0, 1):
            text = json.dumps(view(s, seat).to_json())
            for c in from_mask(hidden_from(s, seat)):
                assert not re.search(rf"\b{NAMES[c]}\b", text), (NAMES[c], text)
            assert 'stock"' not in text.replace("stock_size", "") and "seed" not in text


def test_g6_the_knock_card_is_face_down_for_the_defender() -> None:
    s = state("5S 6S 7S 8H 8D 8C 2C 3C 4C AH KD", "8S 9S KH KS QC JC 2D 3H 4H 5H")
    s.push("knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C")
    defender = view(s, 1)
    assert defender.knock is not None and defender.knock.card is None
    assert defender.history[-1] == (0, f"knock {FACE_DOWN} 5S 6S 7S | 8H 8D 8C | 2C 3C 4C")
    doc = defender.to_json()
    assert not re.search(r"\bKD\b", json.dumps(doc))
    # the knocker's remaining cards are public once it knocked (its melds and deadwood)
    assert sorted(doc["revealed"]) == sorted(
        ["5S", "6S", "7S", "8H", "8D", "8C", "2C", "3C", "4C", "AH"]
    )
    # the page pre-selects the exact best defence (G6)
    assert doc["suggestion"] == "defend 3H 4H 5H / 8S@1 9S@1"
    assert view(s, 0).knock == s.knock  # the knocker sees its own card


def test_g9_view_shows_the_exact_minimum_deadwood() -> None:
    s = state("5S 6S 7S 8S 8H 8D 2C 3C 4C AH KD", "8C 9S KH KS QC JC 2D 3H 4H 5H")
    doc = view(s, 0).to_json()
    assert doc["deadwood"] == 11 and len(doc["melds"]) == 3
    assert doc["hand"] == sorted(doc["hand"], key=NAMES.index)


@pytest.mark.parametrize("level", LEVELS)
def test_g9_bots_are_deterministic(level: str) -> None:
    for s in positions(9, limit=60):
        v = view(s, s.turn)
        first = str(choose_move(level, v))
        assert str(choose_move(level, view(s.copy(), s.turn))) == first
        assert s.is_legal(first)


SOURCES = sorted(
    p.relative_to(GIN).as_posix()
    for p in [*GIN.glob("*.py"), *GIN.glob("bots/*.py")]
    if p.name not in ("cli.py", "tournament.py")  # they read the clock or the command line
)
ALLOWED = ("import itertools", "from itertools import", "import re")


@pytest.mark.parametrize("name", SOURCES)
def test_g9_engine_and_bot_sources_are_deterministic(name: str) -> None:
    """No randomness, clock, floats or hash(): the same view gives the same move everywhere."""
    found = violations((GIN / name).read_text(), name)
    assert [v for v in found if not v.endswith(ALLOWED)] == []


def test_every_bot_module_is_checked() -> None:
    assert {"bots/plain.py", "bots/strong.py", "bots/common.py", "melds.py", "view.py"} <= set(
        SOURCES
    )


@pytest.mark.parametrize("k", range(4))
def test_g9_discard_options_are_the_exact_deadwood_after_each_discard(k: int) -> None:
    """The page's knock dialog shows, for the selected card, the exact minimum deadwood of the
    ten cards left (engine.gin.melds.min_deadwood) and melds reaching it; the card just taken
    from the pile is no option (G5)."""
    seen = 0
    for s in positions(k):
        seat = s.turn
        doc = view(s, seat).to_json()
        if s.phase != "discard":
            assert doc["discards"] is None
            assert view(s, 1 - seat).to_json()["discards"] is None
            continue
        seen += 1
        allowed = [c for c in from_mask(s.hands[seat]) if c != s.taken]
        assert sorted(doc["discards"]) == sorted(NAMES[c] for c in allowed)
        for c in allowed:
            left = s.hands[seat] & ~(1 << c)
            option = doc["discards"][NAMES[c]]
            assert option["deadwood"] == min_deadwood(left)
            melds = [to_mask(NAMES.index(n) for n in m) for m in option["melds"]]
            assert all(is_meld(m) and m & left == m for m in melds)
            covered = 0
            for m in melds:
                assert covered & m == 0
                covered |= m
            rest = " ".join(NAMES[r] for r in from_mask(left & ~covered))
            assert option["deadwood"] == pts(rest)
    assert seen > 0


def test_g5_the_card_just_taken_is_no_discard_option() -> None:
    s = state(
        "5S 6S 7S 8H 8D 2C 3C 4C AH KD",
        "8S 9S KH KS QC JC 2D 3H 4H 5H",
        discard="8C",
        phase="draw",
    )
    s.push("take")
    doc = view(s, 0).to_json()
    assert "8C" not in doc["discards"] and "KD" in doc["discards"]
    assert doc["discards"]["KD"]["deadwood"] == pts("AH")
