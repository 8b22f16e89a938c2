"""A small independent reference of the rules, written from RULES.md and FORMATS.md alone (it
never calls the engine's rule code): melds (R5), lay and swap (R4.2, R6), and one move applied to
an F5 position document with the F7 error code that move gets (precedence included).

Only ``Move.parse`` is borrowed, for notation (F2), which has its own tests.
"""

from __future__ import annotations

import copy
from collections import Counter
from itertools import combinations, permutations
from typing import Any

from engine import Move, NotationError
from tests.support.pikdame import points

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def sort_key(name: str) -> tuple[int, int]:
    """F5 canonical order: suit S H D C, then rank A … K, jokers last."""
    if name == "X":
        return (4, 0)
    return (SUITS.index(name[1]), RANKS.index(name[0]))


def ref_meld(names: list[str], prefix: str | None) -> tuple[str, list[str]] | str:
    """(kind, stored cards) for a valid meld, else the F7 code (`syntax` or `invalid_meld`)."""
    naturals = [c for c in names if c != "X"]
    kind = prefix
    if kind is None:
        if len(naturals) == 1:
            return "syntax"
        ranks = {c[0] for c in naturals}
        kind = "set" if naturals and len(ranks) == 1 else "run"
    if not naturals:
        return "invalid_meld"
    n = len(names)
    if kind == "set":
        if not 3 <= n <= 8 or len({c[0] for c in naturals}) != 1:
            return "invalid_meld"
        if any(naturals.count(c) > 2 for c in naturals):  # a suit more than twice
            return "invalid_meld"
        per_suit = {s: sum(1 for c in naturals if c[1] == s) for s in SUITS}
        if max(per_suit.values()) > 2:
            return "invalid_meld"
        order = sorted(
            names, key=lambda c: (4, 0) if c == "X" else (SUITS.index(c[1]), RANKS.index(c[0]))
        )
        return ("set", order)
    # run
    if not 3 <= n <= 13 or len({c[1] for c in naturals}) != 1:
        return "invalid_meld"
    suit = naturals[0][1]
    # written in ascending ring order from some start?
    for start in range(13):
        if all(c == "X" or RANKS.index(c[0]) == (start + i) % 13 for i, c in enumerate(names)):
            return ("run", names)
    if "X" in names:
        return "invalid_meld"  # jokers must be written in ascending ring order (F2)
    positions = {RANKS.index(c[0]) for c in names}
    if len(positions) != n:
        return "invalid_meld"
    if n == 13:
        return ("run", [r + suit for r in RANKS])
    for start in range(13):
        if {(start + i) % 13 for i in range(n)} == positions:
            return ("run", [RANKS[(start + i) % 13] + suit for i in range(n)])
    return "invalid_meld"


def ref_lay(kind: str, names: list[str], card: str, end: str | None) -> list[str] | None:
    """R4.2 lay: the card at a run's end (a natural where it fits, high first (F2); a joker at
    the chosen end, high when omitted) or anywhere in a set; the result must be valid (R5)."""
    if kind == "set":
        done = ref_meld([*names, card], "set")
        return done[1] if isinstance(done, tuple) else None
    options = [[*names, card], [card, *names]]
    if card == "X":
        options = [[card, *names]] if end == "low" else [[*names, card]]
    for option in options:
        done = ref_meld(option, "run")
        if isinstance(done, tuple) and len(option) <= 13:
            if len(option) == 13 and done[1] != option:
                continue  # a 13-card run keeps the order it grew in
            return done[1]
    return None


def ref_swap(kind: str, names: list[str], card: str) -> list[str] | None:
    """R6: a run's joker is replaced only by the exact card it stands for; a set's by any card
    of the rank that keeps the set valid."""
    if "X" not in names or card == "X":
        return None
    if kind == "set":
        rest = list(names)
        rest.remove("X")
        done = ref_meld([*rest, card], "set")
        return done[1] if isinstance(done, tuple) else None
    first = next(i for i, c in enumerate(names) if c != "X")
    start = (RANKS.index(names[first][0]) - first) % 13
    suit = names[first][1]
    for i, c in enumerate(names):
        if c == "X" and RANKS[(start + i) % 13] + suit == card:
            return [*names[:i], card, *names[i + 1 :]]
    return None


class RefError(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _join(melds: list[dict[str, Any]], kind: str, cards: list[str]) -> list[dict[str, Any]] | None:
    """R5.4: a set joins the owner's set of its rank (which must stay valid); else a new meld."""
    out = copy.deepcopy(melds)
    if kind == "set":
        rank = next(c[0] for c in cards if c != "X")
        for m in out:
            if m["kind"] == "set" and next(c[0] for c in m["cards"] if c != "X") == rank:
                joined = ref_meld([*m["cards"], *cards], "set")
                if not isinstance(joined, tuple):
                    return None
                m["cards"] = joined[1]
                return out
    out.append({"kind": kind, "cards": cards})
    return out


def _take_meld(p: dict[str, Any], cards: list[str], prefix: str | None) -> Any:
    """The melds after a take/meld of ``cards``, or the error code."""
    built = ref_meld(cards, prefix)
    if not isinstance(built, tuple):
        return built
    joined = _join(p["melds"][p["turn"]], built[0], built[1])
    return "invalid_meld" if joined is None else joined


def ref_can_take(p: dict[str, Any]) -> bool:
    """R4.1 for the seat to move: some 3-card meld of the top card and two hand cards, one hand
    card left (a larger valid take meld always contains such a 3-card one)."""
    if not p["discard"]:
        return False
    hand = p["hands"][p["turn"]]
    if len(hand) < 3:
        return False
    top = p["discard"][-1]
    for pair in set(combinations(sorted(hand, key=sort_key), 2)):
        for order in set(permutations([*pair, top])):
            for prefix in ("set", "run"):
                if isinstance(_take_meld(p, list(order), prefix), list):
                    return True
    return False


def _finish(p: dict[str, Any], end: str, winner: int | None) -> None:
    """R7: winner scores melds; others melds minus hand; R7.3 doubling; R7.4 totals."""
    n = p["rules"]["players"]
    doubled = end == "out" and p["rules"]["hand_out_double"] and not p["opened_at_turn_start"]
    scores = []
    for seat in range(n):
        score = sum(points(c) for m in p["melds"][seat] for c in m["cards"])
        if seat != winner:
            score -= sum(points(c) for c in p["hands"][seat])
        scores.append(2 * score if doubled else score)
    p["totals"] = [t + s for t, s in zip(p["totals"], scores, strict=True)]
    p["outcome"] = {"end": end, "winner": winner, "round_scores": scores, "doubled": doubled}


def ref_apply(position: dict[str, Any], text: str) -> dict[str, Any]:
    """``text`` played by the seat to move on ``position``: the next position, or RefError with
    the F7 code that wins by F7's precedence."""
    try:
        move = Move.parse(text)
    except NotationError:
        raise RefError("syntax") from None
    if "outcome" in position:
        raise RefError("round_over")
    p = copy.deepcopy(position)
    seat = p["turn"]
    hand: list[str] = p["hands"][seat]
    kind = move.kind
    cards = [str(c) for c in move.cards]

    def have(needed: list[str]) -> bool:
        return not Counter(needed) - Counter(hand)

    def take_out(needed: list[str]) -> None:
        for c in needed:
            hand.remove(c)

    if kind == "resign":
        _finish(p, "resign", None)
        return p
    if (kind in ("draw", "take")) != (p["phase"] == "draw"):
        raise RefError("wrong_phase")
    if kind == "draw":
        if not p["stock"]:
            raise RefError("stock_empty")
        hand.append(p["stock"].pop(0))
        p["phase"] = "play"
    elif kind == "take":
        if not p["discard"] or p["discard"][-1] not in cards:
            raise RefError("take_not_allowed")
        rest = list(cards)
        rest.remove(p["discard"][-1])
        if not have(rest):
            raise RefError("card_not_in_hand")
        melds = _take_meld(p, cards, move.prefix)
        if isinstance(melds, str):
            raise RefError(melds)
        if len(hand) - len(rest) < 1:
            raise RefError("must_keep_card")
        take_out(rest)
        p["melds"][seat] = melds
        hand.extend(p["discard"][:-1])
        p["discard"] = []
        p["phase"] = "play"
    elif kind == "meld":
        if not have(cards):
            raise RefError("card_not_in_hand")
        melds = _take_meld(p, cards, move.prefix)
        if isinstance(melds, str):
            raise RefError(melds)
        if len(hand) - len(cards) < 1:
            raise RefError("must_keep_card")
        take_out(cards)
        p["melds"][seat] = melds
    elif kind in ("lay", "swap"):
        card = cards[0]
        if not have([card]):
            raise RefError("card_not_in_hand")
        if move.meld > len(p["melds"][seat]):
            raise RefError("no_such_meld")
        target = p["melds"][seat][move.meld - 1]
        if kind == "lay":
            new = ref_lay(target["kind"], target["cards"], card, move.end)
        else:
            new = ref_swap(target["kind"], target["cards"], card)
        if new is None:
            raise RefError("invalid_meld")
        if len(hand) < 2:
            raise RefError("must_keep_card")
        take_out([card])
        target["cards"] = new
        if kind == "swap":
            p["removed"].append("X")
    else:  # discard
        card = cards[0]
        if not have([card]):
            raise RefError("card_not_in_hand")
        take_out([card])
        if not hand:
            p["removed"].append(card)  # R4.3: face down, out of play
            _finish(p, "out", seat)
        else:
            p["discard"].append(card)
            p["turn"] = (seat + 1) % p["rules"]["players"]
            p["phase"] = "draw"
            p["opened_at_turn_start"] = bool(p["melds"][p["turn"]])
            if not p["stock"] and not ref_can_take(p):
                _finish(p, "stock", None)  # R4.4
    hand.sort(key=sort_key)
    return p
