"""The daily challenge's seed, commitment and setup (FORMATS.md F4, RULES.md R11)."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from typing import Final

from engine.core.records import commitment
from engine.pikdame.errors import FormatError
from engine.pikdame.game import Game
from engine.pikdame.rules import Rules, Seat

DAILY_RULES: Final = Rules(players=4, hand_out_double=True, strict_1000=False)
DAILY_DEALER: Final = 3
DAILY_LEVEL: Final = "zen"


def daily_seed(secret: bytes, date: str) -> bytes:
    """F4: HMAC-SHA256(secret, "pikdame/daily/v1/" + YYYY-MM-DD)."""
    try:
        if dt.date.fromisoformat(date).isoformat() != date:
            raise ValueError
    except (ValueError, TypeError):
        raise FormatError("a date is YYYY-MM-DD", date) from None
    return hmac.new(secret, f"pikdame/daily/v1/{date}".encode(), hashlib.sha256).digest()


def daily_seats(name: str) -> tuple[Seat, ...]:
    """R11: seat 0 is the player, seats 1–3 are zen bots."""
    return (Seat("human", name=name), *(Seat("bot", level=DAILY_LEVEL) for _ in range(3)))


def daily_game(seed: bytes, name: str) -> Game:
    """The day's round: automatic cut, dealer seat 3 (the player starts, seat 2 cuts)."""
    return Game.start(seed, DAILY_RULES, daily_seats(name), DAILY_DEALER)


__all__ = ["DAILY_DEALER", "DAILY_RULES", "commitment", "daily_game", "daily_seats", "daily_seed"]
