"""What the belief benches share (bench_gin_belief, bench_pikdame_belief): a mean with its 95 %
interval, computed exactly (Fractions) before the one float, and the deals split into chunks for
the worker processes."""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def mean_ci(values: list[Any]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval (normal approximation)."""
    n = len(values)
    m = sum(Fraction(x) for x in values) / n
    var = sum((Fraction(x) - m) ** 2 for x in values) / max(n - 1, 1)
    return float(m), 1.96 * float(var / n) ** 0.5


def chunks(total: int, parts: int, offset: int = 0) -> list[tuple[int, int]]:
    """``range(offset, offset + total)`` as at most ``parts`` half-open (start, stop) runs."""
    if total <= 0:
        return []
    size = -(-total // parts)
    return [(offset + i, offset + min(i + size, total)) for i in range(0, total, size)]
