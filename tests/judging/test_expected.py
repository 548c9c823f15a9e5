"""judge/judging/expected.py: the reference's observations, as they look after crossing the sandbox's boundary."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from judge.base import encoding as wire
from judge.base.errors import ConfigError
from judge.judging.expected import expect, expects_error, plain
from judge.model.cases import MAIN, Drawn, with_calls
from judge.model.problem import CheckSpec, TestSpec as Spec, Tolerance
from judge.runs.calls import Observation


def _case(checks: tuple[CheckSpec, ...] = ()):
    spec = Spec(name="t", group="hidden", inputs={}, checks=checks, tolerance=Tolerance(1e-9, 1e-12))
    return with_calls(Drawn(test=spec, arg_names=("x",), args=(wire.roundtrip(np.arange(4.0)),),
                            tolerance=spec.tolerance))


def test_an_observation_crosses_the_boundary_as_plain_data() -> None:
    crossed = plain(Observation(value=np.arange(3.0)))
    assert crossed.value.library == "numpy" and list(crossed.value.data) == [0.0, 1.0, 2.0]


def test_the_reference_runs_on_every_call_and_a_failing_reference_is_the_authors_error() -> None:
    case = _case()
    expected = expect(case, lambda x: x * 2, Path("reference.py"))
    assert list(expected) == [MAIN] and list(expected[MAIN].value.data) == [0.0, 2.0, 4.0, 6.0]

    def broken(x):
        raise ValueError("no")

    with pytest.raises(ConfigError, match="the reference fails on test 't'"):
        expect(case, broken, Path("reference.py"))


def test_a_test_with_a_raises_check_expects_an_error() -> None:
    assert not expects_error(_case())
    assert expects_error(_case((CheckSpec("raises", {"type": "ValueError"}),)))
