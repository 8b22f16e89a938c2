"""Game state on a Redis Cluster: the keys one transaction touches share a hash tag
(one slot), and the keys stored before the tags are renamed once (``pikdame migrate-keys``)."""

from __future__ import annotations

import redis
from redis.crc import key_slot

from service.common import keys
from service.common.migrate import rename_legacy
from service.dailies import store


def slot(key: str) -> int:
    return int(key_slot(key.encode()))


def test_an_attempts_keys_share_one_slot() -> None:
    assert slot(keys.attempt("0123abcd")) == slot(keys.replay("0123abcd"))
    assert slot(keys.attempt("0123abcd")) != slot(keys.attempt("0123abce"))


def test_a_days_claim_keys_share_one_slot() -> None:
    day = "2026-11-30"
    found = {
        slot(k)
        for k in (
            keys.player_day(day, "p1"),
            keys.player_day(day, "p2"),
            keys.day_skeletons(day),
            keys.day_count(day),
            keys.day_ids(day),
        )
    }
    assert len(found) == 1


def test_legacy_keys_are_renamed_once_and_read_back(rdb: redis.Redis[str]) -> None:
    day = "2026-11-29"
    fields: dict[str | bytes, str | bytes | int | float] = {
        "id": "0123456789abcdef",
        "date": day,
        "name": "Ada",
        "player": "p:1",
        "token": "t" * 64,
        "ranked": "1",
        "status": "playing",
        "seq": "0",
        "game": "{}",
        "created": "1",
    }
    rdb.hset("pd:attempt:0123456789abcdef", mapping=fields)
    rdb.set("pd:replay:0123456789abcdef", "{}")
    rdb.set(f"pd:day:{day}:player:p:1", "0123456789abcdef")
    rdb.set(f"pd:day:{day}:attempts", "1")
    rdb.hset(f"pd:day:{day}:skeletons", "ada", "p:1")
    rdb.sadd(f"pd:day:{day}:ids", "0123456789abcdef")
    rdb.zadd(f"pd:day:{day}:rank", {"0123456789abcdef": 1.0})  # a ranking key: not renamed
    assert rename_legacy(rdb) == 6
    assert rename_legacy(rdb) == 0
    attempt = store.load(rdb, "0123456789abcdef")
    assert attempt is not None and attempt.name == "Ada"
    assert store.attempt_for_player(rdb, day, "p:1") == "0123456789abcdef"
    assert rdb.get(keys.day_count(day)) == "1"
    assert rdb.hget(keys.day_skeletons(day), "ada") == "p:1"
    assert rdb.smembers(keys.day_ids(day)) == {"0123456789abcdef"}
    assert rdb.exists(keys.replay("0123456789abcdef"))
    assert rdb.exists(f"pd:day:{day}:rank")
    assert not rdb.keys("pd:attempt:*") and not rdb.keys("pd:day:*:player:*")
