"""judge/model/compose.py: `output_of` runs another problem's reference through the loader it is given."""
from __future__ import annotations

import numpy as np
import pytest

from judge.model.compose import Composable, References


def _double(x):
    return {"y": np.asarray(x) * 2}


def test_references_load_each_problem_once_through_the_given_loader():
    asked = []

    def load(problem_id: str) -> Composable:
        asked.append(problem_id)
        return Composable(("x",), "numpy", _double)

    refs = References(load)
    rng = np.random.default_rng(0)
    assert refs.output("double", {"x": 3}, rng) == {"y": 6}
    assert refs.output("double", {"x": 4}, rng) == {"y": 8}
    assert asked == ["double"]


def test_inputs_must_name_exactly_the_other_problems_arguments():
    refs = References(lambda problem_id: Composable(("x",), "numpy", _double))
    with pytest.raises(ValueError, match=r"missing \['x'\], unknown \['z'\]"):
        refs.output("double", {"z": 1}, np.random.default_rng(0))


def test_a_failing_reference_is_an_authoring_error_naming_the_problem():
    def broken(x):
        raise RuntimeError("no")

    refs = References(lambda problem_id: Composable(("x",), "numpy", broken))
    with pytest.raises(ValueError, match="the reference of other fails on these inputs: RuntimeError: no"):
        refs.output("other", {"x": 1}, np.random.default_rng(0))
