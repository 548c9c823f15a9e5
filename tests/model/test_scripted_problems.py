"""A problem whose tests call solutions through a script (`driver: script`), written by hand: several
functions and a class per test, no inputs at all, text values, all judged as any problem is."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.base.errors import ConfigError
from judge.base.submission import Submission
from judge.judging.session import Judge
from judge.model.problem import load_hidden, load_problem

PUBLIC = '''\
id: pipeline
title: Pipeline
difficulty: easy
tags: []
framework: numpy
driver: script
entry_point: scale
args: [call, inputs]
signature: "def scale(x, k): ...; def shift(x, b): ...; class Tally"
statement: Scale, shift and tally.
rules:
  - {id: values, text: "The values are the reference's.", checks: [structure, values]}
examples:
  - name: both
    inputs:
      call: "shift(scale(x, 2), 1)"
      inputs: {mapping: {x: {literal: [1.0, 2.0], dtype: float64, library: numpy}}}
    rules: [values]
    structure: {}
    allclose: {}
'''
HIDDEN = '''\
tolerance: {rtol: 1.0e-05, atol: 1.0e-08}
tests:
  - name: tally
    inputs:
      call: |-
        t = Tally()
        t.add(2)
        t.add(3)
        (t.total, t.label())
      inputs: {mapping: {}}
    rules: [values]
    structure: {}
    allclose: {}
'''
REFERENCE = '''\
import numpy as np

def scale(x, k):
    return x * k

def shift(x, b):
    return x + b

class Tally:
    def __init__(self):
        self.total = 0
    def add(self, k):
        self.total += k
    def label(self):
        return "many" if self.total > 3 else "few"
'''


@pytest.fixture(scope="module")
def problem_set(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("scripted")
    (root / "problems").mkdir()
    (root / "problems" / "pipeline.yaml").write_text(PUBLIC)
    (root / "hidden_tests" / "pipeline").mkdir(parents=True)
    (root / "hidden_tests" / "pipeline" / "tests.yaml").write_text(HIDDEN)
    (root / "hidden_tests" / "pipeline" / "reference.py").write_text(REFERENCE)
    return root


@pytest.fixture(scope="module")
def judge(problem_set: Path):
    with Judge(problem_set, record=False) as j:
        yield j


def test_a_scripted_problem_loads_and_its_reference_is_called_through_the_driver(problem_set: Path):
    problem = load_problem(problem_set, "pipeline")
    assert problem.driver == "script"
    reference = load_hidden(problem).reference_function(problem.entry_point)
    assert reference("(t := Tally(), t.add(5), t.label())[2]", {}) == "many"


def test_the_reference_is_accepted_and_each_wrong_function_is_caught(judge: Judge):
    assert judge.submit("pipeline", Submission.from_text(REFERENCE, "reference.py"), record=False).accepted
    wrong_label = REFERENCE.replace('"many" if self.total > 3', '"many" if self.total > 5')
    report = judge.submit("pipeline", Submission.from_text(wrong_label, "wrong.py"), record=False)
    failing = {t.name: t for t in report.tests if t.verdict.value != "accepted"}
    assert set(failing) == {"tally"}
    assert "not the expected text" in failing["tally"].message   # text is compared as text
    wrong_shift = REFERENCE.replace("return x + b", "return x - b")
    report = judge.submit("pipeline", Submission.from_text(wrong_shift, "wrong.py"), record=False)
    assert [t.name for t in report.tests if t.verdict.value != "accepted"] == ["both"]


def test_a_file_without_the_entry_point_fails_every_test_naming_it(judge: Judge):
    report = judge.submit("pipeline", Submission.from_text("def shift(x, b):\n    return x + b\n", "bare.py"),
                          record=False)
    assert not report.accepted
    assert "does not define `scale`" in report.tests[0].message


def test_an_unknown_driver_is_a_schema_error_naming_the_field(problem_set: Path, tmp_path: Path):
    (tmp_path / "problems").mkdir()
    (tmp_path / "problems" / "pipeline.yaml").write_text(PUBLIC.replace("driver: script", "driver: scripts"))
    with pytest.raises(ConfigError, match=r"driver: expected one of script, got 'scripts'"):
        load_problem(tmp_path, "pipeline")
