"""Matches for the Gin tests: bot-against-bot, and a scripted human whose moves come from a
bot's logic (so a record has human moves to check)."""

from __future__ import annotations

import hashlib

from engine.gin.bots import choose_move
from engine.gin.match import GinMatch, Seat


def seed(k: int | str) -> bytes:
    return hashlib.sha256(f"gin-test/{k}".encode()).digest()


BOTS = (Seat("bot", level="strong"), Seat("bot", level="plain"))
HUMAN_VS_BOT = (Seat("human", name="Ada"), Seat("bot", level="strong"))


def bot_match(k: int | str) -> GinMatch:
    return GinMatch.start(seed(k), BOTS)


def human_match(k: int | str, stop_after: int | None = None) -> GinMatch:
    """Seat 0 a human who plays as the plain bot would; ``stop_after`` human moves at most."""
    match = GinMatch.start(seed(k), HUMAN_VS_BOT)
    played = 0
    while not match.finished and (stop_after is None or played < stop_after):
        match.play(choose_move("plain", match.view(0)), 0)
        played += 1
    return match
