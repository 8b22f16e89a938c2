"""Your place in the field: the matchpoint percentage and the day's score histogram.

The percentage is bridge's matchpoints: results beaten plus half the ties, divided by N − 1 (the
other results). Scores alone count (not R11's tie-breaks): the day's rank keys
(service.dailies.ranking) put a score's keys in one contiguous range, so "beaten" and "tied" are two
ZCOUNTs and N one ZCARD, each O(log n) on the day's sorted set. The histogram is a hash of score
buckets maintained when an attempt is ranked (worker.verify.RANK_LUA), read in one HGETALL whose
size is the number of buckets, never the number of players (bench/results/field.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import redis
from redis.client import Pipeline

from service import games
from service.common import keys
from service.dailies import ranking

BUCKET: Final = 10  # points per histogram bar
LOW_BITS: Final = ranking.TURN_BITS + ranking.TIME_BITS


def score_range(score: int) -> tuple[int, int]:
    """The lowest and highest rank key any attempt with ``score`` can have."""
    low = ranking.rank_key(score, ranking.TURN_MAX, ranking.TIME_MAX)
    return low, low | ((1 << LOW_BITS) - 1)


def bucket_of(score: int) -> int:
    """The histogram bar of a score: the bar's lowest score (floor to BUCKET)."""
    return (score // BUCKET) * BUCKET


@dataclass(frozen=True)
class Place:
    """One score's place among the day's verified results (itself excluded when ``ranked``)."""

    score: int
    beaten: int
    ties: int
    others: int  # N − 1

    @property
    def percentage(self) -> float | None:
        """Matchpoints in per cent, one decimal (halves up, in integers: the same figure as
        PLACES_LUA); None with nobody to compare with."""
        if self.others <= 0:
            return None
        per_mille = (2000 * self.beaten + 1000 * self.ties + self.others) // (2 * self.others)
        return per_mille / 10


def queue_place(pipe: Pipeline[str], date: str, score: int, game: str = games.DEFAULT) -> None:
    """Queue the three O(log n) reads :func:`place_from` turns into a :class:`Place`."""
    low, high = score_range(score)
    board = keys.day_rank(date, game)
    pipe.zcount(board, "-inf", f"({low}")
    pipe.zcount(board, low, high)
    pipe.zcard(board)


def place_from(score: int, replies: list[int], ranked: bool) -> Place:
    """The place from :func:`queue_place`'s replies; ``ranked``: the score is on the board
    itself (a verified attempt), so it is no tie with itself; else it is compared as if added."""
    beaten, equal, total = (int(r) for r in replies)
    if ranked:
        return Place(score, beaten, max(equal - 1, 0), total - 1)
    return Place(score, beaten, equal, total)


def place(
    client: redis.Redis[str], date: str, score: int, ranked: bool, game: str = games.DEFAULT
) -> Place:
    pipe = client.pipeline(transaction=False)
    queue_place(pipe, date, score, game)
    return place_from(score, pipe.execute(), ranked)


# Many places at once (a league board: members × days), in one round trip: for each (board,
# score) pair the same three O(log n) reads as :func:`queue_place`, run in Redis. Returns
# per mille (an integer) or -1 with nobody to compare with.
PLACES_LUA: Final = """
local out = {}
for i = 1, #ARGV, 3 do
  local board = KEYS[tonumber(ARGV[i])]
  local low, high = ARGV[i + 1], ARGV[i + 2]
  local beaten = redis.call('ZCOUNT', board, '-inf', '(' .. low)
  local ties = redis.call('ZCOUNT', board, low, high) - 1
  local others = redis.call('ZCARD', board) - 1
  if others <= 0 then out[#out + 1] = -1
  else out[#out + 1] = math.floor((2000 * beaten + 1000 * ties + others) / (2 * others)) end
end
return out
"""


def places(
    client: redis.Redis[str], results: list[tuple[str, int]], game: str = games.DEFAULT
) -> list[float | None]:
    """Matchpoint percentages (one decimal) of verified ``(date, score)`` results of daily game
    ``game``, in one round trip however many (each ranked on its day's board, so no tie with
    itself)."""
    if not results:
        return []
    days = sorted({d for d, _ in results})
    index = {d: i + 1 for i, d in enumerate(days)}
    args: list[int] = []
    for d, score in results:
        args += [index[d], *score_range(score)]
    board_keys = [keys.day_rank(d, game) for d in days]
    replies = client.eval(PLACES_LUA, len(board_keys), *board_keys, *args)  # type: ignore[no-untyped-call]
    return [None if int(r) < 0 else int(r) / 10 for r in replies]


def histogram(
    client: redis.Redis[str], date: str, game: str = games.DEFAULT
) -> list[dict[str, int]]:
    """The day's verified scores as bars ``{"from", "to", "count"}``, lowest first."""
    counts = client.hgetall(keys.day_histogram(date, game))
    bars = sorted((int(b), int(n)) for b, n in counts.items())
    return [{"from": b, "to": b + BUCKET - 1, "count": n} for b, n in bars if n > 0]
