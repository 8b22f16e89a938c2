"""Tausende's deal (R12.1 with F3 over 108 ids) against an independent reference, the command
line (F7 with --rules tausende), records (F6) and hypothesis properties under the ruleset."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import CARDS
from engine.pikdame.bots import choose_move
from engine.pikdame.errors import PikDameError
from engine.pikdame.game import Game
from engine.pikdame.rules import LEVELS, Rules, Seat
from engine.pikdame.state import State
from engine.pikdame.view import view
from tests.support.engine_cli import run

RULES = Rules(players=3, ruleset="tausende")
NAMES = [r + s for s in "SHDC" for r in "A23456789TJQK"]


def ref_deal(
    seed: bytes, players: int, dealer: int, cut: int
) -> tuple[list[list[str]], str, list[str]]:
    """F3 over 108 ids written from the spec alone: SHA-256 blocks, uniform, Fisher–Yates,
    the cut, 13 cards round from dealer+1, the next card face up (R12.1)."""
    buf = b""
    block = 0

    def u32() -> int:
        nonlocal buf, block
        while len(buf) < 4:
            buf += hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
            block += 1
        value, buf = int.from_bytes(buf[:4], "big"), buf[4:]
        return value

    def uniform(n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            u = u32()
            if u < limit:
                return u % n

    a = list(range(108))
    for i in range(107, 0, -1):
        j = uniform(i + 1)
        a[i], a[j] = a[j], a[i]
    r = a[cut:] + a[:cut]
    name = [NAMES[i % 52] if i < 104 else "X" for i in r]
    hands: list[list[str]] = [[] for _ in range(players)]
    p = 0
    for _ in range(13):
        for k in range(players):
            hands[(dealer + 1 + k) % players].append(name[p])
            p += 1
    return hands, name[p], name[p + 1 :]


def test_r12_1_deal_matches_the_reference_golden_vectors() -> None:
    for seed_text, players, dealer, cut in (("a", 2, 0, 1), ("b", 3, 2, 57), ("c", 4, 3, 107)):
        seed = hashlib.sha256(seed_text.encode()).digest()
        hands, face_up, stock = ref_deal(seed, players, dealer, cut)
        doc = State.new_round(
            seed, Rules(players=players, ruleset="tausende"), dealer, cut
        ).to_position()
        assert [sorted(h) for h in doc["hands"]] == [sorted(h) for h in hands]
        assert doc["discard"] == [face_up] and doc["stock"] == stock


def cli(*args: str, stdin: str = "") -> tuple[int, Any]:
    code, out, _ = run(*args, stdin=stdin)
    return code, out


def test_f7_deal_check_replay_with_rules_tausende() -> None:
    seed = hashlib.sha256(b"t").digest()
    deal_args = ["deal", "--seed", seed.hex(), "--players", "2", "--dealer", "1", "--rules"]
    code, doc = cli(*deal_args, "tausende", "--cut", "9")
    assert code == 0 and doc["rules"]["ruleset"] == "tausende" and len(doc["hands"][0]) == 13
    code, out = cli(*deal_args, "tausende", "--cut", "108")
    assert code == 2
    hand = doc["hands"][0]
    code, out = cli(
        "check",
        stdin=json.dumps({"position": doc, "moves": [f"swap-up {hand[0]}", "draw", "discard QS"]}),
    )
    assert out["results"][0]["ok"] and out["results"][1]["ok"]
    assert code == 3 and out["results"][2]["error"]["code"] in ("queen_kept", "card_not_in_hand")
    seats = (Seat("bot", level="zen"), Seat("bot", level="advanced"))
    game = Game.start(seed, Rules(players=2, ruleset="tausende"), seats, dealer=1)
    record = game.to_record(seed)
    assert record["rules"]["ruleset"] == "tausende" and "tausende-bots" in record["engine"]
    code, out = cli("replay", stdin=json.dumps(record))
    assert code == 0 and out["ok"] and out["result"] == record["result"]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.lists(st.integers(0, 10**6), max_size=150))
def test_properties_under_tausende(seed_int: int, players: int, picks: list[int]) -> None:
    """Cards conserved (108), legal moves are accepted, a rejected move changes nothing,
    replay of the history reproduces the play (positions round-trip)."""
    seed = hashlib.sha256(seed_int.to_bytes(8, "big")).digest()
    rules = Rules(players=players, ruleset="tausende")
    s = State.new_round(seed, rules, 0)
    for pick in picks:
        if s.finished:
            break
        moves = list(s.legal_moves(max_meld=4))
        assert moves
        before = s.to_position()
        for probe in ("discard QS", "take 2C 3C 4C", "lay 5H 1.1", "swap-up QS", "pass"):
            if probe not in {str(m) for m in moves}:
                try:
                    s.push(probe)
                except PikDameError:
                    assert s.to_position() == before
                    continue
                raise AssertionError(f"{probe} accepted but not listed")
        move = moves[pick % len(moves)]
        if move.kind == "resign" and len(moves) > 1:
            move = moves[(pick + 1) % len(moves)]
        s.push(move)
        assert s.card_count() == 108
        assert (
            State.from_position(json.loads(json.dumps(s.to_position()))).to_position()
            == s.to_position()
        )
    again = State.new_round(seed, rules, 0)
    for seat, text in s.history:
        again.push(text, seat)
    assert again.to_position() == s.to_position()


def test_r10_tausende_bots_deterministic_and_blind() -> None:
    """The same view gives the same move; hidden cards (other hands, the stock) change nothing."""
    seed = hashlib.sha256(b"blind").digest()
    for level in LEVELS:
        s = State.new_round(seed, RULES, 0)
        for _ in range(60):
            if s.finished:
                break
            v = view(s, s.turn)
            move = choose_move(level, v)
            assert choose_move(level, v) == move
            other = s.copy()  # another deck behind the same view: stock reversed, a card
            other.stock.reverse()  # of the next hand exchanged with the stock's bottom
            nxt = (s.turn + 1) % 3
            given = next(c for c in range(53) if other.hands[nxt][c])
            other.hands[nxt][given] -= 1
            other.hands[nxt][other.stock[0]] += 1
            other.stock[0] = CARDS[given]
            assert view(other, s.turn) == v
            assert choose_move(level, view(other, s.turn)) == move
            s.push(move)


def test_tausende_game_type_for_tables() -> None:
    """What the tables need (API.md "Tables"): a game type that deals and reads Tausende."""
    from engine.pikdame.game import PIKDAME, TAUSENDE

    state = TAUSENDE.new_round(hashlib.sha256(b"table").digest(), Rules(players=3), 0)
    assert state.rules.tausende and state.card_count() == 108
    assert str(TAUSENDE.parse_move("swap-up 5c")) == "swap-up 5C"
    assert str(TAUSENDE.parse_move("lay 5C 2.1")) == "lay 5C 2.1"
    assert TAUSENDE.name == "tausende" and PIKDAME.name == "pikdame"
    try:
        PIKDAME.parse_move("swap-up 5C")
    except PikDameError as e:
        assert e.code == "syntax"
    else:
        raise AssertionError("Pik Dame has no swap-up")
