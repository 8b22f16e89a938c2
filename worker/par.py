"""The bot's par (issue 13): the day's deal played out with a Zen-Meister in the player's seat.

The same setup as R11's daily round (rules, dealer, cut from the day's seed), seat 0 a zen bot
instead of the player; deterministic like every bot, so any worker computes the same par."""

from __future__ import annotations

import redis

from engine import DAILY_DEALER, DAILY_RULES, Game, Seat, daily_seed
from service.dailies import par, store


def bot_game(seed: bytes) -> Game:
    """The day's round with four zen bots, played to its end (Game.start runs the bots)."""
    seats = tuple(Seat("bot", level="zen") for _ in range(DAILY_RULES.players))
    return Game.start(seed, DAILY_RULES, seats, DAILY_DEALER)


def compute(client: redis.Redis[str], date: str, secret: bytes) -> dict[str, int]:
    """Compute and keep the day's par once; a second run reads the stored one."""
    known = par.read(client, date)
    if known is not None:
        return known
    game = bot_game(daily_seed(secret, date))
    outcome = game.state.outcome
    assert outcome is not None
    par.store(client, date, outcome.round_scores[0], store.player_turns(game))
    stored = par.read(client, date)
    assert stored is not None
    return stored
