"""judge/judging/ranking.py: which pairs of slips are tried first, and how near a changed file's values come."""
from __future__ import annotations

import numpy as np

from judge.base import encoding as wire
from judge.base.encoding import Array
from judge.judging.evidence import Model, Named, Test as ValueTest
from judge.judging.ranking import PROJECTED, Sketch, flat_numbers, likely_pairs, progress
from judge.model.cases import Drawn, with_calls
from judge.model.problem import TestSpec as Spec, Tolerance
from judge.runs.calls import Observation


def _value(x) -> Observation:
    return Observation(value=Array(np.asarray(x, dtype=np.float64), "numpy", "float64"))


def _test(index: int, expected, actual) -> ValueTest:
    spec = Spec(name=f"t{index}", group="hidden", inputs={}, checks=(), tolerance=Tolerance(1e-9, 1e-12))
    case = with_calls(Drawn(test=spec, arg_names=("x",), args=(wire.roundtrip(np.arange(4.0)),),
                            tolerance=spec.tolerance))
    return ValueTest(index, case, _value(expected), _value(actual), False)


def test_a_sketch_keeps_short_vectors_and_projects_long_ones_alike() -> None:
    short = np.arange(5.0)
    assert Sketch(5)(short) is short
    long = np.random.default_rng(0).normal(size=PROJECTED * 3)
    sketch = Sketch(len(long))
    assert sketch(long).shape == (PROJECTED,)
    assert np.allclose(sketch(long) + sketch(2 * long), sketch(3 * long))   # linear: sums are kept


def test_the_pair_whose_effects_add_up_to_the_learners_value_comes_first() -> None:
    expected = np.array([1.0, 2.0, 3.0, 4.0])
    first = [_test(0, expected, expected + [1.0, 0.0, 0.0, 2.0])]
    shifts = {"a": [1.0, 0.0, 0.0, 0.0], "b": [0.0, 0.0, 0.0, 2.0], "c": [0.0, 5.0, 0.0, 0.0]}
    slips = [Model(f"slip:{k}", Named(k, k, False), group="solution") for k in shifts]
    seen = {(f"slip:{k}", 0): _value(expected + v) for k, v in shifts.items()}
    pairs = likely_pairs(slips, first, seen)
    assert {pairs[0][0].named.name, pairs[0][1].named.name} == {"a", "b"}


def test_slips_of_different_solutions_are_never_paired() -> None:
    expected = np.array([1.0, 2.0])
    first = [_test(0, expected, expected + 1.0)]
    slips = [Model("slip:a", Named("a", "a", False), group="one"), Model("slip:b", Named("b", "b", False), group="two")]
    seen = {("slip:a", 0): _value(expected + [1.0, 0.0]), ("slip:b", 0): _value(expected + [0.0, 1.0])}
    assert likely_pairs(slips, first, seen) == []


def test_progress_measures_how_far_values_are_from_the_expected_ones() -> None:
    test = _test(0, [1.0, 2.0], [2.0, 4.0])
    distance, wrong, unscaled, form = progress([test], [_value([2.0, 4.0])])
    assert distance > 0 and wrong == 2 and unscaled < 1e-9 and form == 0   # a factor away only
    assert progress([test], [_value([1.0, 2.0])])[:2] == (0.0, 0.0)
    assert flat_numbers(_value([1.0, 2.0]).value, _value([[1.0, 2.0]]).value) is None   # shapes differ
