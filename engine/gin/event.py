"""Gin's deal of the week's tournament (issue 42, docs/EVENTS.md): one hand against the strong
bot, dealt from the event's seed (FORMATS.md F4e, ``engine.core.events``) exactly as the daily's
first hand (seat 0 the player, seat 1 the strong bot and the dealer, G2, G3), ending when the
hand ends (gin, knock, undercut or the wall, G6, G7), scored as the player's points minus the
bot's for that hand (0 at the wall). Its record is a ``gin-log/1`` with ``"rules": {"hands":
1}`` (docs/GIN_FORMATS.md), verified by :func:`engine.gin.replay` as a daily record.
"""

from __future__ import annotations

from typing import Final

from engine.core.errors import FormatError
from engine.gin.daily import daily_score, daily_seats
from engine.gin.match import GinMatch
from engine.gin.rules import BONUS

#: The most deadwood ten cards can keep (G6): ninety-nine or more needs nine cards worth 10
#: (T J Q K), three of which share a rank, a set; so at most eight tens and two nines,
#: reached by KS KH QD QC JS JH TD TC 9S 9H (no set, no run).
MOST_DEADWOOD: Final = 98
#: The most one seat scores in one hand (G6): a gin, 25 + the defender's deadwood. A knock
#: gives at most the defender's deadwood less one, an undercut 25 + 10.
HAND_MOST: Final = BONUS + MOST_DEADWOOD


def event_match(seed: bytes, name: str) -> GinMatch:
    """The event deal of ``seed`` for player ``name``: a one-hand match against the strong
    bot, seat 1 dealing (G2); the bot's first moves are made."""
    return GinMatch.start(seed, daily_seats(name), one_hand=True)


def event_score(match: GinMatch) -> int:
    """The score of a finished one-hand match: the player's points in the hand minus the bot's
    (0 at the wall, G7). A resignation (G8) counts the other seat's points as the most a hand
    can give (:data:`HAND_MOST`), so resigning never scores better than playing the hand out
    (the daily's rule, GD3, with the hand's bound for the match's)."""
    if not match.one_hand:
        raise FormatError("an event deal is a one-hand match", None)
    result = match.result_json()
    if result is None:
        raise FormatError("the hand is not over", None)
    mine, theirs = match.totals
    if result["end"] == "resign":
        if result["winner"] == 1:
            theirs = HAND_MOST
        else:
            mine = HAND_MOST
    return mine - theirs


def ranked_score(match: GinMatch) -> int:
    """A finished match's ranked score by its own rules: an event deal's (one hand,
    :func:`event_score`) or a day's (a match to 100, :func:`engine.gin.daily.daily_score`)."""
    return event_score(match) if match.one_hand else daily_score(match)


__all__ = ["HAND_MOST", "MOST_DEADWOOD", "event_match", "event_score", "ranked_score"]
