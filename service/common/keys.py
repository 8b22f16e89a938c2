"""Redis key names, namespaced under ``pd:`` and per day where they are per day.

Rankings and attempts are separate key families so they can live on different servers (Redis by
role); the RQ queue has its own ``rq:`` keys.

Game state may live on a Redis Cluster: the keys of one attempt share the hash tag
``{a:ID}`` and the state keys of one day the tag ``{d:DATE}``, so every transaction on them stays
on one slot. Keys stored before the tags (``LEGACY_PATTERNS``) are renamed once by
``service.common.migrate`` (``pikdame migrate-keys``), run between days on the single Redis.
"""

from __future__ import annotations

from typing import Final

from engine.core.analysis import ANALYSIS_VERSION
from service import games

PREFIX: Final = "pd"
FINISHED: Final = f"{PREFIX}:finished"  # zset attempt id -> finish ms, until verified/rejected
DAYS: Final = f"{PREFIX}:days"  # zset date -> ordinal, days that have attempts
ALLTIME: Final = f"{PREFIX}:alltime"  # zset player id -> sum of verified scores
ARCHIVED: Final = f"{PREFIX}:archived"  # hash attempt id -> date of its archive file
ARCHIVED_DAYS: Final = f"{PREFIX}:archived:days"  # zset date -> ordinal, days archived
RECONCILE_LOCK: Final = f"{PREFIX}:lock:reconcile"  # one worker reconciles per tick
TIMERS_LOCK: Final = f"{PREFIX}:lock:timers"  # one worker sweeps the turn timers per tick
BOTS_LOCK: Final = f"{PREFIX}:lock:bots"  # one bots worker sweeps the due bot turns per tick


ARCHIVE_RENAMES: Final = f"{PREFIX}:archive:renames"  # hash "file|attempt id" -> name, pending


def archive_lock(file: str) -> str:
    """The lock of one archive file (service.dailies.archive.file_lock): its token, with expiry."""
    return f"{PREFIX}:lock:archive:{file}"


DEFAULT: Final = games.DEFAULT  # the daily game of a key function called without one


def _game(game: str) -> str:
    """The part a daily game's key carries after its tag or day (``:<game>``); none for the
    unmarked first daily game, whose keys keep their names (docs/GIN_DAILY.md)."""
    return f":{game}" if games.get(game).marked else ""


def days_index(game: str = DEFAULT) -> str:
    """Zset date -> ordinal: the days that have ranked attempts of ``game``."""
    return DAYS + _game(game)


def alltime(game: str = DEFAULT) -> str:
    """Zset player id -> sum of verified daily scores of ``game``."""
    return ALLTIME + _game(game)


def attempt_tag(attempt_id: str) -> str:
    """The hash tag of one attempt's keys: one slot on a Redis Cluster."""
    return f"{PREFIX}:{{a:{attempt_id}}}"


def day_tag(date: str) -> str:
    """The hash tag of one day's game-state keys (the players' slots, the looks of their names,
    the count, the ids): a start claims a slot and a name in one transaction on one slot."""
    return f"{PREFIX}:{{d:{date}}}"


def attempt(attempt_id: str) -> str:
    return f"{attempt_tag(attempt_id)}:attempt"


def attempt_view(attempt_id: str) -> str:
    """String: the owner's last rendered view of an attempt, "<entity tag>\n<JSON>" (a cache with
    a time to live: service.dailies.store.save_view)."""
    return f"{attempt_tag(attempt_id)}:view"


def token(token_hash: str) -> str:
    """Which attempt a bearer token (by its SHA-256) belongs to."""
    return f"{PREFIX}:token:{token_hash}"


def player_day(date: str, player: str, game: str = DEFAULT) -> str:
    """The one ranked attempt of a player on a day (per daily game)."""
    return f"{day_tag(date)}{_game(game)}:player:{player}"


def day_seen(date: str, player: str, game: str = DEFAULT) -> str:
    """The first attempt (ranked or not) a player started of a day's daily game: that player has
    seen the day's deal and is offered no ranked attempt of it any more (service.dailies.seen)."""
    return f"{day_tag(date)}{_game(game)}:seen:{player}"


def day_count(date: str, game: str = DEFAULT) -> str:
    return f"{day_tag(date)}{_game(game)}:attempts"


def day_rank(date: str, game: str = DEFAULT) -> str:
    """Sorted set of verified attempts of a day, scored by
    :func:`service.dailies.ranking.rank_key`."""
    return f"{PREFIX}:day:{date}{_game(game)}:rank"


def player(player_id: str, game: str = DEFAULT) -> str:
    """A player's all-time facts in one daily game: name, days, best."""
    return f"{PREFIX}:player{_game(game)}:{player_id}"


def day_names(date: str, game: str = DEFAULT) -> str:
    """Hash attempt id -> player name of a day's ranked attempts, written with the rank, so a
    leaderboard page is read from the ranking keys alone (one HMGET, no attempt hashes)."""
    return f"{PREFIX}:day:{date}{_game(game)}:names"


def day_skeletons(date: str, game: str = DEFAULT) -> str:
    """Hash name skeleton (service.common.names) -> player id of a day's ranked attempts: no two
    players of a day's field (per game) may have names that look alike."""
    return f"{day_tag(date)}{_game(game)}:skeletons"


def day_ids(date: str, game: str = DEFAULT) -> str:
    """Set of the day's ranked attempt ids (what the archive writes and then lets expire)."""
    return f"{day_tag(date)}{_game(game)}:ids"


def replay(attempt_id: str) -> str:
    """A finished game's replay document (JSON), cached: it never changes once the day closed."""
    return f"{attempt_tag(attempt_id)}:replay"


def analysis(attempt_id: str, mode: str, engine: str, part: int = 1) -> str:
    """A finished attempt's analysis document (JSON) of round (hand) ``part`` in ``mode`` by
    engine version ``engine`` and the analysis's method (``ANALYSIS_VERSION``): the same
    record, engine and method give the same document (docs/ANALYSIS.md), so it is computed
    once. Part 1's key has no part number."""
    base = f"{attempt_tag(attempt_id)}:analysis:{mode}:{engine}:{ANALYSIS_VERSION}"
    return base if part == 1 else f"{base}:{part}"


def parked(job_id: str) -> str:
    """When the reconciler first saw a job out of the queue's list but not started (in RQ's
    intermediate queue): a second sighting later means its worker died (service.dailies.queue)."""
    return f"{PREFIX}:parked:{job_id}"


def verdict_channel(attempt_id: str) -> str:
    """Pub/sub channel on which the verifier announces an attempt's verdict (``verified`` or
    ``rejected``) when it records it, so a request can wait for it instead of polling."""
    return f"{PREFIX}:verdict:{attempt_id}"


def player_attempts(player_id: str) -> str:
    """Hash attempt id -> date of a player's archived attempts, written by the archive before the
    day's slots expire: how a deleted account's names are found in every archive file."""
    return f"{PREFIX}:{{p:{player_id}}}:attempts"


def player_games(player_id: str) -> str:
    """Sorted set of a player's finished games (service.common.played): a JSON summary -> when it
    finished (ms), the newest 50 kept."""
    return f"{PREFIX}:{{p:{player_id}}}:games"


def day_starts(date: str, game: str = DEFAULT) -> str:
    """Hash ranked attempt id -> the address (IPv6: its /64) that started it, for the operator's
    review (``pikdame suspicious``)."""
    return f"{PREFIX}:day:{date}{_game(game)}:starts"


def day_unranked_starts(date: str, game: str = DEFAULT) -> str:
    """Hash unranked attempt id -> the address that started it (today's "ohne Wertung" starts):
    a rehearsal of the deal before a ranked attempt from the same address shows in ``pikdame
    suspicious``."""
    return f"{PREFIX}:day:{date}{_game(game)}:unranked-starts"


# --- the daily habit: keyed by owner (service.common.ownership.owner_of) ---------------


def owner(owner_id: str) -> str:
    """Hash of an owner's habit facts: the name of their latest verified day."""
    return f"{PREFIX}:{{o:{owner_id}}}:owner"


def owner_days(owner_id: str, game: str) -> str:
    """Hash date -> verified score of one owner's daily games of ``game``."""
    return f"{PREFIX}:{{o:{owner_id}}}:days:{game}"


def streak(owner_id: str, game: str) -> str:
    """Hash current, best, last (day ordinal), last_date: an owner's streak in one daily game."""
    return f"{PREFIX}:{{o:{owner_id}}}:streak:{game}"


def owner_matchpoints(owner_id: str, game: str) -> str:
    """Hash date -> final matchpoints (per mille, -1: nobody to compare with) of an owner's
    closed days: kept once read, so a league's all-time board reads 29 of its 30 days here."""
    return f"{PREFIX}:{{o:{owner_id}}}:matchpoints:{game}"


def moved(player_id: str) -> str:
    """Hash owner, player: where an anonymous player's history went when its device was attached
    to an account (service.accounts.owners.merge / merge_alltime write it in the transaction that
    moves the history). The verifier's ranking script follows it, so a verification that lands
    after the move is counted for the account, never for the device's old owner."""
    return f"{PREFIX}:{{o:p:{player_id}}}:moved"


def day_dropped(date: str, game: str = DEFAULT) -> str:
    """Set of attempt ids of a day that lost their ranking when a device was attached to an
    account that had its own ranked attempt that day (an account's first attempt of the
    day is its ranked one): the ranking script never ranks them."""
    return f"{PREFIX}:day:{date}{_game(game)}:dropped"


def owner_leagues(owner_id: str) -> str:
    """Set of the league codes an owner belongs to."""
    return f"{PREFIX}:{{o:{owner_id}}}:leagues"


def day_histogram(date: str, game: str = DEFAULT) -> str:
    """Hash score bucket -> count of the day's verified scores, kept with the rank."""
    return f"{PREFIX}:day:{date}{_game(game)}:histogram"


def par(date: str) -> str:
    """Hash score, turns: what the Zen-Meister scores in the player's seat on the day's deal."""
    return f"{PREFIX}:par:{date}"


def league(code: str) -> str:
    """Hash name, created, owner of a private league."""
    return f"{PREFIX}:{{l:{code}}}:league"


def league_members(code: str) -> str:
    """Set of a league's member owner ids."""
    return f"{PREFIX}:{{l:{code}}}:members"


# --- tables (API.md "Tables"): every key of one table carries its id as a hash tag, so a later
# Redis Cluster keeps a table's transaction on one slot.


def table(table_id: str) -> str:
    """The table's document (JSON): seats, rules, status and the whole game (hidden cards too)."""
    return f"{PREFIX}:{{t:{table_id}}}:table"


def table_analysis(table_id: str, part: int, seat: int, mode: str, engine: str) -> str:
    """A table round's (Gin: hand's) analysis document (JSON) of one seat in ``mode`` by engine
    version ``engine`` and the analysis's method (docs/ANALYSIS.md): a round's record never
    changes once it ended."""
    return f"{PREFIX}:{{t:{table_id}}}:analysis:{part}:{seat}:{mode}:{engine}:{ANALYSIS_VERSION}"


def table_events(table_id: str) -> str:
    """List of the table's events (JSON, the N-th event at index N-1): the stream's resume log."""
    return f"{PREFIX}:{{t:{table_id}}}:events"


def table_channel(table_id: str) -> str:
    """Pub/sub channel: the table changed (the payload is its seq); streams re-read the log."""
    return f"{PREFIX}:{{t:{table_id}}}:live"


def table_presence(table_id: str) -> str:
    """Sorted set ``seat:stream id`` -> until when (ms) a live stream of that seat counts."""
    return f"{PREFIX}:{{t:{table_id}}}:presence"


def stream_address(address: str) -> str:
    """Sorted set ``table:seat:stream id`` -> until when (ms) a live stream of one client address
    (IPv6: its /64) holds its lease, over every table (docs/TABLES.md)."""
    return f"{PREFIX}:streams:addr:{address}"


# Zset table id -> the turn timer's deadline (ms, on the app's clock), written before the table's
# transaction sets that deadline: the index service.reconcile.reconcile_timers sweeps for
# overdue turns whose timer job was lost. A hint: the table's document has the last word.
TABLE_DEADLINES: Final = f"{PREFIX}:tables:deadlines"
# Zset table id -> when (ms, on the app's clock) a change left a bot of a deferred level to move
# (docs/TABLES.md "Bots off the request"), written before the table's transaction: the index
# service.reconcile.reconcile_bots sweeps for due bot turns whose job was lost. A hint too.
TABLE_BOTS: Final = f"{PREFIX}:tables:bots"


def invite(code: str) -> str:
    """Which table an invite code opens."""
    return f"{PREFIX}:invite:{code}"


# The game-state keys as named before the hash tags: (glob, regular expression capturing the
# parts, the new name's function). service.common.migrate renames them.
LEGACY_PATTERNS: Final = (
    (f"{PREFIX}:attempt:*", rf"{PREFIX}:attempt:([^:]+)", "attempt"),
    (f"{PREFIX}:replay:*", rf"{PREFIX}:replay:([^:]+)", "replay"),
    (f"{PREFIX}:day:*:player:*", rf"{PREFIX}:day:([^:]+):player:(.+)", "player_day"),
    (f"{PREFIX}:day:*:attempts", rf"{PREFIX}:day:([^:]+):attempts", "day_count"),
    (f"{PREFIX}:day:*:skeletons", rf"{PREFIX}:day:([^:]+):skeletons", "day_skeletons"),
    (f"{PREFIX}:day:*:ids", rf"{PREFIX}:day:([^:]+):ids", "day_ids"),
)


def idempotency(digest: str) -> str:
    """String (JSON), minutes: what one caller's ``Idempotency-Key`` on one creation route made
    (service.web.idempotency); ``digest`` hashes route, caller and key, so the name reveals none."""
    return f"{PREFIX}:{{i:{digest}}}:idempotency"


# --- the lobby, the quick match and the ratings (docs/LOBBY.md) ---------------------------------

#: Hash public table id -> its lobby entry (JSON, public facts only: service.tables.public).
LOBBY: Final = f"{PREFIX}:lobby:tables"
#: Sorted set public table id -> when it was made (ms): the lobby's order.
LOBBY_ORDER: Final = f"{PREFIX}:lobby:order"
#: Sorted set lobby stream id -> until when (ms) it counts: who is looking at the lobby.
LOBBY_VIEWERS: Final = f"{PREFIX}:lobby:viewers"
#: Pub/sub channel: the lobby changed (a public table, its presence, the queue's size).
LOBBY_CHANNEL: Final = f"{PREFIX}:lobby:live"
#: Sorted set rated table id -> when it started (ms): rated games whose ratings are not settled.
RATED_OPEN: Final = f"{PREFIX}:rated:open"

# Every key of the quick match carries the hash tag {m}: the matchmaker's scripts run on one slot
# (service/lobby/scripts.py), on the game-state server beside the tables.
MATCH_TAG: Final = f"{PREFIX}:{{m}}"
MATCH_POOLS: Final = f"{MATCH_TAG}:pools"  # set of the pools with waiting tickets
MATCH_MADE: Final = f"{MATCH_TAG}:made"  # sorted set match id -> when made (ms), until built


def match_pool(pool: str, part: str) -> str:
    """A pool's sorted sets: ``rating`` (ticket -> rating) and ``since`` (ticket -> ms joined);
    ``cursor``: where the next step's scan begins."""
    return f"{MATCH_TAG}:pool:{pool}:{part}"


def match_ticket(ticket: str) -> str:
    """Hash of one quick-match ticket: who, what for, since when, its state and its table."""
    return f"{MATCH_TAG}:ticket:{ticket}"


def match_player(player: str) -> str:
    """A player's current ticket id (one at a time: no player waits, or is seated, twice)."""
    return f"{MATCH_TAG}:player:{player}"


def match_group(match: str) -> str:
    """Hash of a group the matcher formed: pool, tickets, bots, the seats' tokens, its table."""
    return f"{MATCH_TAG}:match:{match}"


def match_channel(ticket: str) -> str:
    """Pub/sub channel of one ticket: its state changed (matched, left)."""
    return f"{MATCH_TAG}:live:{ticket}"


def rating_tag(game: str) -> str:
    """Every rating key of one game shares a slot: a game's settlement is one transaction."""
    return f"{PREFIX}:{{r:{game}}}"


def rating(game: str, account: str) -> str:
    """Hash mu, sigma (6 decimals), games, name: an account's rating in one game."""
    return f"{rating_tag(game)}:rating:{account}"


def rating_board(game: str, provisional: bool = False) -> str:
    """Sorted set account -> shown rating: established players (``provisional``: the others)."""
    return f"{rating_tag(game)}:{'provisional' if provisional else 'board'}"


def rating_history(game: str, account: str) -> str:
    """List of an account's rating changes in one game (JSON), newest first."""
    return f"{rating_tag(game)}:history:{account}"


def rating_settled(game: str, table_id: str) -> str:
    """A rated table's settled changes (JSON): a table is rated once."""
    return f"{rating_tag(game)}:settled:{table_id}"


def rating_pairs(game: str) -> str:
    """Hash ``account|account`` or ``addr:address|address`` -> rated games played together."""
    return f"{rating_tag(game)}:pairs"


def rating_meetings(game: str) -> str:
    """Hash ``account|account`` -> when (ms, comma-separated) the two's rated results were
    settled within the repeat period (service.tables.ratings: repeated results count less)."""
    return f"{rating_tag(game)}:meetings"


def rating_results(game: str) -> str:
    """List of the latest settled rated results (JSON), newest first: ``pikdame suspicious``."""
    return f"{rating_tag(game)}:results"


def rating_forgotten(game: str) -> str:
    """Set of deleted accounts: a rated game settled after a deletion never brings one back."""
    return f"{rating_tag(game)}:forgotten"


def table_phrases(table_id: str) -> str:
    """List of a table's recent phrases (JSON ``{"n", "seat", "phrase"}``), newest last."""
    return f"{PREFIX}:{{t:{table_id}}}:phrases"


def table_phrase_wait(table_id: str, seat: int) -> str:
    """When (ms, the app's clock) a seat said its last phrase: the next waits the gap."""
    return f"{PREFIX}:{{t:{table_id}}}:phrase-wait:{seat}"


def table_mutes(table_id: str) -> str:
    """Hash seat -> JSON list of the seats whose phrases it muted."""
    return f"{PREFIX}:{{t:{table_id}}}:mutes"
