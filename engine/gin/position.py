"""Gin's position documents (``gin-position/1``, docs/GIN_FORMATS.md): the document's fields as a
typed :class:`Position`, written canonically and read with every field checked.

Every problem with a document is a :class:`FormatError` (code ``bad_format``) that says which field
is wrong and why (a bad card name inside it too); reading never raises anything else. The state
takes a read position as it is: :meth:`engine.gin.state.HandState.from_position`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.core.errors import EngineError, FormatError
from engine.gin.cards import NAMES, from_mask, mask_points, names, parse_card, to_mask
from engine.gin.deal import HAND_CARDS
from engine.gin.melds import Defence, is_meld
from engine.gin.rules import KNOCK_LIMIT, MAX_TAKES, PHASES, WALL, HandOutcome, Knock, card_of

FORMAT: Final = "gin-position/1"
_KEYS: Final = frozenset(
    (
        "format",
        "hand",
        "dealer",
        "turn",
        "phase",
        "must_draw",
        "hands",
        "stock",
        "discard",
        "taken",
        "took",
        "takes",
        "knock",
        "defence",
        "outcome",
    )
)


@dataclass(frozen=True)
class Position:
    """The fields of a position document: the whole hand, hidden cards included. Hands and the
    cards each seat took from the pile are 52-bit masks; the stock is top first, the discard pile
    top last."""

    hand_no: int
    dealer: int
    turn: int
    phase: str
    must_draw: bool
    hands: tuple[int, int]
    stock: list[int]
    discard: list[int]
    taken: int | None
    took: tuple[int, int]
    takes: int
    knock: Knock | None
    defence: Defence | None
    outcome: HandOutcome | None


def write(p: Position) -> dict[str, Any]:
    """The ``gin-position/1`` document of ``p``, keys in the format's order."""
    return {
        "format": FORMAT,
        "hand": p.hand_no,
        "dealer": p.dealer,
        "turn": p.turn,
        "phase": p.phase,
        "must_draw": p.must_draw,
        "hands": [names(from_mask(h)) for h in p.hands],
        "stock": [NAMES[c] for c in p.stock],
        "discard": [NAMES[c] for c in p.discard],
        "taken": None if p.taken is None else NAMES[p.taken],
        "took": [names(from_mask(t)) for t in p.took],
        "takes": p.takes,
        "knock": None if p.knock is None else p.knock.to_json(),
        "defence": None if p.defence is None else p.defence.to_json(),
        "outcome": None if p.outcome is None else p.outcome.to_json(),
    }


def read(doc: Any) -> Position:
    """Read and check a ``gin-position/1`` document, against its format and the rules of the
    table (G3–G7); raises :class:`FormatError`."""
    try:
        return _read(doc)
    except FormatError:
        raise
    except EngineError as e:  # a bad card name inside a position is a bad position
        raise FormatError(f"position: {e.message}", doc) from None


def fail(why: str, doc: Any) -> FormatError:
    """The error for a position document that is wrong in ``why``."""
    return FormatError(f"position: {why}", doc)


def _cards(value: Any, what: str, doc: Any) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise fail(f"{what} is a list of cards", doc)
    return [parse_card(c) for c in value]


def _melds(value: Any, what: str, doc: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise fail(f"{what} is a list of melds", doc)
    masks = []
    for group in value:
        cards = _cards(group, what, doc)
        mask = to_mask(cards)
        if mask.bit_count() != len(cards) or not is_meld(mask):
            raise fail(f"{what}: {group} is not a meld (G6)", doc)
        masks.append(mask)
    return tuple(masks)


def _read(doc: Any) -> Position:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise fail(f"format is {FORMAT!r}", doc)
    if set(doc) != _KEYS:
        raise fail(f"the keys are {sorted(_KEYS)}", doc)
    hand_no, dealer, turn, phase = doc["hand"], doc["dealer"], doc["turn"], doc["phase"]
    if type(hand_no) is not int or not 1 <= hand_no < 2**32:
        raise fail("hand is 1 … 2^32-1", doc)
    if dealer not in (0, 1) or type(dealer) is not int:
        raise fail("dealer is 0 or 1", doc)
    if turn not in (0, 1) or type(turn) is not int:
        raise fail("turn is 0 or 1", doc)
    if phase not in PHASES:
        raise fail(f"phase is one of {PHASES}", doc)
    must_draw = doc["must_draw"]
    if not isinstance(must_draw, bool):
        raise fail("must_draw is true or false", doc)
    hands_json = doc["hands"]
    if not isinstance(hands_json, list) or len(hands_json) != 2:
        raise fail("hands holds two hands", doc)
    hands = [_cards(h, "a hand", doc) for h in hands_json]
    stock = _cards(doc["stock"], "stock", doc)
    discard = _cards(doc["discard"], "discard", doc)
    masks = (to_mask(hands[0]), to_mask(hands[1]))
    everything = [*hands[0], *hands[1], *stock, *discard]
    taken_json = doc["taken"]
    taken = None
    if taken_json is not None:
        if not isinstance(taken_json, str):
            raise fail("taken is a card or null", doc)
        taken = parse_card(taken_json)
        if phase != "discard" or not masks[turn] >> taken & 1:
            raise fail("taken is a card in the hand of the seat to discard", doc)
    takes = doc["takes"]
    if type(takes) is not int or not 0 <= takes <= MAX_TAKES:
        raise fail(f"takes is 0 … {MAX_TAKES}", doc)
    took_json = doc["took"]
    if not isinstance(took_json, list) or len(took_json) != 2:
        raise fail("took holds two lists of cards", doc)
    took0, took1 = (to_mask(_cards(t, "took", doc)) for t in took_json)
    if took0 & ~masks[0] or took1 & ~masks[1]:
        raise fail("took lists cards a seat took from the pile and still holds", doc)
    if must_draw and phase != "draw":
        raise fail("must_draw belongs to the draw phase", doc)
    if phase == "upcard" and (len(discard) != 1 or (turn == dealer and must_draw)):
        raise fail("the upcard phase has the upcard alone on the discard pile (G4)", doc)
    knock_json = doc["knock"]
    if (knock_json is None) != (phase != "defend"):
        raise fail("a knock exists exactly in the defend phase (which a defence ends)", doc)
    knock = None
    if knock_json is not None:
        knock = _knock(knock_json, masks, turn, doc)
        everything.append(card_of(knock))
    if len(set(everything)) != len(everything):
        raise fail("a card appears twice", doc)
    sizes = [len(h) for h in hands]
    expected = [HAND_CARDS, HAND_CARDS]
    if phase == "discard":
        expected[turn] += 1
    outcome_json = doc["outcome"]
    if outcome_json is None and sizes != expected:
        raise fail(f"hand sizes are {expected} in the {phase} phase", doc)
    least_stock = {"upcard": WALL + 1, "draw": WALL + 1, "discard": WALL}.get(phase, 0)
    if outcome_json is None and len(stock) < least_stock:
        raise fail(f"the stock holds at least {least_stock} cards in the {phase} phase (G7)", doc)
    outcome = None if outcome_json is None else HandOutcome.from_json(outcome_json)
    defence_json = doc["defence"]
    defence = None
    if defence_json is not None:
        if knock is None or outcome is None:
            raise fail("a defence follows a knock and ends the hand", doc)
        defence = _defence(defence_json, doc)
    return Position(
        hand_no,
        dealer,
        turn,
        phase,
        must_draw,
        masks,
        stock,
        discard,
        taken,
        (took0, took1),
        takes,
        knock,
        defence,
        outcome,
    )


def _knock(obj: Any, hands: tuple[int, int], turn: int, doc: Any) -> Knock:
    if not isinstance(obj, dict) or set(obj) != {"seat", "card", "melds", "deadwood"}:
        raise fail("knock is {seat, card, melds, deadwood}", doc)
    seat = obj["seat"]
    if seat not in (0, 1) or type(seat) is not int:
        raise fail("knock.seat is 0 or 1", doc)
    if not isinstance(obj["card"], str):
        raise fail("knock.card is a card", doc)
    card = parse_card(obj["card"])
    melds = _melds(obj["melds"], "knock.melds", doc)
    hand = hands[seat]
    used = 0
    for m in melds:
        if m & ~hand or m & used:
            raise fail("the knocker's melds are disjoint and in its hand", doc)
        used |= m
    deadwood = mask_points(hand & ~used)
    if obj["deadwood"] != deadwood or deadwood > KNOCK_LIMIT:
        raise fail(f"knock.deadwood is the declared deadwood ({deadwood}), at most 10", doc)
    if turn != 1 - seat:  # a defence that ends the hand leaves the turn with the defender
        raise fail("after a knock the defender is to move", doc)
    return Knock(seat, card, melds, deadwood)


def _defence(obj: Any, doc: Any) -> Defence:
    if not isinstance(obj, dict) or set(obj) != {"melds", "layoffs", "deadwood"}:
        raise fail("defence is {melds, layoffs, deadwood}", doc)
    melds = _melds(obj["melds"], "defence.melds", doc)
    layoffs = obj["layoffs"]
    if not isinstance(layoffs, list) or not all(
        isinstance(x, list)
        and len(x) == 2
        and isinstance(x[0], str)
        and type(x[1]) is int
        and x[1] >= 1
        for x in layoffs
    ):
        raise fail("defence.layoffs is a list of [card, meld number]", doc)
    if type(obj["deadwood"]) is not int:
        raise fail("defence.deadwood is a number", doc)
    return Defence(melds, tuple((parse_card(c), n - 1) for c, n in layoffs), obj["deadwood"])


__all__ = ["FORMAT", "Position", "fail", "read", "write"]
