"""Position documents (FORMATS.md F5): the document's fields as a typed :class:`Position`,
written canonically and read with every field checked.

Every problem with a document is a :class:`FormatError` (code ``bad_format``) that says which field
is wrong and why; reading never raises anything else. What a position *means* (whose move, whether
the round is already over) is the state's: :meth:`engine.pikdame.state.State.from_position`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.core.cards import NAMES, Card, card_list, counts_of
from engine.pikdame.cards import COPIES, TAUSENDE_COPIES
from engine.pikdame.errors import FormatError, PikDameError
from engine.pikdame.melds import Meld, join_target
from engine.pikdame.rules import ENDS, Outcome, Rules

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
#: Tausende's further fields (R12): who has opened, the points each seat laid, the swapping
#: round's swaps so far (null once it is over), the points laid this turn towards an opening.
TAUSENDE_KEYS: Final = frozenset(("opened", "laid", "swaps", "turn_points"))


def _is_tausende(doc: dict[str, Any]) -> bool:
    rules = doc.get("rules")
    return isinstance(rules, dict) and rules.get("ruleset") == "tausende"


@dataclass(frozen=True)
class Position:
    """The fields of a position document: every zone in F5's order (hands canonical, the stock
    top first, the discard pile bottom first)."""

    rules: Rules
    round: int
    dealer: int
    turn: int
    phase: str
    opened_at_turn_start: bool
    hands: list[list[Card]]
    melds: list[list[Meld]]
    stock: list[Card]
    discard: list[Card]
    removed: list[Card]
    totals: list[int]
    outcome: Outcome | None
    extra: dict[str, Any] | None = None  # Tausende's fields (TAUSENDE_KEYS), read by its state


def write(p: Position) -> dict[str, Any]:
    """The F5 document of ``p``, keys in the spec's order."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "rules": p.rules.to_json(),
        "round": p.round,
        "dealer": p.dealer,
        "turn": p.turn,
        "phase": p.phase,
        "opened_at_turn_start": p.opened_at_turn_start,
        "hands": [[NAMES[c] for c in hand] for hand in p.hands],
        "melds": [[m.to_json() for m in ms] for ms in p.melds],
        "stock": [NAMES[c] for c in p.stock],
        "discard": [NAMES[c] for c in p.discard],
        "removed": [NAMES[c] for c in p.removed],
        "totals": list(p.totals),
    }
    if p.extra is not None:
        doc.update(p.extra)
    if p.outcome is not None:
        doc["outcome"] = p.outcome.to_json()
    return doc


def fail(why: str, doc: Any) -> FormatError:
    """The error for a position document that is wrong in ``why``."""
    return FormatError(f"position: {why}", doc)


def _int(doc: dict[str, Any], key: str, lo: int, hi: int) -> int:
    value = doc[key]
    if type(value) is not int or not lo <= value <= hi:
        raise fail(f"{key} must be an integer from {lo} to {hi}", doc)
    return value


def _cards(value: Any, where: str, doc: Any) -> list[Card]:
    if not isinstance(value, list):
        raise fail(f"{where} must be a list of cards", doc)
    try:
        return card_list(value)
    except PikDameError as e:
        raise fail(f"{where}: {e.message}", doc) from None


def _per_seat(doc: dict[str, Any], key: str, n: int) -> list[Any]:
    value = doc[key]
    if not isinstance(value, list) or len(value) != n:
        raise fail(f"{key} must list one entry per seat ({n})", doc)
    return value


def read(doc: Any) -> Position:
    """Read and check a position document; raises :class:`FormatError`."""
    if not isinstance(doc, dict):
        raise fail("a position is a JSON object", doc)
    tausende = _is_tausende(doc)
    keys = _KEYS | TAUSENDE_KEYS if tausende else _KEYS
    missing = keys - set(doc)
    extra = set(doc) - keys - {"outcome"}
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(sorted(missing)))
        if extra:
            parts.append("unknown " + ", ".join(sorted(map(str, extra))))
        raise fail("; ".join(parts), doc)
    if doc["format"] != FORMAT:
        raise fail(f"format must be {FORMAT!r}", doc)
    try:
        rules = Rules.from_json(doc["rules"])
    except PikDameError as e:
        raise fail(e.message, doc) from None
    n = rules.players
    dealer = _int(doc, "dealer", 0, n - 1)
    round_ = _int(doc, "round", 1, 10**9)
    turn = _int(doc, "turn", 0, n - 1)
    if doc["phase"] not in ("draw", "play"):
        raise fail("phase must be 'draw' or 'play'", doc)
    if not isinstance(doc["opened_at_turn_start"], bool):
        raise fail("opened_at_turn_start must be true or false", doc)
    hands = [
        _cards(hand, f"hands[{seat}]", doc) for seat, hand in enumerate(_per_seat(doc, "hands", n))
    ]
    melds: list[list[Meld]] = []
    for seat, seat_melds in enumerate(_per_seat(doc, "melds", n)):
        if not isinstance(seat_melds, list):
            raise fail(f"melds[{seat}] must be a list of melds", doc)
        melds.append([])
        for i, m in enumerate(seat_melds, start=1):
            try:
                meld = Meld.from_json(m)
            except PikDameError as e:
                raise fail(f"melds[{seat}] meld {i}: {e.message}", doc) from None
            if not tausende and join_target(melds[seat], meld) is not None:
                raise fail(f"melds[{seat}]: two sets of one rank (R5.4)", doc)
            melds[seat].append(meld)
    stock = _cards(doc["stock"], "stock", doc)
    discard = _cards(doc["discard"], "discard", doc)
    removed = _cards(doc["removed"], "removed", doc)
    on_table = [c for ms in melds for m in ms for c in m.cards]
    seen = counts_of([*(c for h in hands for c in h), *on_table, *stock, *discard, *removed])
    copies = TAUSENDE_COPIES if tausende else COPIES
    for code, k in enumerate(seen):
        if k > copies[code]:
            raise fail(f"{NAMES[code]} appears {k} times; only {copies[code]} exist", doc)
    totals = _per_seat(doc, "totals", n)
    if any(type(t) is not int for t in totals):
        raise fail("totals must be integers", doc)
    outcome = _outcome(doc["outcome"], n, doc) if "outcome" in doc else None
    return Position(
        rules,
        round_,
        dealer,
        turn,
        doc["phase"],
        doc["opened_at_turn_start"],
        hands,
        melds,
        stock,
        discard,
        removed,
        list(totals),
        outcome,
        {key: doc[key] for key in sorted(TAUSENDE_KEYS)} if tausende else None,
    )


def _outcome(obj: Any, n: int, doc: Any) -> Outcome:
    if not isinstance(obj, dict) or set(obj) != {"end", "winner", "round_scores", "doubled"}:
        raise fail("outcome is {end, winner, round_scores, doubled}", doc)
    end, winner, scores, doubled = obj["end"], obj["winner"], obj["round_scores"], obj["doubled"]
    if end not in ENDS:
        raise fail("outcome.end is out, stock or resign", doc)
    if end == "out":
        if type(winner) is not int or not 0 <= winner < n:
            raise fail("outcome.winner is the seat that went out", doc)
    elif winner is not None:
        raise fail("outcome.winner is null unless someone went out", doc)
    if not isinstance(scores, list) or len(scores) != n or any(type(s) is not int for s in scores):
        raise fail("outcome.round_scores lists one integer per seat", doc)
    if not isinstance(doubled, bool):
        raise fail("outcome.doubled is true or false", doc)
    return Outcome(end, winner, tuple(scores), doubled)
