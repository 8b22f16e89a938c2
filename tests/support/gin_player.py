"""A scripted Gin player for tests: it reads only its seat's view (GIN.md G9)."""

from __future__ import annotations

from typing import Any


def gin_choice(view: dict[str, Any], knock: bool = True) -> str:
    """A plain player from the view alone: pass the first upcard, draw, discard the card that
    leaves the least deadwood (the view's exact ``discards``) and knock when that is ≤ 10 (G6),
    defend with the view's best defence (``suggestion``). ``knock`` False: never knocks."""
    phase = view["phase"]
    if phase == "upcard":
        return "pass"
    if phase == "draw":
        return "draw"
    if phase == "defend":
        return str(view["suggestion"])
    options = view["discards"]
    card = min(options, key=lambda c: (options[c]["deadwood"], c))
    best = options[card]
    if knock and best["deadwood"] <= 10:
        groups = " | ".join(" ".join(m) for m in best["melds"])
        return f"knock {card} {groups}"
    return f"discard {card}"
