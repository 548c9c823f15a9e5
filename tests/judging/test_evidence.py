"""judge/judging/evidence.py: what each model's output proves on each test, and the one fit of several."""
from __future__ import annotations

import numpy as np

from judge.base import encoding as wire
from judge.base.encoding import Array
from judge.judging.evidence import Model, Named, Table, Test as ValueTest, only_fit
from judge.model.cases import Drawn, with_calls
from judge.model.problem import TestSpec as Spec, Tolerance
from judge.runs.calls import Observation


def _value(x) -> Observation:
    return Observation(value=Array(np.asarray(x, dtype=np.float64), "numpy", "float64"))


def _test(index: int, expected, actual, passed: bool = False) -> ValueTest:
    spec = Spec(name=f"t{index}", group="hidden", inputs={}, checks=(), tolerance=Tolerance(1e-9, 1e-12))
    case = with_calls(Drawn(test=spec, arg_names=("x",), args=(wire.roundtrip(np.arange(4.0)),),
                            tolerance=spec.tolerance))
    return ValueTest(index, case, _value(expected), _value(actual), passed)


def _model(key: str, **kw) -> Model:
    return Model(key, Named(key, f"{key} says", key.startswith("trap")), **kw)


def test_a_model_explains_alone_where_it_gives_the_learners_value_and_leaves_passed_tests_right() -> None:
    failing, passed = _test(0, [1.0, 2.0], [2.0, 4.0]), _test(1, [0.0, 0.0], [0.0, 0.0], passed=True)
    table = Table([failing, passed])
    doubled, wrong_there = _model("trap:doubled"), _model("trap:wrong_there")
    table.add([doubled, wrong_there], {("trap:doubled", 0): _value([2.0, 4.0]), ("trap:doubled", 1): _value([0.0, 0.0]),
                                       ("trap:wrong_there", 0): _value([2.0, 4.0]),
                                       ("trap:wrong_there", 1): _value([1.0, 1.0])})
    assert table.explains_alone(doubled, [failing])
    assert not table.explains_alone(wrong_there, [failing])   # it leaves the passed test wrong


def test_an_overflow_alike_is_no_evidence_unless_the_test_was_written_against_it() -> None:
    failing = _test(0, [1.0, 2.0], [np.nan, np.nan])
    table = Table([failing])
    plain, aimed = _model("trap:nan"), _model("trap:aimed", aimed=True)
    table.add([plain, aimed], {("trap:nan", 0): _value([np.inf, np.nan]), ("trap:aimed", 0): _value([np.nan, np.inf])})
    assert table.matches[("trap:nan", 0)] and table.absorbs[("trap:nan", 0)]
    assert not table.explains_alone(plain, [failing])
    assert table.explains_alone(aimed, [failing])


def test_a_model_that_raised_can_tell_nothing() -> None:
    failing = _test(0, [1.0], [2.0])
    table = Table([failing])
    table.add([_model("slip:1")], {})
    assert table.matches[("slip:1", 0)] is None and not table.raised(_model("slip:1"), failing)


def test_of_several_fits_the_one_made_of_known_mistakes_is_kept() -> None:
    a, b, slip = _model("trap:a"), _model("trap:b"), _model("slip:c")
    fits = {frozenset({"trap:a says", "trap:b says"}): {0: (a.named, b.named)},
            frozenset({"trap:a says", "slip:c says"}): {0: (a.named, slip.named)}}
    assert only_fit(fits, [a, b, slip]) == {0: (a.named, b.named)}
    assert only_fit({}, [a]) is None
