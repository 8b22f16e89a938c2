"""The analysis's arithmetic (engine.core.analysis, docs/ANALYSIS.md): exact means, 95%
intervals by Student's t in integers only, and the marks' thresholds, checked against Python's
fractions and floats (allowed here, never in the engine)."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from engine.core.analysis import (
    T_975,
    Estimate,
    Marks,
    exact_text,
    hundredths_text,
    isqrt_ceil,
    shuffle_pool,
    t_quantile,
)
from engine.core.rng import Stream

MARKS = Marks(inaccuracy=10, mistake=25, blunder=50)


@given(st.integers(0, 10**30), st.integers(1, 10**12))
def test_isqrt_ceil_is_the_least_root_from_above(num: int, den: int) -> None:
    h = isqrt_ceil(num, den)
    assert h * h * den >= num
    assert h == 0 or (h - 1) * (h - 1) * den < num


@given(st.integers(-(10**9), 10**9), st.integers(-(10**6), 10**6).filter(bool))
def test_exact_text_is_the_fraction_in_lowest_terms(num: int, den: int) -> None:
    assert Fraction(exact_text(num, den)) == Fraction(num, den)
    assert exact_text(num, den) == str(Fraction(num, den))


@given(st.integers(-(10**7), 10**7))
def test_hundredths_text_is_the_decimal(h: int) -> None:
    assert Fraction(hundredths_text(h)) == Fraction(h, 100)
    assert len(hundredths_text(h).split(".")[1]) == 2


def test_t_quantiles_shrink_towards_the_normal_and_round_to_the_safe_side() -> None:
    values = [t for _, t in T_975]
    assert values == sorted(values, reverse=True) and values[-1] > 1960
    assert t_quantile(11) == 2201 and t_quantile(35) == t_quantile(30) == 2042
    assert t_quantile(10**6) == 1980


@given(st.lists(st.integers(-400, 400), min_size=2, max_size=64))
def test_the_interval_is_students_t_rounded_outward(values: list[int]) -> None:
    e = Estimate.of(values)
    n = len(values)
    mean = Fraction(sum(values), n)
    assert Fraction(e.mean_text()) == mean
    bounds = e.bounds()
    assert bounds is not None
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(n - 1) / 1000 * math.sqrt(variance / n)
    low, high = Fraction(bounds[0], 100), Fraction(bounds[1], 100)
    assert low <= mean - Fraction(half) + Fraction(1, 10**9)
    assert high >= mean + Fraction(half) - Fraction(1, 10**9)
    assert high - low <= 2 * Fraction(half) + Fraction(4, 100) + Fraction(1, 10**9)


@given(st.lists(st.integers(-1200, 1200), min_size=2, max_size=64), st.integers(1, 3))
def test_a_scaled_estimate_is_the_estimate_of_its_fractions(values: list[int], scale: int) -> None:
    """A table's standing (issue 40) is n·s − Σ over n − 1: samples that are integers over
    ``scale``. Its mean is exact and its interval Student's t of the fractions, rounded
    outward to hundredths, as for whole points."""
    e = Estimate.of(values, scale)
    n = len(values)
    mean = Fraction(sum(values), n * scale)
    assert Fraction(e.mean_text()) == mean
    bounds = e.bounds()
    assert bounds is not None
    variance = sum((Fraction(v, scale) - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(n - 1) / 1000 * math.sqrt(variance / n)
    low, high = Fraction(bounds[0], 100), Fraction(bounds[1], 100)
    assert low <= mean - Fraction(half) + Fraction(1, 10**9)
    assert high >= mean + Fraction(half) - Fraction(1, 10**9)
    assert high - low <= 2 * Fraction(half) + Fraction(4, 100) + Fraction(1, 10**9)
    if scale == 1:
        assert e == Estimate.of(values)


def test_a_certain_value_has_no_interval_and_equal_samples_a_point() -> None:
    assert Estimate.certain(95).interval_json() is None
    assert Estimate.of([95, 95, 95]).interval_json() == ["95.00", "95.00"]
    assert Estimate.of([7]).interval_json() is None


def test_marks_need_the_threshold_and_a_cost_clearly_above_zero() -> None:
    assert MARKS.mark(Estimate.certain(50)) == "blunder"
    assert MARKS.mark(Estimate.certain(49)) == "mistake"
    assert MARKS.mark(Estimate.certain(10)) == "inaccuracy"
    assert MARKS.mark(Estimate.certain(9)) is None
    assert MARKS.mark(Estimate.certain(-60)) is None
    assert MARKS.mark(Estimate.of([60, 60, 61, 59])) == "blunder"
    assert MARKS.mark(Estimate.of([200, -100, 150, -50])) is None  # mean 50, but noise
    assert MARKS.mark(Estimate.of([20, 30, 25, 25])) == "mistake"


def test_the_sampling_stream_shuffles_as_f3() -> None:
    seed = bytes(range(32))
    pool = list("abcdefgh")
    again = shuffle_pool(Stream(seed), pool)
    assert sorted(again) == pool
    assert shuffle_pool(Stream(seed), pool) == again
    assert shuffle_pool(Stream(seed), []) == []
