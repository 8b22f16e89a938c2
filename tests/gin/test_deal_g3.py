"""G3: the seeded deal. Golden vectors, and an independent tiny reference implementation of G3
(F3's stream and ``uniform`` written out again here) compared on many seeds and hands."""

from __future__ import annotations

import hashlib

import pytest

from engine.core.errors import FormatError
from engine.gin.cards import NAMES
from engine.gin.deal import deal, hand_seed
from engine.gin.state import HandState


def reference_deal(
    seed: bytes, hand: int, dealer: int
) -> tuple[list[str], list[str], str, list[str]]:
    """G3 from its text alone: S_h, the F3 stream, Fisher–Yates 51 … 1, one card at a time to
    the non-dealer first, the 21st card up, the rest the stock (top first)."""
    s_h = hashlib.sha256(seed + b"gin/hand/" + hand.to_bytes(4, "big")).digest()
    stream = b"".join(hashlib.sha256(s_h + i.to_bytes(8, "big")).digest() for i in range(64))
    pos = 0

    def uniform(n: int) -> int:
        nonlocal pos
        limit = 2**32 - (2**32 % n)
        while True:
            u = int.from_bytes(stream[pos : pos + 4], "big")
            pos += 4
            if u < limit:
                return u % n

    a = list(range(52))
    for i in range(51, 0, -1):
        j = uniform(i + 1)
        a[i], a[j] = a[j], a[i]
    name = [("A23456789TJQK"[c % 13] + "SHDC"[c // 13]) for c in a]
    hands: list[list[str]] = [[], []]
    seat = 1 - dealer
    for k in range(20):
        hands[seat].append(name[k])
        seat = 1 - seat
    return hands[0], hands[1], name[20], name[21:]


GOLDEN = [
    # (seed, hand, dealer, seat 0's cards in deal order, seat 1's, upcard, stock top)
    (
        bytes(32),
        1,
        1,
        "TD QS 5S 5D 8H 3H 6H 4C 6C QH",
        "JS 5H 9S 3D 5C 2C 7H KS 3C AC",
        "3S",
        "TH",
    ),
    (
        bytes(range(32)),
        2,
        0,
        "KC AH QH 8S 4D TS JC 7C 6D 5H",
        "TC 2H 2D 4H JD KD 6C QD 3D 9C",
        "8C",
        "AD",
    ),
    (
        hashlib.sha256(b"gin").digest(),
        7,
        1,
        "9C KS 9D 6D KC 9H KD 9S AC 5D",
        "7S 2C TD QS 7C JC 8D AD TH TS",
        "4D",
        "3S",
    ),
]


@pytest.mark.parametrize(("seed", "hand", "dealer", "h0", "h1", "up", "top"), GOLDEN)
def test_g3_golden_deals(
    seed: bytes, hand: int, dealer: int, h0: str, h1: str, up: str, top: str
) -> None:
    d = deal(seed, hand, dealer)
    assert [NAMES[c] for c in d.hands[0]] == h0.split()
    assert [NAMES[c] for c in d.hands[1]] == h1.split()
    assert NAMES[d.upcard] == up
    assert NAMES[d.stock[0]] == top
    assert (list(h0.split()), list(h1.split()), up) == reference_deal(seed, hand, dealer)[:3]


def test_g3_matches_the_reference_on_many_seeds() -> None:
    for k in range(60):
        seed = hashlib.sha256(f"gin-ref/{k}".encode()).digest()
        hand, dealer = 1 + k % 9, k % 2
        d = deal(seed, hand, dealer)
        ours = (
            [NAMES[c] for c in d.hands[0]],
            [NAMES[c] for c in d.hands[1]],
            NAMES[d.upcard],
            [NAMES[c] for c in d.stock],
        )
        assert ours == reference_deal(seed, hand, dealer)


def test_g3_sizes_and_every_card_once() -> None:
    d = deal(bytes(32), 3, 0)
    assert len(d.hands[0]) == len(d.hands[1]) == 10 and len(d.stock) == 31
    assert sorted([*d.hands[0], *d.hands[1], d.upcard, *d.stock]) == list(range(52))


def test_g3_hand_seeds_differ_per_hand() -> None:
    seeds = {hand_seed(bytes(32), h) for h in range(1, 50)}
    assert len(seeds) == 49


def test_g3_the_dealer_only_decides_who_gets_the_first_card() -> None:
    a, b = deal(bytes(32), 1, 0), deal(bytes(32), 1, 1)
    assert a.hands == (b.hands[1], b.hands[0])
    assert a.upcard == b.upcard and a.stock == b.stock


def test_g4_new_hand_offers_the_upcard_to_the_non_dealer() -> None:
    s = HandState.new(bytes(32), 1, 1)
    assert (s.turn, s.phase, len(s.discard), len(s.stock)) == (0, "upcard", 1, 31)


@pytest.mark.parametrize(("seed", "hand"), [(bytes(31), 1), (bytes(32), 0), (bytes(32), 2**32)])
def test_g3_bad_seed_or_hand_is_bad_format(seed: bytes, hand: int) -> None:
    with pytest.raises(FormatError) as info:
        deal(seed, hand, 0)
    assert info.value.code == "bad_format"
