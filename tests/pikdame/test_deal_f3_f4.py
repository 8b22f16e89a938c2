"""F3 shuffle, cut, lucky grab (R3) and deal against golden vectors; F4 daily seed and commitment.

The golden file ``tests/golden/deals.json`` was generated once by the small reference
implementation below, written from FORMATS.md §F3's text without importing ``engine.pikdame.deal``.
Regenerate (only if F3 itself changes) with::

    .venv/bin/python -m tests.pikdame.test_deal_f3_f4 --write

Each test checks the reference against the file as well, so the file cannot drift from F3.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
import sys
from collections.abc import Iterator
from itertools import cycle
from pathlib import Path
from typing import Any

import pytest

from engine import (
    DAILY_RULES,
    FormatError,
    Rules,
    State,
    commitment,
    daily_game,
    daily_seats,
    daily_seed,
)
from engine.pikdame.deal import Stream, deal, shuffle

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "deals.json"

# -- the reference implementation (F3, from the spec text) ----------------------------------------


def ref_words(seed: bytes) -> Iterator[int]:
    """block i = SHA-256(seed ‖ i as 8-byte big-endian); 4-byte big-endian words in order."""
    i = 0
    while True:
        block = hashlib.sha256(seed + struct.pack(">Q", i)).digest()
        yield from struct.unpack(">8I", block)
        i += 1


def ref_uniform(words: Iterator[int], n: int) -> int:
    limit = 2**32 - (2**32 % n)
    for u in words:
        if u < limit:
            return u % n
    raise AssertionError("unreachable")


def ref_is_lucky(card_id: int) -> bool:
    """Q♠ is id 11 and 63; ids 104 … 109 are jokers."""
    return card_id in (11, 63) or 104 <= card_id <= 109


def ref_name(card_id: int) -> str:
    if card_id >= 104:
        return "X"
    return "A23456789TJQK"[card_id % 13] + "SHDC"[(card_id % 52) // 13]


def ref_sort_key(name: str) -> tuple[int, int]:
    """F5 canonical order: suit S H D C, rank A … K, jokers last."""
    if name == "X":
        return (4, 0)
    return ("SHDC".index(name[1]), "A23456789TJQK".index(name[0]))


def ref_deal(seed: bytes, players: int, dealer: int, cut: int | None) -> dict[str, Any]:
    words = ref_words(seed)
    a = list(range(110))
    for i in range(109, 0, -1):
        j = ref_uniform(words, i + 1)
        a[i], a[j] = a[j], a[i]
    deck = list(a)
    k = 1 + ref_uniform(words, 109) if cut is None else cut
    r = a[k:] + a[:k]
    hands: list[list[int]] = [[] for _ in range(players)]
    cutter = (dealer - 1) % players
    p = 0
    while ref_is_lucky(r[p]):
        hands[cutter].append(r[p])
        p += 1
    lucky = r[:p]
    order = [(dealer + 1 + i) % players for i in range(players)]
    for seat in cycle(order):
        if all(len(h) == 15 for h in hands):
            break
        if len(hands[seat]) < 15:
            hands[seat].append(r[p])
            p += 1
    stock = r[p:]
    return {
        "seed": seed.hex(),
        "players": players,
        "dealer": dealer,
        "cut_given": cut,
        "deck": deck,
        "cut": k,
        "lucky": lucky,
        "hands": hands,
        "stock": stock,
        "hands_f1": [sorted((ref_name(c) for c in h), key=ref_sort_key) for h in hands],
        "stock_f1": [ref_name(c) for c in stock],
    }


def _lucky_seed(min_lucky: int) -> bytes:
    """The first seed of a fixed series whose automatic cut starts with a lucky grab."""
    for n in range(10_000):
        seed = hashlib.sha256(f"pikdame golden lucky {n}".encode()).digest()
        if len(ref_deal(seed, 4, 3, None)["lucky"]) >= min_lucky:
            return seed
    raise AssertionError("no lucky seed found")


def generate() -> list[dict[str, Any]]:
    def seed(label: str) -> bytes:
        return hashlib.sha256(f"pikdame golden {label}".encode()).digest()

    return [
        ref_deal(seed("daily-like"), 4, 3, None),  # automatic cut, 4 players
        ref_deal(seed("manual two"), 2, 0, 57),  # manual cut, 2 players
        ref_deal(seed("auto three"), 3, 1, None),  # automatic cut, 3 players
        ref_deal(_lucky_seed(2), 4, 3, None),  # a lucky grab of two cards at the automatic cut
        ref_deal(bytes(32), 3, 2, 1),  # the all-zero seed, manual cut at the minimum
    ]


def load() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(GOLDEN.read_text())
    return data


VECTORS = load() if GOLDEN.exists() else []


# -- the golden file ------------------------------------------------------------------------------


def test_golden_file_matches_reference_and_covers_cases() -> None:
    """The file is what the reference computes from F3, and covers the cases it should."""
    assert load() == json.loads(json.dumps(generate()))
    assert {v["players"] for v in VECTORS} == {2, 3, 4}
    assert any(v["cut_given"] is None for v in VECTORS)
    assert any(v["cut_given"] is not None for v in VECTORS)
    assert any(len(v["lucky"]) >= 2 for v in VECTORS)


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v["seed"][:8])
def test_golden_vector_is_a_complete_deal(v: dict[str, Any]) -> None:
    """R3: 110 cards, nothing lost; each hand 15; the cutter holds the lucky cards."""
    assert sorted(v["deck"]) == list(range(110))
    assert all(len(h) == 15 for h in v["hands"])
    assert sorted([c for h in v["hands"] for c in h] + v["stock"]) == list(range(110))
    cutter = (v["dealer"] - 1) % v["players"]
    assert v["hands"][cutter][: len(v["lucky"])] == v["lucky"]
    assert all(ref_is_lucky(c) for c in v["lucky"])
    # r[0] (the card at the cut point) is the first dealt card after the lucky grab
    r = v["deck"][v["cut"] :] + v["deck"][: v["cut"]]
    first = (v["dealer"] + 1) % v["players"]
    skip = len(v["lucky"]) if first == cutter else 0
    assert r[len(v["lucky"])] == v["hands"][first][skip]
    assert not ref_is_lucky(r[len(v["lucky"])])


# -- the engine against the golden file -----------------------------------------------------------


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v["seed"][:8])
def test_f3_engine_shuffle_matches_golden(v: dict[str, Any]) -> None:
    assert shuffle(Stream(bytes.fromhex(v["seed"]))) == v["deck"]


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v["seed"][:8])
def test_f3_engine_deal_matches_golden(v: dict[str, Any]) -> None:
    d = deal(bytes.fromhex(v["seed"]), v["players"], v["dealer"], v["cut_given"])
    assert d.cut == v["cut"]
    assert list(d.lucky) == v["lucky"]
    assert [sorted(h) for h in d.hands] == [sorted(h) for h in v["hands"]]
    assert list(d.stock) == v["stock"]


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v["seed"][:8])
def test_f3_engine_state_matches_golden(v: dict[str, Any]) -> None:
    rules = Rules(players=v["players"])
    s = State.new_round(bytes.fromhex(v["seed"]), rules, v["dealer"], v["cut_given"])
    pos = s.to_position()
    assert pos["hands"] == v["hands_f1"]
    assert pos["stock"] == v["stock_f1"]
    assert pos["discard"] == [] and pos["removed"] == []
    assert pos["turn"] == (v["dealer"] + 1) % v["players"]
    assert pos["phase"] == "draw"
    assert pos["opened_at_turn_start"] is False


def test_r3_lucky_grab_at_manual_cut() -> None:
    """R3: a cut at a Q♠ or joker gives it to the cutter until another card stops the series."""
    v = VECTORS[0]
    deck = v["deck"]
    lucky_at = [k for k in range(1, 110) if ref_is_lucky(deck[k])]
    assert lucky_at
    for k in lucky_at[:4]:
        expect = ref_deal(bytes.fromhex(v["seed"]), 4, 3, k)
        d = deal(bytes.fromhex(v["seed"]), 4, 3, k)
        assert expect["lucky"] and list(d.lucky) == expect["lucky"]
        assert deck[k] in d.hands[2]  # the cutter (seat before dealer 3)
        assert list(d.stock) == expect["stock"]


def test_f3_uniform_rejects_biased_values() -> None:
    """F3: limit = 2^32 − (2^32 mod n); values at or above it are skipped."""

    class Scripted(Stream):
        def __init__(self, values: list[int]) -> None:
            super().__init__(bytes(32))
            self.values = values

        def next_u32(self) -> int:
            return self.values.pop(0)

    limit = 2**32 - (2**32 % 110)
    assert limit < 2**32  # 2^32 mod 110 = 26
    s = Scripted([2**32 - 1, limit, limit - 1])
    assert s.uniform(110) == (limit - 1) % 110
    assert s.values == []
    s = Scripted([7])
    assert s.uniform(1) == 0


def test_f3_stream_words() -> None:
    seed = bytes(range(32))
    s = Stream(seed)
    expected = ref_words(seed)
    assert [s.next_u32() for _ in range(20)] == [next(expected) for _ in range(20)]


# -- F4 daily seed and commitment -----------------------------------------------------------------


@pytest.mark.parametrize("date", ["2026-11-30", "2027-01-01", "2028-02-29"])
def test_f4_daily_seed_is_hmac_of_date(date: str) -> None:
    secret = b"a service secret"
    expected = hmac.new(secret, f"pikdame/daily/v1/{date}".encode(), hashlib.sha256).digest()
    seed = daily_seed(secret, date)
    assert seed == expected and len(seed) == 32
    assert commitment(seed) == hashlib.sha256(expected).hexdigest()
    assert commitment(seed) == commitment(seed).lower()


def test_f4_seed_depends_on_secret_and_date() -> None:
    a = daily_seed(b"k1", "2026-11-30")
    assert a != daily_seed(b"k2", "2026-11-30")
    assert a != daily_seed(b"k1", "2026-12-01")


@pytest.mark.parametrize("date", ["2026-2-3", "2026-02-30", "20260203", "", "2026-11-30T00:00"])
def test_f4_bad_date_is_bad_format(date: str) -> None:
    with pytest.raises(FormatError) as info:
        daily_seed(b"k", date)
    assert info.value.code == "bad_format"


def test_r11_daily_game_setup() -> None:
    """R11: seat 0 the player, seats 1–3 zen bots, dealer 3, seat 2 cuts, automatic cut,
    hand_out_double on; the deal is F3's (checked with the reference)."""
    seed = daily_seed(b"secret", "2026-11-30")
    game = daily_game(seed, "Ada")
    assert Rules(players=4, hand_out_double=True, strict_1000=False) == DAILY_RULES
    assert game.dealer == 3 and game.state.turn == 0
    assert [s.to_json() for s in daily_seats("Ada")] == [
        {"kind": "human", "name": "Ada"},
        {"kind": "bot", "level": "zen"},
        {"kind": "bot", "level": "zen"},
        {"kind": "bot", "level": "zen"},
    ]
    ref = ref_deal(seed, 4, 3, None)
    assert game.cut == ref["cut"]
    assert game.commitment == hashlib.sha256(seed).hexdigest()
    assert game.state.to_position()["hands"] == ref["hands_f1"]
    assert game.state.to_position()["stock"] == ref["stock_f1"]


if __name__ == "__main__":
    if "--write" in sys.argv:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        lines = ",\n".join(json.dumps(v) for v in generate())
        GOLDEN.write_text(f"[\n{lines}\n]\n")
        print(f"wrote {GOLDEN}")


@pytest.mark.parametrize(
    ("seed", "players", "dealer", "cut"),
    [
        (bytes(31), 4, 3, None),
        (bytes(32), 5, 0, None),
        (bytes(32), 1, 0, None),
        (bytes(32), 4, 4, None),
        (bytes(32), 3, -1, None),
        (bytes(32), 2, 0, 0),
        (bytes(32), 2, 0, 110),
    ],
)
def test_f3_bad_deal_arguments_are_bad_format(
    seed: bytes, players: int, dealer: int, cut: int | None
) -> None:
    """Bad input to the deal gets the stable code bad_format (F7), not a bare ValueError."""
    with pytest.raises(FormatError) as info:
        deal(seed, players, dealer, cut)
    assert info.value.code == "bad_format"
    with pytest.raises(FormatError):
        State.new_round(seed, Rules(players=players), dealer, cut)
