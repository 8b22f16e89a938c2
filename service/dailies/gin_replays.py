"""The Gin replay viewer's data (templates/gin/replay.html, docs/GIN_DAILY.md "Replay viewer
data"): a finished match's public record stepped through the engine, hand by hand.

``{"record", "deals": [gin-position/1 right after each hand's deal], "positions":
[gin-position/1 after each move]}``: a hand-ending move shows that hand with its outcome; the next
hand starts at its deal. Only for records whose seed is public (a finished table's match)."""

from __future__ import annotations

from typing import Any

from engine.gin import parse_seed
from engine.gin.match import GinMatch
from engine.gin.replay import replay


def gin_positions(record: dict[str, Any]) -> dict[str, Any]:
    """Every position of a ``gin-log/1`` record with its seed, verified first (a record that does
    not replay raises ReplayError and is not shown)."""
    verified = replay(record)
    match = GinMatch(parse_seed(record["seeds"]["seed"]), verified.seats)
    deals = [match.state.to_position()]
    positions = []
    for entry in record["moves"]:
        hand = match.state
        match.push(entry["move"], int(entry["seat"]))
        positions.append(hand.to_position())
        if match.state is not hand:
            deals.append(match.state.to_position())
    return {"record": record, "deals": deals, "positions": positions}
