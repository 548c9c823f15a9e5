"""judge/judging/verdict.py: a test's hint is shown only for the failures it explains."""
from __future__ import annotations

import numpy as np

from judge.base import encoding as wire
from judge.base.outcomes import Verdict
from judge.base import report
from judge.judging.diagnose import Diagnosis
from judge.judging.verdict import Pending, finish_result, hint_applies
from judge.model.cases import Drawn, with_calls
from judge.model.problem import TestSpec as Spec, Tolerance


def _case(hint: str = "mask by index", hint_when: tuple[str, ...] = ()):
    spec = Spec(name="t", group="hidden", inputs={}, checks=(), tolerance=Tolerance(1e-9, 1e-12), hint=hint,
                hint_when=hint_when)
    return with_calls(Drawn(test=spec, arg_names=("x",), args=(wire.roundtrip(np.arange(4.0)),),
                            tolerance=spec.tolerance))


def test_a_hint_applies_to_the_failures_it_names_or_to_any_when_it_names_none() -> None:
    assert hint_applies(_case(), "values.loss", ())
    assert hint_applies(_case(hint_when=("values",)), "values.loss", ())       # `values` covers every key
    assert not hint_applies(_case(hint_when=("values.loss",)), "values.logits", ())
    assert hint_applies(_case(hint_when=("naive_exp",)), "values", ("naive_exp",))
    assert not hint_applies(_case(hint=""), "values", ())


def test_a_value_where_an_error_was_due_names_its_trap_and_the_hint_about_it() -> None:
    case = _case(hint_when=("crops",))
    result = report.TestResult("t", "hidden", Verdict.WRONG_ANSWER, "no error raised")
    finished = finish_result(case, result, Pending("raises", trap=Diagnosis("crops", "crops silently")))
    assert finished.mistake.name == "crops" and finished.mistake.known and finished.hint == "mask by index"
    assert finish_result(case, result, None) is result
    assert finish_result(case, result, Pending("raises")).hint is None
