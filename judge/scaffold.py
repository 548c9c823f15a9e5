"""`judge new ID`: a new problem from commented templates that already validate.

The templates make a small, complete problem (scale a tensor by a factor)
whose every field carries a comment saying what it is for, so an author
edits a working problem instead of starting from a blank page; `judge
validate ID` passes on the scaffold as created. Nothing is ever overwritten.
"""
from __future__ import annotations

from pathlib import Path

from judge.errors import ConfigError
from judge.problem import FRAMEWORKS, ID_PATTERN


def scaffold(root: Path, problem_id: str, framework: str = "torch") -> list[Path]:
    """Create the files of `problem_id` under `root`; return them (relative to root)."""
    if not ID_PATTERN.match(problem_id) or not problem_id.isidentifier():
        raise ConfigError(f"problem id {problem_id!r}: expected lowercase letters, digits and underscores, "
                          "starting with a letter (it names the files and the entry point)")
    if framework not in FRAMEWORKS:
        raise ConfigError(f"framework {framework!r}: expected one of {', '.join(FRAMEWORKS)}")
    files = _files(problem_id, framework)
    existing = [p for p in (root / "problems" / f"{problem_id}.yaml", root / "hidden_tests" / problem_id,
                            root / "submissions" / problem_id) if p.exists()]
    if existing:
        raise ConfigError(f"problem {problem_id!r} already exists; refusing to overwrite it", file=existing[0])
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as handle:  # "x": never replace a file
            handle.write(text)
    return [Path(r) for r in files]


def _files(pid: str, framework: str) -> dict[str, str]:
    lib = _LIBRARIES[framework]
    values = {"pid": pid, "framework": framework, **lib}
    return {
        f"problems/{pid}.yaml": _PROBLEM.format(**values),
        f"hidden_tests/{pid}/tests.yaml": _TESTS.format(**values),
        f"hidden_tests/{pid}/reference.py": _REFERENCE.format(**values),
        f"hidden_tests/{pid}/traps.py": _TRAPS.format(**values),
        f"submissions/{pid}/accepted/straightforward.py": _ACCEPTED.format(**values),
        f"submissions/{pid}/wrong_answer/adds_instead.py": _WRONG.format(**values),
    }


_LIBRARIES = {
    "torch": {"module": "torch", "type": "torch.Tensor", "is_array": "isinstance(x, torch.Tensor)",
              "float_check": "x.is_floating_point()", "noun": "tensor",
              "gradient": "  - name: gradient_flows_to_x\n    rules: [differentiable]\n    group: check\n"
                          "    inputs: {x: {normal: [3, 4]}, factor: 2.0}\n"
                          "    gradient: {wrt: [x]}       # autograd must reach x with the reference's gradient\n",
              "gradient_rule": "  - id: differentiable\n"
                               "    text: \"The result stays differentiable with respect to `x` (no `.detach()`).\"\n"
                               "    checks: [gradient]\n"},
    "numpy": {"module": "numpy as np", "type": "np.ndarray", "is_array": "isinstance(x, np.ndarray)",
              "float_check": "np.issubdtype(x.dtype, np.floating)", "noun": "array", "gradient": "",
              "gradient_rule": ""},
}

_PROBLEM = """\
# The public part of problem `{pid}`: everything a learner may see.
# Field by field: docs/authoring.md. Check your work with `judge validate {pid}`.
id: {pid}                       # must equal the file name
title: Scale by a Factor        # shown by `judge list`
difficulty: easy                # easy, medium or hard
tags: [warm-up]                 # free-form keywords
framework: {framework}               # torch or numpy: what inputs are and what solutions import
entry_point: {pid}              # the function a submission must define
args: [x, factor]               # its positional arguments, in order; every test gives each one
signature: "def {pid}(x: {type}, factor: float) -> {type}"
limits:
  time_s: 2                     # wall clock per test call
  memory_mb: 1024
  ac_to_time_limit: 2.0         # judge validate: time_s >= this x the slowest accepted test
  time_limit_to_tle: 1.5        # judge validate: warn when a verdict flips within this factor of time_s
statement: |                    # prose only: `judge show` lists the rules below after it
  Multiply every entry of a float {noun} by a number.

  **Input.** `x` is a float {noun} of any shape; `factor` is a Python float.
rules:                          # every rule of the contract; each test names the rules it enforces
  - id: scaled                  # tests refer to rules by id
    text: "Return a new {noun} of the same shape and dtype holding `x * factor`."
    checks: [structure, shape, dtype, finite, values]   # the kinds of check this rule licenses
  - id: inputs_unchanged
    text: "Do not modify `x` in place."
    checks: [mutation]
  - id: errors
    text: "Raise `ValueError` when `x` is not a floating-point {noun}."
    checks: [raises]
{gradient_rule}starter: |
  import {module}


  def {pid}(x, factor):
      raise NotImplementedError
hints:                          # revealed one at a time, from a nudge to the key idea
  - "Arithmetic on a {noun} already applies to every entry."
examples:                       # public: learners see inputs, the reference's output and the explanation
  - name: small_example
    rules: [scaled]             # the rules this example enforces (judge validate checks every check is licensed)
    inputs:
      x: {{literal: [[1.0, 2.0], [3.0, -4.0]]}}   # a generator (docs/authoring.md) or a plain value
      factor: 2.0
    expected: [[2.0, 4.0], [6.0, -8.0]]          # optional: judge validate holds the reference to it
    explanation: "Each entry is doubled."
"""

_TESTS = """\
# The hidden part of problem `{pid}`: tests, checks, tolerances and known mistakes.
# Inputs are drawn from seeds; expected outputs come from reference.py. A hidden
# test's inputs and expected values are never shown to learners.
tolerance: {{rtol: 1.0e-6, atol: 1.0e-7}}  # default for every test; a test may set its own

traps:                         # known mistakes: functions in traps.py; a matching output names the mistake
  - name: adds_instead
    message: "adds the factor instead of multiplying by it"

tests:
  - name: random_matrix        # no check key: `compare` (structure, shape, dtype, finite, allclose)
    rules: [scaled]
    inputs: {{x: {{normal: [8, 16]}}, factor: 0.5}}
  - name: float64_input
    rules: [scaled]
    inputs: {{x: {{normal: [4, 5], dtype: float64}}, factor: -3.0}}
  - name: rejects_integer_input
    rules: [errors]
    inputs: {{x: {{randint: {{shape: [3], low: 0, high: 9}}}}, factor: 2.0}}
    raises: ValueError         # the call must raise this (or a subclass)
    hint: "integer input is not allowed: raise ValueError"
    hint_when: [raises]        # shown only for this kind of failure (or a trap's name)
  - name: no_input_mutation
    rules: [inputs_unchanged]
    group: check               # hidden (default) or check: a property check
    inputs: {{x: {{normal: [3, 4]}}, factor: 2.0}}
    mutation: {{}}
{gradient}"""

_REFERENCE = """\
\"\"\"Trusted reference for `{pid}`: expected outputs of every test come from here.\"\"\"
import {module}


def {pid}(x, factor):
    if not ({is_array} and {float_check}):
        raise ValueError("x must be a floating-point {noun}")
    return x * factor
"""

_TRAPS = """\
\"\"\"Known mistakes for `{pid}`: one function per trap listed in tests.yaml.\"\"\"


def adds_instead(x, factor):
    return x + factor
"""

_ACCEPTED = """\
import {module}


def {pid}(x, factor):
    if not ({is_array} and {float_check}):
        raise ValueError("expected a float {noun}")
    return factor * x
"""

_WRONG = """\
import {module}


def {pid}(x, factor):
    \"\"\"The trap in traps.py: adds instead of multiplying.\"\"\"
    if not ({is_array} and {float_check}):
        raise ValueError("expected a float {noun}")
    return x + factor
"""
