"""A release module (service.common.releases.load) for the tests of deploy-safe verification
: a previous release whose bots differ from today's, every level playing as the
beginner. Importing it registers it; a worker started with ``PIKDAME_RELEASES`` naming this
module keeps it, as an operator's frozen copy of a previous deploy would be kept."""

from __future__ import annotations

from engine import View
from engine.pikdame.bots import choose_move
from engine.pikdame.moves import Move
from engine.pikdame.releases import register

OLDER = "pikdame-engine/rules-1/bots-test-beginner"
MODULE = __name__


def beginner_everywhere(level: str, seat_view: View) -> Move:
    """Every bot plays as the beginner, whatever its level."""
    return choose_move("beginner", seat_view)


register(OLDER, beginner_everywhere)
