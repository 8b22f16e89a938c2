"""The event's incremental standings (service/events/store.py) against the brute-force reference
(service/events/scoring.py), on a real redis-server (docs/EVENTS.md, issue 42's scoring)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.events import EVENT_DEALS
from service.events import scoring, store

GAME, WEEK = "pikdame", "2026-W50"

#: player -> deal -> (score, finish ms); few distinct scores, so ties are common.
FIELDS = st.dictionaries(
    st.sampled_from([f"p{i}" for i in range(9)]),
    st.dictionaries(
        st.integers(1, EVENT_DEALS),
        st.tuples(st.integers(-3, 3), st.integers(1, 5)),
        min_size=EVENT_DEALS - 1,
        max_size=EVENT_DEALS,
    ),
    max_size=9,
)


def fold_all(rdb: redis.Redis[str], field: dict[str, dict[int, tuple[int, int]]]) -> None:
    """Fold every result in, deal by deal across players (the order verifications arrive in)."""
    for n in range(1, EVENT_DEALS + 1):
        for player, results in field.items():
            if n in results:
                score, at = results[n]
                assert store.fold(rdb, GAME, WEEK, player, n, score, at)


def test_percentage_is_matchpoints_over_the_others() -> None:
    """Issue 42: beat 2, tie 1 of 4 others: (2 + ½) / 4 = 62.5 %; alone on a deal: 50 %."""
    assert scoring.percentage(10, [5, 5, 10, 20]) == Fraction(125, 2)
    assert scoring.percentage(10, []) == 50
    assert scoring.percentage(-5, [-5]) == 50


def test_the_tie_breaks_in_order() -> None:
    """Equal scores: more top deals first, then the earlier finish, then the player id."""
    deals = 2
    field = {
        "late": {1: (5, 30), 2: (0, 30)},  # top on deal 1, beats early on 1, loses on 2
        "early": {1: (0, 10), 2: (5, 10)},  # top on deal 2
        "both": {1: (5, 20), 2: (5, 20)},  # top on both
    }
    lines, incomplete = scoring.standings(field, deals)
    assert incomplete == {}
    assert [line.player for line in lines] == ["both", "early", "late"]
    assert (
        lines[1].score == lines[2].score == Fraction(75, 2) and lines[1].tops == lines[2].tops == 1
    )


def test_a_fold_counts_once_and_reads_by_rank(rdb: redis.Redis[str]) -> None:
    for player, score in [("a", 10), ("b", 5), ("c", 5), ("d", 20), ("e", 10)]:
        assert store.fold(rdb, GAME, WEEK, player, 1, score, 1)
    assert not store.fold(rdb, GAME, WEEK, "a", 1, 99, 2)  # a retried job changes nothing
    result = store.deal_result(rdb, GAME, WEEK, "a", 1)
    assert result == store.DealResult(10, 2, 1, 4) and result.percent == Fraction(125, 2)
    assert store.deal_result(rdb, GAME, WEEK, "z", 1) is None
    assert store.distribution(rdb, GAME, WEEK, 1) == {5: 2, 10: 2, 20: 1}
    with pytest.raises(ValueError):
        store.fold(rdb, GAME, WEEK, "a", EVENT_DEALS + 1, 0, 0)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(FIELDS)
def test_the_store_matches_the_brute_force_reference(
    rdb: redis.Redis[str], field: dict[str, dict[int, tuple[int, int]]]
) -> None:
    rdb.flushdb()
    fold_all(rdb, field)
    assert store.standings(rdb, GAME, WEEK) == scoring.standings(field, EVENT_DEALS)
    for player, results in field.items():
        for n, (score, _) in results.items():
            others = [r[n][0] for p, r in field.items() if p != player and n in r]
            found = store.deal_result(rdb, GAME, WEEK, player, n)
            assert found is not None and found.percent == scoring.percentage(score, others)
        # the progress' batched reads: the same results, none for a deal not played
        every = list(range(1, EVENT_DEALS + 1))
        batched = store.deal_results(rdb, GAME, WEEK, player, every)
        assert batched == {n: store.deal_result(rdb, GAME, WEEK, player, n) for n in results}


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_the_order_of_verifications_does_not_matter(
    rdb: redis.Redis[str], data: st.DataObject
) -> None:
    """Results verified in any order, some twice (retried jobs), give the reference's standings."""
    rdb.flushdb()
    field = data.draw(FIELDS)
    results = [(p, n, s, at) for p, mine in field.items() for n, (s, at) in mine.items()]
    arrival = data.draw(st.permutations(results))
    retried = data.draw(st.lists(st.sampled_from(results), max_size=5)) if results else []
    for player, n, score, at in [*arrival, *retried]:
        store.fold(rdb, GAME, WEEK, player, n, score, at)
    assert store.standings(rdb, GAME, WEEK) == scoring.standings(field, EVENT_DEALS)
