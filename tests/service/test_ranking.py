"""R11's ranking key: exact in a double, ordered score desc, then fewer turns, then earlier."""

from __future__ import annotations

import redis
from hypothesis import given
from hypothesis import strategies as st

from service.dailies.ranking import decode_key, rank_key

ENTRY = st.tuples(st.integers(-2400, 2400), st.integers(0, 300), st.integers(0, 26 * 3600 * 1000))


@given(ENTRY)
def test_key_is_exact_and_reversible(entry: tuple[int, int, int]) -> None:
    key = rank_key(*entry)
    assert key < 2**53 and float(key) == key
    assert decode_key(float(key)) == entry


@given(ENTRY, ENTRY)
def test_key_order_is_r11(a: tuple[int, int, int], b: tuple[int, int, int]) -> None:
    def better(x: tuple[int, int, int]) -> tuple[int, int, int]:
        return (x[0], -x[1], -x[2])  # higher score, then fewer turns, then earlier finish

    assert (rank_key(*a) > rank_key(*b)) == (better(a) > better(b))


def test_redis_orders_adjacent_keys_exactly(rdb: redis.Redis[str]) -> None:
    """Keys one millisecond apart at the top of the range survive the trip through Redis."""
    entries: dict[str | bytes, float] = {
        "late": rank_key(2400, 0, 1001),
        "early": rank_key(2400, 0, 1000),
        "more-turns": rank_key(2400, 1, 0),
        "lower": rank_key(2399, 0, 0),
    }
    rdb.zadd("pd:test:rank", entries)
    assert rdb.zrevrange("pd:test:rank", 0, -1) == ["early", "late", "more-turns", "lower"]
    for member, key in entries.items():
        assert rdb.zscore("pd:test:rank", member) == key
