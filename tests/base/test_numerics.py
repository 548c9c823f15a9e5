"""The one tolerance rule (judge/base/numerics.py) and the places that decide through it."""
from __future__ import annotations

import numpy as np

from judge.checks.allclose import compare_values
from judge.base.numerics import all_within, errors, within
from judge.model.problem import Tolerance
from judge.render.sidebyside import outputs_lines
from judge.base.encoding import Array

INF, NAN = float("inf"), float("nan")


def test_within_bounds_by_atol_plus_rtol_times_expected():
    expected = np.array([100.0, 0.0, -2.0])
    assert within(expected, expected + [0.9, 0.09, 0.0], rtol=0.01, atol=0.1).tolist() == [True, True, True]
    assert within(expected, expected + [1.2, 0.11, 0.2], rtol=0.01, atol=0.1).tolist() == [False, False, False]


def test_infinite_expected_matches_only_the_same_infinity():
    # |5 - inf| <= atol + rtol * inf would hold: the rule must not let any finite value match infinity
    expected = np.array([INF, INF, -INF])
    assert within(expected, np.array([INF, 5.0, INF]), rtol=1e-5, atol=1e-6).tolist() == [True, False, False]


def test_nan_matches_nan_only():
    assert within(np.array([NAN, NAN, 1.0]), np.array([NAN, 1.0, NAN]), 1e-5, 1e-6).tolist() == [True, False, False]


def test_complex_values_keep_their_imaginary_part():
    assert not within(np.array([1 + 1j]), np.array([1 - 1j]), 1e-5, 1e-6).any()


def test_errors_report_largest_finite_abs_and_rel():
    e, a = np.array([1.0, 10.0, INF]), np.array([1.5, 8.0, 3.0])
    found = errors(e, a, ~within(e, a, 0.0, 0.0))
    assert (found.count, found.max_abs, found.max_rel) == (3, 2.0, 0.5)


def test_check_and_side_by_side_agree_on_an_infinite_expected_value():
    expected, actual = Array(np.array([1.0, INF]), "numpy", "float64"), Array(np.array([1.0, 7.0]), "numpy", "float64")
    tol = Tolerance(1e-5, 1e-6)
    assert not compare_values(expected, actual, tol, reveal=True).passed
    lines, _ = outputs_lines(expected, actual, tol, "")
    assert "1 of 2 entries differ" in "".join(text for line in lines for text, _ in line)


def test_all_within_says_what_within_says_of_every_entry():
    """The sample it looks at first only tells differing arrays apart sooner: one entry off anywhere,
    sampled or not, NaN and infinities included, gives the answer `within(...).all()` gives."""
    rng = np.random.default_rng(3)
    for shape in ((1,), (7,), (300,), (40, 50), (3, 17, 29)):
        expected = rng.normal(size=shape)
        size = expected.size
        for index in {0, size // 3, size - 1}:
            for change in (0.0, 1.0, NAN, INF):
                actual = expected.copy()
                actual.reshape(-1)[index] += change
                for rtol, atol in ((1e-6, 1e-8), (0.0, 0.0), (1.0, 2.0)):
                    assert all_within(expected, actual, rtol, atol) == bool(within(expected, actual, rtol, atol).all())
    assert all_within(np.array([NAN, INF]), np.array([NAN, INF]), 0.0, 0.0)


def test_an_exact_tolerance_is_the_same_rule():
    """rtol = atol = 0 takes a shorter path (a == e); it must say what the general rule says."""
    rng = np.random.default_rng(3)
    specials = np.array([0.0, -0.0, 1.0, np.inf, -np.inf, np.nan, 1e308, -1e-308])
    for dtype in (np.float32, np.float64, np.int64, np.complex128):
        with np.errstate(over="ignore"):  # 1e308 becomes inf in float32, as intended
            e = rng.choice(specials, 400).astype(dtype) if dtype != np.int64 else rng.integers(-3, 3, 400)
            a = np.where(rng.random(400) < 0.5, e, rng.choice(specials, 400).astype(e.dtype) if dtype != np.int64
                         else rng.integers(-3, 3, 400))
        ef, af = e.astype(np.complex128 if np.iscomplexobj(e) else np.float64), \
            a.astype(np.complex128 if np.iscomplexobj(a) else np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            general = (np.isfinite(ef) & (np.abs(af - ef) <= 0)) | (np.isnan(ef) & np.isnan(af)) | \
                (np.isinf(ef) & (af == ef))
        assert np.array_equal(within(e, a, 0.0, 0.0), general), dtype
        if dtype == np.float32:  # a float64 answer to a float32 expectation: compared as the rule says
            assert np.array_equal(within(e, a.astype(np.float64) + 1e-12, 0.0, 0.0),
                                  within(ef, af + 1e-12, 0.0, 0.0))
