"""Hypothesis properties of Gin over random legal play from random seeds: cards are conserved,
legal moves are exactly the accepted moves, a rejected move changes nothing, replay = play."""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import EngineError
from engine.gin.bots import choose_move
from engine.gin.cards import from_mask
from engine.gin.match import GinMatch, Seat
from engine.gin.melds import deadwood_of, meld_collections
from engine.gin.moves import Move
from engine.gin.replay import replay
from engine.gin.rules import KNOCK_LIMIT, card_of
from engine.gin.state import HandState
from engine.gin.view import view
from tests.support.gin_positions import snapshot

HUMANS = (Seat("human", name="A"), Seat("human", name="B"))


def key(m: Move) -> tuple[Any, ...]:
    """A move's normal form: the same groups in another order, the same lay-offs in another
    (valid) order, are the same move."""
    return (m.kind, m.card, tuple(sorted(m.groups)), tuple(sorted(m.layoffs)))


def conserved(s: HandState) -> None:
    cards = [*from_mask(s.hands[0]), *from_mask(s.hands[1]), *s.stock, *s.discard]
    if s.knock is not None:
        cards.append(card_of(s.knock))
    assert sorted(cards) == list(range(52))
    for seat in (0, 1):
        assert not s.took[seat] & ~s.hands[seat]


def candidates(s: HandState) -> list[Move]:
    """Moves to try: every simple move, every discard, and each legal knock or defence with a
    near miss (another card, a group or lay-off dropped)."""
    out = [Move("pass"), Move("take"), Move("draw")]
    out += [Move("discard", c) for c in range(52)]
    for m in s.legal_moves():
        if m.kind == "knock":
            assert m.card is not None
            out.append(m)
            out.append(Move("knock", (m.card + 1) % 52, m.groups))
            out.append(Move("knock", m.card, m.groups[1:]))
        elif m.kind == "defend":
            out.append(m)
            out.append(Move("defend", None, m.groups, m.layoffs[1:]))
            out.append(Move("defend", None, m.groups, m.layoffs[::-1]))
            out.append(Move("defend", None, m.groups[1:], m.layoffs))
    return out


def walk(seed: bytes, dealer: int, picks: list[int], checks: bool) -> HandState:
    s = HandState.new(seed, 1, dealer)
    conserved(s)
    for p in picks:
        if s.outcome is not None:
            break
        legal = s.legal_moves()
        if checks:
            legal_keys = {key(m) for m in legal}
            legal_texts = {str(m) for m in legal}
            for m in candidates(s):
                before = snapshot(s)
                accepted = s.is_legal(m)
                if str(m) in legal_texts:  # every legal move is accepted
                    assert accepted, str(m)
                if accepted:  # every accepted move is a legal move (in some order)
                    assert key(m) in legal_keys, str(m)
                if not accepted:
                    with contextlib.suppress(EngineError):
                        s.push(m)
                    assert snapshot(s) == before
        for m in legal[:12]:  # every legal move is accepted (on a copy)
            s.copy().push(m)
        playable = [m for m in legal if m.kind != "resign"]
        knocks = [m for m in playable if m.kind == "knock"]
        if p % 3 == 0:  # a bot's move every third pick or so: hands get to knocks and defences
            s.push(choose_move("strong", view(s, s.turn)))
        elif knocks and p % 2 == 0:
            s.push(knocks[p % len(knocks)])
        else:
            s.push(playable[p % len(playable)])
        conserved(s)
    return s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.binary(min_size=32, max_size=32),
    st.integers(0, 1),
    st.lists(st.integers(0, 1000), min_size=20, max_size=120),
)
def test_cards_conserved_and_legal_equals_accepted(
    seed: bytes, dealer: int, picks: list[int]
) -> None:
    walk(seed, dealer, picks, checks=True)


@settings(max_examples=60, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.integers(0, 1),
    st.lists(st.integers(0, 1000), min_size=60, max_size=400),
)
def test_random_play_reaches_an_outcome_or_keeps_going_legally(
    seed: bytes, dealer: int, picks: list[int]
) -> None:
    s = walk(seed, dealer, picks, checks=False)
    assert HandState.from_position(s.to_position()).to_position() == s.to_position()


@settings(max_examples=30, deadline=None)
@given(
    st.binary(min_size=32, max_size=32), st.lists(st.integers(0, 1000), min_size=60, max_size=300)
)
def test_replay_equals_play(seed: bytes, picks: list[int]) -> None:
    match = GinMatch.start(seed, HUMANS)
    for p in picks:
        if match.finished:
            break
        seat = match.state.turn
        moves = [m for m in match.state.legal_moves() if m.kind != "resign"]
        match.play(moves[p % len(moves)], seat)
    again = replay(match.to_record(reveal_seed=True))
    assert again.to_json() == match.to_json()


@settings(max_examples=40, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.lists(st.integers(0, 1000), min_size=10, max_size=60),
    st.lists(st.text(max_size=12), min_size=1, max_size=5),
)
def test_rejected_text_changes_nothing(seed: bytes, picks: list[int], texts: list[str]) -> None:
    s = HandState.new(seed, 1, 1)
    for p in picks:
        if s.outcome is not None:
            break
        for t in texts:
            before = snapshot(s)
            try:
                s.push(t, p % 3)
            except EngineError:
                assert snapshot(s) == before
            if s.outcome is not None:
                return
        moves = [m for m in s.legal_moves() if m.kind != "resign"]
        if s.outcome is None:
            s.push(moves[p % len(moves)])


def test_conservation_helper_sees_a_lost_card() -> None:
    s = HandState.new(bytes(32), 1, 1)
    s.stock.pop()
    try:
        conserved(s)
    except AssertionError:
        return
    raise AssertionError("a lost card went unnoticed")


def brute_force_knocks(s: HandState) -> set[str]:
    """G6 by enumeration, without legal_moves' bounds: every discard but the card just taken,
    with every collection of disjoint melds of the rest whose deadwood is at most 10."""
    hand = s.hands[s.turn]
    found = set()
    for c in from_mask(hand):
        if c == s.taken:
            continue
        rest = hand & ~(1 << c)
        for melds in meld_collections(rest):
            if deadwood_of(rest, melds) <= KNOCK_LIMIT:
                found.add(str(Move("knock", c, tuple(tuple(from_mask(m)) for m in melds))))
    return found


@settings(max_examples=60, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.integers(0, 1),
    st.lists(st.integers(0, 1000), min_size=20, max_size=200),
)
def test_g6_every_knock_is_listed_whatever_prunes_the_search(
    seed: bytes, dealer: int, picks: list[int]
) -> None:
    """legal_moves skips a discard whose deadwood cannot reach 10 (a bound from the cards outside
    every meld, then the exact minimum): it must list exactly the knocks plain enumeration finds."""
    s = HandState.new(seed, 1, dealer)
    for p in picks:
        if s.outcome is not None:
            break
        legal = s.legal_moves()
        if s.phase == "discard":
            assert {str(m) for m in legal if m.kind == "knock"} == brute_force_knocks(s)
        playable = [m for m in legal if m.kind != "resign" and m.kind != "knock"] or legal[:1]
        # the strong bot now and then, so hands grow melds and knocks come into reach
        move = choose_move("strong", view(s, s.turn)) if p % 3 == 0 else playable[p % len(playable)]
        s.push(move)
