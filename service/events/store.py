"""The event's standings in Redis, folded in one verified result at a time (docs/EVENTS.md,
"The store"). Flask-free: the workers' verification and the pages read and write it alike.

A fold is one script of O(log n) commands: the result joins its deal's sorted set (player ->
score) and its deal's histogram (score -> count), the player's count of deals and latest finish
move, and a player who has now finished every deal joins the complete set. Nobody else's entry is
rewritten: a player's matchpoints on a deal are rank queries on the deal's sorted set at read
time (``deal_result``), and the standings are computed from the histograms' counts
(``standings``), exactly as ``scoring.standings`` computes them by brute force.

Every key of one event shares the hash tag ``{ev:GAME:WEEK}``: one slot on a Redis Cluster."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

import redis

if TYPE_CHECKING:
    from redis.commands.core import Script

from engine.core.events import EVENT_DEALS
from service.common.keys import PREFIX
from service.events.scoring import Standing

#: KEYS: the deal's scores (zset), its histogram (hash), deals done (hash), latest finish (hash),
#: the complete players (zset player -> latest finish). ARGV: player, score, finish ms, deals.
#: Answers 1 when folded, 0 when the player's result on the deal was already in (a retried job).
FOLD_LUA: Final = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
local done = redis.call('HINCRBY', KEYS[3], ARGV[1], 1)
local last = redis.call('HGET', KEYS[4], ARGV[1])
if not last or tonumber(ARGV[3]) > tonumber(last) then
  last = ARGV[3]
  redis.call('HSET', KEYS[4], ARGV[1], last)
end
if done == tonumber(ARGV[4]) then redis.call('ZADD', KEYS[5], last, ARGV[1]) end
return 1
"""


_script: list[Script] = []


def tag(game: str, week: str) -> str:
    """The hash tag every key of one event carries."""
    return f"{PREFIX}:{{ev:{game}:{week}}}"


def deal_key(game: str, week: str, n: int) -> str:
    """Zset player -> score on deal ``n``."""
    return f"{tag(game, week)}:d{n}"


def histogram_key(game: str, week: str, n: int) -> str:
    """Hash score -> how many players scored it on deal ``n``."""
    return f"{tag(game, week)}:h{n}"


def done_key(game: str, week: str) -> str:
    """Hash player -> deals folded in."""
    return f"{tag(game, week)}:done"


def last_key(game: str, week: str) -> str:
    """Hash player -> the latest finish (ms) of their folded results."""
    return f"{tag(game, week)}:last"


def complete_key(game: str, week: str) -> str:
    """Zset player -> latest finish (ms), the players who finished every deal."""
    return f"{tag(game, week)}:complete"


def expire(client: redis.Redis[str], game: str, week: str, seconds: int) -> None:
    """The event's counts (every deal's scores and histogram, the entrants' counts, finishes and
    the complete set) live ``seconds`` more: once the final standings are kept, the retention
    (docs/EVENTS.md, "Retention")."""
    pipe = client.pipeline(transaction=False)
    for n in range(1, EVENT_DEALS + 1):
        pipe.expire(deal_key(game, week, n), seconds)
        pipe.expire(histogram_key(game, week, n), seconds)
    for key in (done_key(game, week), last_key(game, week), complete_key(game, week)):
        pipe.expire(key, seconds)
    pipe.execute()


def fold(
    client: redis.Redis[str], game: str, week: str, player: str, n: int, score: int, at: int
) -> bool:
    """Fold one verified result in (once: False when this player's deal ``n`` is already in)."""
    if not 1 <= n <= EVENT_DEALS:
        raise ValueError(f"deal {n} is not 1 … {EVENT_DEALS}")
    keys = [
        deal_key(game, week, n),
        histogram_key(game, week, n),
        done_key(game, week),
        last_key(game, week),
        complete_key(game, week),
    ]
    args = [player, int(score), int(at), EVENT_DEALS]
    if not _script:
        _script.append(client.register_script(FOLD_LUA))
    return bool(_script[0](keys=keys, args=args, client=client))


@dataclass(frozen=True)
class DealResult:
    """A player's result on one deal against the field: ``beaten`` and ``tied`` of ``others``."""

    score: int
    beaten: int
    tied: int
    others: int

    @property
    def percent(self) -> Fraction:
        """Matchpoints as a percentage of the others (50 alone), as ``scoring.percentage``."""
        if self.others == 0:
            return Fraction(50)
        return Fraction(100 * (2 * self.beaten + self.tied), 2 * self.others)


def deal_result(
    client: redis.Redis[str], game: str, week: str, player: str, n: int
) -> DealResult | None:
    """The player's matchpoints on deal ``n`` by three rank queries (None before their result)."""
    key = deal_key(game, week, n)
    raw = client.zscore(key, player)
    if raw is None:
        return None
    score = int(raw)
    pipe = client.pipeline(transaction=True)
    pipe.zcount(key, "-inf", f"({score}")
    pipe.zcount(key, score, score)
    pipe.zcard(key)
    below, equal, total = pipe.execute()
    return DealResult(score, int(below), int(equal) - 1, int(total) - 1)


def deal_results(
    client: redis.Redis[str], game: str, week: str, player: str, deals: list[int]
) -> dict[int, DealResult]:
    """:func:`deal_result` of several deals in two round trips (the event's progress): the
    player's scores, then the rank queries of those that have one."""
    pipe = client.pipeline(transaction=False)
    for n in deals:
        pipe.zscore(deal_key(game, week, n), player)
    scores = {n: int(raw) for n, raw in zip(deals, pipe.execute(), strict=True) if raw is not None}
    if not scores:
        return {}
    pipe = client.pipeline(transaction=True)  # one slot: the event's hash tag
    for n, score in scores.items():
        key = deal_key(game, week, n)
        pipe.zcount(key, "-inf", f"({score}")
        pipe.zcount(key, score, score)
        pipe.zcard(key)
    counts = pipe.execute()
    found = {}
    for i, (n, score) in enumerate(scores.items()):
        below, equal, total = counts[3 * i : 3 * i + 3]
        found[n] = DealResult(score, int(below), int(equal) - 1, int(total) - 1)
    return found


def distribution(client: redis.Redis[str], game: str, week: str, n: int) -> dict[int, int]:
    """The field's scores on deal ``n``: score -> players, lowest first."""
    raw: Mapping[Any, Any] = client.hgetall(histogram_key(game, week, n))
    return {int(s): int(c) for s, c in sorted(raw.items(), key=lambda item: int(item[0]))}


@dataclass(frozen=True)
class _Deal:
    """One deal's counts: half-matchpoints per score, the denominator, the top score."""

    halves: dict[int, int]
    denominator: int
    top: int


def _deal_counts(histogram: Mapping[int, int]) -> _Deal:
    """Per distinct score ``s``: 2·(players below s) + (players on s − 1), over 2·(n − 1); a
    lone player's 1 over 2 is scoring's 50 %."""
    halves = {}
    below = 0
    for score in sorted(histogram):
        count = histogram[score]
        halves[score] = 2 * below + count - 1
        below += count
    others = below - 1
    if not others:
        return _Deal(dict.fromkeys(halves, 1), 2, max(histogram))
    return _Deal(halves, 2 * others, max(histogram))


def standings(
    client: redis.Redis[str], game: str, week: str
) -> tuple[list[Standing], dict[str, int]]:
    """The standings from the counts, best first (``scoring``'s order), and the incomplete
    players (player -> deals finished)."""
    pipe = client.pipeline(transaction=True)
    for n in range(1, EVENT_DEALS + 1):
        pipe.hgetall(histogram_key(game, week, n))
        pipe.zrange(deal_key(game, week, n), 0, -1, withscores=True)
    pipe.hgetall(done_key(game, week))
    pipe.zrange(complete_key(game, week), 0, -1, withscores=True)
    *per_deal, done, complete = pipe.execute()
    incomplete = {p: int(c) for p, c in done.items() if int(c) < EVENT_DEALS}
    if not complete:
        return [], incomplete
    deals = []
    scores = []
    for n in range(EVENT_DEALS):
        histogram, entries = per_deal[2 * n], per_deal[2 * n + 1]
        deals.append(_deal_counts({int(s): int(c) for s, c in histogram.items()}))
        scores.append({p: int(s) for p, s in entries})
    common = math.lcm(*(d.denominator for d in deals))
    weights = [common // d.denominator for d in deals]
    whole = common * EVENT_DEALS
    rows = []
    for player, finished in complete:
        key = 0
        tops = 0
        for deal, weight, mine in zip(deals, weights, scores, strict=True):
            score = mine[player]
            key += deal.halves[score] * weight
            tops += score == deal.top
        rows.append((-key, -tops, int(finished), player))
    rows.sort()  # Standing.order's, on the integer numerators over one common denominator
    lines = [Standing(p, Fraction(-100 * k, whole), -t, f) for k, t, f, p in rows]
    return lines, incomplete
