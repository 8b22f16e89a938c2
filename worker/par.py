"""The bot's par: the day's deal played out with the strongest bot in the player's seat.

The same setup as the day's game (its adapter's ``par``: for Pik Dame R11's rules, dealer and
cut from the day's seed, seat 0 a Zen-Meister instead of the player); deterministic like every
bot, so any worker computes the same par. The first daily game's alone has one (keys.par)."""

from __future__ import annotations

import redis

from service import games
from service.dailies import par


def compute(client: redis.Redis[str], date: str, secret: bytes) -> dict[str, int]:
    """Compute and keep the day's par once; a second run reads the stored one."""
    known = par.read(client, date)
    if known is not None:
        return known
    daily = games.offering(games.PAR)[games.DEFAULT]
    score, turns = daily.par(daily.seed(secret, date))
    par.store(client, date, score, turns)
    stored = par.read(client, date)
    assert stored is not None
    return stored
