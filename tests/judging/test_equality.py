"""judge/judging/equality.py: when a model's output is the learner's or the expected value, as the checks see it."""
from __future__ import annotations

import numpy as np

from judge.base import encoding as wire
from judge.base.encoding import Array
from judge.judging.equality import (all_finite, entrywise, finite_anywhere, kinds, overflow_only, rounding_apart,
                                    same_numbers, same_value)
from judge.model.cases import Drawn, with_calls
from judge.model.problem import TestSpec as Spec, Tolerance


def _case(rtol: float = 1e-9, atol: float = 1e-12):
    spec = Spec(name="t", group="hidden", inputs={}, checks=(), tolerance=Tolerance(rtol, atol))
    return with_calls(Drawn(test=spec, arg_names=("x",), args=(wire.roundtrip(np.arange(4.0)),),
                            tolerance=spec.tolerance))


def _array(x, dtype: str = "float64") -> Array:
    return Array(np.asarray(x, dtype=dtype), "numpy", dtype)


def test_a_value_is_the_same_within_the_tests_tolerance_and_in_the_same_form() -> None:
    case = _case(rtol=1e-6)
    assert same_value(case, _array([1.0, 2.0]), _array([1.0, 2.0 + 1e-7]))
    assert not same_value(case, _array([1.0, 2.0]), _array([1.0, 2.1]))
    assert not same_value(case, _array([1.0, 2.0]), _array([[1.0, 2.0]]))            # another shape
    assert not same_value(case, _array([1.0, 2.0]), _array([1.0, 2.0], "float32"))   # another dtype


def test_the_same_numbers_may_be_held_by_a_float_or_a_0_dim_array() -> None:
    case = _case()
    assert same_numbers(case, 2.5, _array(2.5))
    assert not same_numbers(case, {"a": 2.5}, {"b": 2.5})   # other keys
    assert not same_numbers(case, _array([1.0, 2.0]), _array([1.0, 2.0], "float32"))   # another float precision


def test_float32_rounding_alone_is_rounding_apart_and_a_real_difference_is_not() -> None:
    exact = np.linspace(0.1, 1.0, 50)
    assert rounding_apart(_array(exact), _array(exact.astype(np.float32).astype(np.float64)))
    assert not rounding_apart(_array(exact), _array(exact * (1 + 1e-3)))
    assert not rounding_apart(_array([1.0, np.nan]), _array([1.0, 1.0]))   # non-finite where the other is not


def test_finite_numbers_and_an_overflow_that_leaves_nothing_else_to_see() -> None:
    assert all_finite(_array([1.0, 2.0])) and not all_finite(_array([1.0, np.inf]))
    assert finite_anywhere(_array([1.0, np.nan])) and not finite_anywhere(_array([np.nan, np.inf]))
    case = _case()
    want = {"loss": _array(1.0), "scores": _array([1.0, 2.0])}
    assert overflow_only(case, want, {"loss": _array(np.nan), "scores": _array([1.0, 2.0])})
    assert not overflow_only(case, want, {"loss": _array(np.nan), "scores": _array([1.0, 3.0])})


def test_entries_are_compared_one_by_one_and_types_are_told_apart() -> None:
    found = entrywise(_case(), _array([1.0, 2.0, 3.0]), _array([1.0, 0.0, 3.0]))
    assert [list(x) for x in found] == [[True, False, True]]
    assert entrywise(_case(), _array([1.0, 2.0]), _array([1.0, 2.0, 3.0])) is None
    assert kinds({"a": 1, "b": [2.0, _array([1.0])]}) == {"a": "int", "b": ["float", ("array", "numpy", "float64", 1)]}
