"""Ratings per game (docs/LOBBY.md "Ratings"): openskill's Plackett–Luce model, one rating per
account and table game, moved once by each finished rated table.

Why Plackett–Luce: a Pik Dame or Tausende table is a free-for-all of two to four players whose
result is an order (the final totals, R8), and Plackett–Luce rates exactly that, a ranking of any
number of players, in one update; a Gin match (G2) is its two-player case, a duel. Elo or Glicko
rate pairs only (a four-player game would be six fake duels); TrueSkill is Microsoft's method
and its Python package has had no release in years; openskill (the same Bayesian approach, Weng
and Lin's) is MIT, released regularly and rates a 4-player game in microseconds.

Deterministic given the order of the games: an update is a pure function of the ratings before it
and the places, each result rounded to :data:`DIGITS` decimals before it is stored and used again,
and the updates of one game are serialised in one transaction on the game's slot (every rating key
of a game shares the hash tag ``{r:<game>}``). Floats here are fine: ratings are not part of any
verified score.

Flask-free: settled by the table store when a rated game ends (web request or turn-timer job).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import redis
from openskill.models import PlackettLuce

from service.common import keys, metrics
from service.dailies.store import transaction

MODEL: Final = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300 (openskill's defaults)
START_MU: Final = 25.0
START_SIGMA: Final = 25.0 / 3.0
DIGITS: Final = 6  # every stored mu and sigma is rounded to this many decimals
#: A rating is provisional until this many rated games: shown with "?" and kept off the board.
PROVISIONAL_GAMES: Final = 10
#: The shown rating: 1500 + 40 (mu - 25), a familiar scale (a win over an equal: about +100).
BASE: Final = 1500
SCALE: Final = 40
HISTORY: Final = 100  # rating changes kept per account and game
KEEP_SECONDS: Final = 30 * 86400  # a settled table's changes (asked again) and the pairings

# What a rated game counts (docs/LOBBY.md "What a rated game counts", issue 38: farming).
#: A rated game that ends, without a seat forfeited by the timer rule, before every account seat
#: made this many moves of its own (an agreed resignation) was no real game: it is not rated.
MIN_MOVES: Final = 10
#: Beating an account with g rated games (fewer than PROVISIONAL_GAMES: provisional; 0: brand
#: new) counts max(FRESH_WEIGHT, g / PROVISIONAL_GAMES) of the winner's full update.
FRESH_WEIGHT: Final = 0.1
#: The k-th result between the same two accounts within REPEAT_PERIOD_MS before it counts
#: REPEAT_WEIGHT ** k for both (1, 1/2, 1/4, …).
REPEAT_WEIGHT: Final = 0.5
REPEAT_PERIOD_MS: Final = 7 * 86400 * 1000
RESULTS_KEPT: Final = 2000  # the latest settled results per game, for ``pikdame suspicious``


@dataclass(frozen=True)
class Skill:
    """An account's rating in one game."""

    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> int:
        """The shown rating (integers, so rounding is the same everywhere)."""
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": self.rating,
            "provisional": self.provisional,
            "games": self.games,
            "mu": self.mu,
            "sigma": self.sigma,
        }


NEW: Final = Skill(START_MU, round(START_SIGMA, DIGITS), 0)


def shown(mu: float) -> int:
    return round(BASE + SCALE * (mu - START_MU))


@dataclass(frozen=True)
class Rated:
    """A human seat of a rated table: its account, the name it played under, its address (for
    the operator's review of repeated pairings) and its place (1 = best; equal places tie)."""

    seat: int
    account: str
    name: str
    address: str | None
    place: int


def places(totals: Sequence[int], winner: int | None, forfeits: Sequence[int]) -> list[int]:
    """Each seat's place: a seat that forfeited (resigned by the timer rule) after every other,
    then the winner, then by total, highest first (R8, G2); equal keys share a place."""

    def key(seat: int) -> tuple[int, int, int]:
        return (seat in forfeits, seat != winner if winner is not None else 0, -totals[seat])

    keyed = [key(s) for s in range(len(totals))]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]


def read(client: redis.Redis[str], game: str, account: str) -> Skill:
    stored = client.hgetall(keys.rating(game, account))
    return _skill(stored)


def _skill(stored: dict[str, str]) -> Skill:
    if not stored:
        return NEW
    return Skill(float(stored["mu"]), float(stored["sigma"]), int(stored["games"]))


def update(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Plackett–Luce's update of one game (each seat a team of one), rounded to DIGITS."""
    teams = [[MODEL.create_rating([s.mu, s.sigma])] for s in skills]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [
        Skill(round(team[0].mu, DIGITS), round(team[0].sigma, DIGITS), s.games + 1)
        for team, s in zip(after, skills, strict=True)
    ]


def weights(
    before: Sequence[Skill],
    ranks: Sequence[int],
    gained: Sequence[bool],
    met: Sequence[Sequence[int]],
) -> list[float]:
    """How much of its full update each seat's game counts (issue 38): a gain by the mean,
    over the seats it placed above, of the loser's freshness (:data:`FRESH_WEIGHT`) times the
    pair's repeat weight; a loss (or a tie) by the mean repeat weight of the seats placed above
    it (else of all). ``met[i][j]``: the results of i and j within the period before this one."""
    out = []
    for i, rank in enumerate(ranks):
        others = [j for j in range(len(ranks)) if j != i]
        if gained[i]:
            below = [j for j in others if ranks[j] > rank] or others
            factors = [
                max(FRESH_WEIGHT, min(before[j].games, PROVISIONAL_GAMES) / PROVISIONAL_GAMES)
                * REPEAT_WEIGHT ** met[i][j]
                for j in below
            ]
        else:
            above = [j for j in others if ranks[j] < rank] or others
            factors = [REPEAT_WEIGHT ** met[i][j] for j in above]
        out.append(sum(factors) / len(factors))
    return out


def weighted(before: Sequence[Skill], full: Sequence[Skill], by: Sequence[float]) -> list[Skill]:
    """``before`` moved ``by`` of the way to ``full`` (mu and sigma), rounded to DIGITS."""
    return [
        Skill(
            round(b.mu + w * (f.mu - b.mu), DIGITS),
            round(b.sigma + w * (f.sigma - b.sigma), DIGITS),
            f.games,
        )
        for b, f, w in zip(before, full, by, strict=True)
    ]


def _met(stamps: str | None, since_ms: int) -> list[int]:
    return [int(t) for t in (stamps or "").split(",") if t and int(t) > since_ms]


def settle(
    client: redis.Redis[str],
    game: str,
    table_id: str,
    seats: Sequence[Rated],
    now_ms: int,
    counts: bool = True,
) -> list[dict[str, Any]]:
    """Rate a finished rated table once: the accounts' new ratings (weighted: :func:`weights`),
    their histories, the board, the pairings and the results (for ``pikdame suspicious``).
    Returns each rated seat's change (asking again returns the same, changing nothing). Fewer
    than two accounts (bots do not rate, a deleted account no more): nothing. ``counts`` False
    (no real game: :data:`MIN_MOVES`): nothing moves, the result is noted for the review."""
    if len({s.account for s in seats}) < 2:
        return []
    settled_key = keys.rating_settled(game, table_id)
    forgotten_key = keys.rating_forgotten(game)
    meetings_key = keys.rating_meetings(game)
    watched = [keys.rating(game, s.account) for s in seats]

    wrote: list[bool] = [False]  # this call settled it (the metric counts each table once)

    def run(pipe: redis.client.Pipeline[str]) -> list[dict[str, Any]]:
        done = pipe.get(settled_key)
        wrote[0] = done is None
        if done is not None:
            return list(json.loads(str(done)))
        gone = pipe.smismember(forgotten_key, [s.account for s in seats])
        rated = [s for s, deleted in zip(seats, gone, strict=True) if not deleted]
        if len({s.account for s in rated}) < 2:
            return []
        rating_keys = [keys.rating(game, s.account) for s in rated]
        before = [_skill(pipe.hgetall(k)) for k in rating_keys]
        pairs = [[_pair(a.account, b.account) for b in rated] for a in rated]
        names = sorted({p for row in pairs for p in row if p})
        stamps = dict(zip(names, pipe.hmget(meetings_key, names), strict=True)) if names else {}
        since = now_ms - REPEAT_PERIOD_MS
        if not counts:
            pipe.multi()
            _note_result(pipe, game, table_id, rated, before, now_ms, counts)
            pipe.set(settled_key, "[]", ex=KEEP_SECONDS)
            return []
        full = update(before, [s.place for s in rated])
        met = [[len(_met(stamps.get(p), since)) if p else 0 for p in row] for row in pairs]
        gained = [f.mu > b.mu for b, f in zip(before, full, strict=True)]
        after = weighted(before, full, weights(before, [s.place for s in rated], gained, met))
        changes = [
            {
                "seat": s.seat,
                "name": s.name,
                "before": b.rating,
                "after": a.rating,
                "change": a.rating - b.rating,
                "games": a.games,
                "provisional": a.provisional,
            }
            for s, b, a in zip(rated, before, after, strict=True)
        ]
        pipe.multi()
        for s, a, change, key in zip(rated, after, changes, rating_keys, strict=True):
            stored = {"mu": repr(a.mu), "sigma": repr(a.sigma), "games": a.games, "name": s.name}
            pipe.hset(key, mapping=stored)
            board, other = keys.rating_board(game), keys.rating_board(game, provisional=True)
            pipe.zadd(other if a.provisional else board, {s.account: a.rating})
            pipe.zrem(board if a.provisional else other, s.account)
            entry = {
                "table": table_id,
                "at": now_ms,
                "place": s.place,
                "players": len(seats),
                **{k: change[k] for k in ("before", "after", "change", "provisional")},
            }
            history = keys.rating_history(game, s.account)
            pipe.lpush(history, json.dumps(entry, separators=(",", ":")))
            pipe.ltrim(history, 0, HISTORY - 1)
        pair_counts = keys.rating_pairs(game)
        for pair in pairings(rated):
            pipe.hincrby(pair_counts, pair, 1)
        pipe.expire(pair_counts, KEEP_SECONDS)
        for name in names:  # this result, for the repeat weight of the next ones
            kept = [str(t) for t in _met(stamps.get(name), since)]
            pipe.hset(meetings_key, name, ",".join([*kept, str(now_ms)]))
        pipe.expire(meetings_key, KEEP_SECONDS)
        _note_result(pipe, game, table_id, rated, before, now_ms, counts)
        pipe.set(settled_key, json.dumps(changes, separators=(",", ":")), ex=KEEP_SECONDS)
        return changes

    result: list[dict[str, Any]] = transaction(
        client, run, settled_key, forgotten_key, meetings_key, *watched
    )
    if wrote[0] and result:  # this call rated the game (an unrated one is no update)
        metrics.RATING_UPDATES.labels(game).inc()
    return result


def _pair(a: str, b: str) -> str:
    """Two accounts' pair name (sorted); '' for an account with itself."""
    return "" if a == b else "|".join(sorted((a, b)))


def _note_result(
    pipe: redis.client.Pipeline[str],
    game: str,
    table_id: str,
    seats: Sequence[Rated],
    before: Sequence[Skill],
    now_ms: int,
    counts: bool,
) -> None:
    """The result as the review sees it: who placed where with how many rated games before,
    and whether it counted (``pikdame suspicious``: fresh accounts feeding one, quick ends)."""
    entry = {
        "table": table_id,
        "at": now_ms,
        "counts": counts,
        "seats": [
            {"account": s.account, "place": s.place, "games": b.games}
            for s, b in zip(seats, before, strict=True)
        ],
    }
    results = keys.rating_results(game)
    pipe.lpush(results, json.dumps(entry, separators=(",", ":")))
    pipe.ltrim(results, 0, RESULTS_KEPT - 1)
    pipe.expire(results, KEEP_SECONDS)


def results(client: redis.Redis[str], game: str) -> list[dict[str, Any]]:
    """The latest settled results of a game (:func:`_note_result`), newest first."""
    return [json.loads(e) for e in client.lrange(keys.rating_results(game), 0, -1)]


def pairings(seats: Sequence[Rated]) -> list[str]:
    """The pairs one rated game adds to the review: every two accounts, and every two seats
    that played from one address (``addr:<address>|<address>``), each pair sorted."""
    found: list[str] = []
    accounts = sorted({s.account for s in seats})
    for i, a in enumerate(accounts):
        found.extend(f"{a}|{b}" for b in accounts[i + 1 :])
    addresses = sorted(s.address for s in seats if s.address)
    for i, a in enumerate(addresses):
        found.extend(f"addr:{a}|{b}" for b in addresses[i + 1 :] if b == a)
    return sorted(set(found))


def repeated_pairings(
    client: redis.Redis[str], games: Sequence[str], at_least: int
) -> list[dict[str, Any]]:
    """Pairs of accounts (or one address) that met in ``at_least`` rated games or more, within
    the last KEEP_SECONDS of rated play, per game, sorted."""
    found: list[dict[str, Any]] = []
    for game in games:
        for pair, count in sorted(client.hgetall(keys.rating_pairs(game)).items()):
            if int(count) < at_least:
                continue
            if pair.startswith("addr:"):
                address = pair[len("addr:") :].split("|")[0]
                found.append({"game": game, "address": address, "games": int(count)})
            else:
                found.append({"game": game, "accounts": pair.split("|"), "games": int(count)})
    return found


def board(
    client: redis.Redis[str], game: str, offset: int, limit: int, provisional: bool = False
) -> dict[str, Any]:
    """A page of the game's ratings board, best first (equal ratings by account id): the
    established players, or with ``provisional`` those with fewer than PROVISIONAL_GAMES."""
    key = keys.rating_board(game, provisional)
    pipe = client.pipeline(transaction=False)
    pipe.zcard(key)
    pipe.zrevrange(key, offset, offset + limit - 1, withscores=True)
    total, page = pipe.execute()
    pipe = client.pipeline(transaction=False)
    for account, _ in page:
        pipe.hmget(keys.rating(game, account), ["name", "games"])
    facts = pipe.execute() if page else []
    entries = []
    for n, ((_, score), (name, games)) in enumerate(zip(page, facts, strict=True)):
        entries.append(
            {
                "rank": offset + n + 1,
                "name": name or "?",
                "rating": int(score),
                "games": int(games or 0),
                "provisional": provisional,
            }
        )
    return {"game": game, "total": int(total), "provisional": provisional, "entries": entries}


def forget(client: redis.Redis[str], games: Sequence[str], account: str) -> None:
    """A deleted account leaves every game's ratings boards, with its rating and history, for
    good: it is remembered as forgotten, so a rated game settled after the deletion does not
    bring it back (its seat no longer rates). The ratings its games moved stay as they are: an
    update is not undone (nor the others' recomputed), as a deleted account's daily scores
    stay."""
    for game in games:
        pipe = client.pipeline(transaction=True)  # one game's keys share its slot
        pipe.sadd(keys.rating_forgotten(game), account)
        pipe.zrem(keys.rating_board(game), account)
        pipe.zrem(keys.rating_board(game, provisional=True), account)
        pipe.delete(keys.rating(game, account), keys.rating_history(game, account))
        pipe.execute()


def history(client: redis.Redis[str], game: str, account: str, limit: int) -> list[Any]:
    """An account's latest rating changes in one game, newest first."""
    return [json.loads(e) for e in client.lrange(keys.rating_history(game, account), 0, limit - 1)]


__all__ = [
    "FRESH_WEIGHT",
    "MIN_MOVES",
    "NEW",
    "PROVISIONAL_GAMES",
    "REPEAT_PERIOD_MS",
    "REPEAT_WEIGHT",
    "Rated",
    "Skill",
    "board",
    "forget",
    "history",
    "places",
    "read",
    "repeated_pairings",
    "results",
    "settle",
    "shown",
    "update",
    "weighted",
    "weights",
]
