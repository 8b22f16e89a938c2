"""The service stores a running Gin match between requests (GinMatch.to_json / from_json, docs/
GIN_FORMATS.md "Storage"): a match rebuilt after every move must play on exactly as one kept in
memory, so its record replays (bots recompute from views that read the hand's history, G9)."""

from __future__ import annotations

import pytest

from engine.core.records import Seat
from engine.gin.match import GinMatch
from engine.gin.replay import replay
from tests.support.gin_matches import seed
from tests.support.gin_player import gin_choice


@pytest.mark.parametrize("k", range(3))
def test_g9_a_stored_and_reloaded_match_plays_on_as_in_memory(k: int) -> None:
    seats = (Seat("human", name="Ada"), Seat("bot", level="strong" if k % 2 else "plain"))
    kept = GinMatch.start(seed(f"storage/{k}"), seats)
    stored = GinMatch.from_json(kept.to_json())
    for _ in range(3000):
        if kept.finished:
            break
        assert stored.view(0) == kept.view(0)
        move = gin_choice(kept.view(0).to_json())
        assert stored.play(move, 0) == kept.play(move, 0)
        stored = GinMatch.from_json(stored.to_json())
    assert kept.finished and stored.finished
    assert stored.to_record(reveal_seed=True) == kept.to_record(reveal_seed=True)
    replay(stored.to_record(reveal_seed=True))
