"""Position documents (FORMATS.md F5): write a state canonically, read and validate one.

Every problem with a document is a :class:`FormatError` (code ``bad_format``) that says which field
is wrong and why; reading never raises anything else.
"""

from __future__ import annotations

from typing import Any, Final

from engine.cards import COPIES, NAMES, NUM_KINDS, Card
from engine.errors import FormatError, PikDameError
from engine.melds import Meld
from engine.state import Outcome, Rules, State

FORMAT: Final = "pikdame-position/1"
_KEYS: Final = frozenset(
    (
        "format",
        "rules",
        "round",
        "dealer",
        "turn",
        "phase",
        "opened_at_turn_start",
        "hands",
        "melds",
        "stock",
        "discard",
        "removed",
        "totals",
    )
)


def to_position(state: State) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.rules.to_json(),
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "opened_at_turn_start": state.opened_at_turn_start,
        "hands": [[NAMES[c] for c in state.hand(s)] for s in range(state.players)],
        "melds": [[m.to_json() for m in ms] for ms in state.melds],
        "stock": [NAMES[c] for c in reversed(state.stock)],
        "discard": [NAMES[c] for c in state.discard],
        "removed": [NAMES[c] for c in state.removed],
        "totals": list(state.totals),
    }
    if state.outcome is not None:
        doc["outcome"] = state.outcome.to_json()
    return doc


def _fail(why: str, doc: Any) -> FormatError:
    return FormatError(f"position: {why}", doc)


def _int(doc: dict[str, Any], key: str, lo: int, hi: int) -> int:
    value = doc[key]
    if type(value) is not int or not lo <= value <= hi:
        raise _fail(f"{key} must be an integer from {lo} to {hi}", doc)
    return value


def _cards(value: Any, where: str, doc: Any) -> list[Card]:
    if not isinstance(value, list):
        raise _fail(f"{where} must be a list of cards", doc)
    try:
        return [Card.parse(c) for c in value]
    except PikDameError as e:
        raise _fail(f"{where}: {e.message}", doc) from None


def _per_seat(doc: dict[str, Any], key: str, n: int) -> list[Any]:
    value = doc[key]
    if not isinstance(value, list) or len(value) != n:
        raise _fail(f"{key} must list one entry per seat ({n})", doc)
    return value


def from_position(doc: Any) -> State:
    """Read and validate a position document; raises :class:`FormatError`."""
    if not isinstance(doc, dict):
        raise _fail("a position is a JSON object", doc)
    missing = _KEYS - set(doc)
    extra = set(doc) - _KEYS - {"outcome"}
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(sorted(missing)))
        if extra:
            parts.append("unknown " + ", ".join(sorted(map(str, extra))))
        raise _fail("; ".join(parts), doc)
    if doc["format"] != FORMAT:
        raise _fail(f"format must be {FORMAT!r}", doc)
    try:
        rules = Rules.from_json(doc["rules"])
    except PikDameError as e:
        raise _fail(e.message, doc) from None
    n = rules.players
    state = State(rules, _int(doc, "dealer", 0, n - 1), _int(doc, "round", 1, 10**9))
    state.turn = _int(doc, "turn", 0, n - 1)
    if doc["phase"] not in ("draw", "play"):
        raise _fail("phase must be 'draw' or 'play'", doc)
    state.phase = doc["phase"]
    if not isinstance(doc["opened_at_turn_start"], bool):
        raise _fail("opened_at_turn_start must be true or false", doc)
    state.opened_at_turn_start = doc["opened_at_turn_start"]
    seen = [0] * NUM_KINDS
    for seat, hand in enumerate(_per_seat(doc, "hands", n)):
        for c in _cards(hand, f"hands[{seat}]", doc):
            state.hands[seat][c] += 1
            seen[c] += 1
        state.hand_sizes[seat] = len(hand)
    for seat, melds in enumerate(_per_seat(doc, "melds", n)):
        if not isinstance(melds, list):
            raise _fail(f"melds[{seat}] must be a list of melds", doc)
        for i, m in enumerate(melds, start=1):
            try:
                meld = Meld.from_json(m)
            except PikDameError as e:
                raise _fail(f"melds[{seat}] meld {i}: {e.message}", doc) from None
            if meld.kind == "set" and any(
                o.kind == "set" and o.rank == meld.rank for o in state.melds[seat]
            ):
                raise _fail(f"melds[{seat}]: two sets of one rank (R5.4)", doc)
            state.melds[seat].append(meld)
            for c in meld.cards:
                seen[c] += 1
    stock = _cards(doc["stock"], "stock", doc)
    state.stock = stock[::-1]
    state.discard = _cards(doc["discard"], "discard", doc)
    state.removed = _cards(doc["removed"], "removed", doc)
    for c in (*stock, *state.discard, *state.removed):
        seen[c] += 1
    for code, k in enumerate(seen):
        if k > COPIES[code]:
            raise _fail(f"{NAMES[code]} appears {k} times; only {COPIES[code]} exist", doc)
    totals = _per_seat(doc, "totals", n)
    if any(type(t) is not int for t in totals):
        raise _fail("totals must be integers", doc)
    state.totals = list(totals)
    if "outcome" in doc:
        state.outcome = _outcome(doc["outcome"], n, doc)
    elif state.phase == "draw" and not state.stock and not state.can_take():
        # F5: a seat to draw with an empty stock and no legal take is already over (R4.4).
        state._finish("stock", None)
    elif state.hand_sizes[state.turn] == 0:
        raise _fail("the seat to move holds no card", doc)
    return state


def _outcome(obj: Any, n: int, doc: Any) -> Outcome:
    if not isinstance(obj, dict) or set(obj) != {"end", "winner", "round_scores", "doubled"}:
        raise _fail("outcome is {end, winner, round_scores, doubled}", doc)
    end, winner, scores, doubled = obj["end"], obj["winner"], obj["round_scores"], obj["doubled"]
    if end not in ("out", "stock", "resign"):
        raise _fail("outcome.end is out, stock or resign", doc)
    if end == "out":
        if type(winner) is not int or not 0 <= winner < n:
            raise _fail("outcome.winner is the seat that went out", doc)
    elif winner is not None:
        raise _fail("outcome.winner is null unless someone went out", doc)
    if not isinstance(scores, list) or len(scores) != n or any(type(s) is not int for s in scores):
        raise _fail("outcome.round_scores lists one integer per seat", doc)
    if not isinstance(doubled, bool):
        raise _fail("outcome.doubled is true or false", doc)
    return Outcome(end, winner, tuple(scores), doubled)
