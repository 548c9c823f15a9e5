"""`judge new ID`: a new problem from commented templates that already validate.

The templates make a neutral skeleton named for the id: every field carries
a comment saying what it is for, and TODOs mark what to replace. Its
placeholder contract (return a copy of `x`) is complete, so `judge validate
ID` passes on the scaffold as created and an author checks each edit.
`--pack DIR` puts the problem into a problem pack: an installable package
(judge.model.locate) whose pyproject.toml is written with it. Nothing is ever
overwritten.
"""
from __future__ import annotations

from pathlib import Path

from judge.base.errors import ConfigError
from judge.model.problem import FRAMEWORKS, ID_PATTERN


def scaffold(root: Path, problem_id: str, framework: str = "torch", one_file: bool = False) -> list[Path]:
    """Create the files of `problem_id` under `root`; return them (relative to root).

    `one_file`: the hidden part is tests.yaml alone, the reference written in it
    (`reference_code: |`) instead of reference.py, and no traps.py.
    """
    if not ID_PATTERN.match(problem_id) or not problem_id.isidentifier():
        raise ConfigError(f"problem id {problem_id!r}: expected lowercase letters, digits and underscores, "
                          "starting with a letter (it names the files and the entry point)")
    if framework not in FRAMEWORKS:
        raise ConfigError(f"framework {framework!r}: expected one of {', '.join(FRAMEWORKS)}")
    files = _files(problem_id, framework, one_file)
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


def scaffold_pack(directory: Path, problem_id: str, framework: str = "torch", one_file: bool = False) -> list[Path]:
    """Problem `problem_id` in the pack at `directory`, made with its pyproject.toml when new.

    The pack is a package named for the directory (my-pack: my_pack) laid out like a problem
    set, declared in the entry point group judge.model.locate reads; `pip install DIR` adds its
    problems to `judge list`. Returns the created files, relative to `directory`.
    """
    from judge.model.locate import GROUP

    name = directory.resolve().name
    package = name.replace("-", "_").replace(".", "_").lower()
    if not package.isidentifier():
        raise ConfigError(f"pack directory {name!r}: expected a name of letters, digits, '-' and '_' "
                          "(it names the pack's package)", file=directory)
    created: list[Path] = []
    pyproject = directory / "pyproject.toml"
    if not pyproject.exists():
        (directory / package).mkdir(parents=True, exist_ok=True)
        for relative, text in ((Path("pyproject.toml"), _PACK_PYPROJECT.format(name=name, package=package, group=GROUP)),
                               (Path(BUILD_BACKEND + ".py"), _PACK_BACKEND), (Path("MANIFEST.in"), _PACK_MANIFEST),
                               (Path(package) / "__init__.py", _PACK_INIT.format(name=name))):
            with (directory / relative).open("x", encoding="utf-8") as handle:
                handle.write(text)
            created.append(relative)
    elif not (directory / package).is_dir():
        raise ConfigError(f"not a problem pack made by `judge new --pack`: no package directory {package}/ "
                          "beside it", file=pyproject)
    root = directory / package
    for sub in ("problems", "hidden_tests"):
        (root / sub).mkdir(exist_ok=True)
    return created + [Path(package) / p for p in scaffold(root, problem_id, framework, one_file)]


def _files(pid: str, framework: str, one_file: bool = False) -> dict[str, str]:
    lib = _LIBRARIES[framework]
    values = {"pid": pid, "framework": framework, "title": pid.replace("_", " ").title(), **lib}
    tests = _TESTS.format(**values)
    hidden = {f"hidden_tests/{pid}/reference.py": _REFERENCE.format(**values),
              f"hidden_tests/{pid}/traps.py": _TRAPS.format(**values)}
    if one_file:
        start, end = tests.index("traps:"), tests.index("tests:")
        code = "".join(f"  {line}".rstrip() + "\n" for line in _REFERENCE.format(**values).splitlines())
        tests = (tests[:start] + _INLINE_REFERENCE + code + "\n" + tests[end:]).replace(
            "come from reference.py", "come from the reference below", 1)
        hidden = {}
    return {
        f"problems/{pid}.yaml": _PROBLEM.format(**values),
        f"hidden_tests/{pid}/tests.yaml": tests,
        **hidden,
        f"submissions/{pid}/accepted/placeholder.py": _ACCEPTED.format(**values),
        f"submissions/{pid}/wrong_answer/returns_zeros.py": _WRONG.format(**values),
    }


_INLINE_REFERENCE = """\
# A one-file problem: the trusted reference is written here instead of reference.py
# (tracebacks name this file's lines). Known mistakes (traps) need a traps.py.
reference_code: |
"""


_LIBRARIES = {
    "torch": {"module": "torch", "type": "torch.Tensor", "domain": "tensor", "is_array": "isinstance(x, torch.Tensor)",
              "float_check": "x.is_floating_point()", "noun": "tensor", "copy": "x.clone()",
              "zeros": "torch.zeros_like(x)",
              "gradient": "  - name: gradient_flows_to_x\n    rules: [differentiable]\n    group: check\n"
                          "    inputs: {x: {normal: [3, 4]}}\n"
                          "    gradient: {wrt: [x]}       # autograd must reach x with the reference's gradient\n",
              "gradient_rule": "  - id: differentiable\n"
                               "    text: \"The result stays differentiable with respect to `x` (no `.detach()`).\"\n"
                               "    checks: [gradient]\n"},
    "numpy": {"module": "numpy as np", "type": "np.ndarray", "domain": "array", "is_array": "isinstance(x, np.ndarray)",
              "float_check": "np.issubdtype(x.dtype, np.floating)", "noun": "array", "copy": "x.copy()",
              "zeros": "np.zeros_like(x)", "gradient": "", "gradient_rule": ""},
}

_PROBLEM = """\
# The public part of problem `{pid}`: everything a learner may see.
# Field by field: docs/authoring.md. Check your work with `judge validate {pid}`.
# A skeleton: every TODO marks what to replace. As created its placeholder
# contract (return a copy of `x`) validates, so each edit can be checked.
id: {pid}                       # must equal the file name
title: {title}                  # shown by `judge list` (TODO: a title that says what it computes)
difficulty: easy                # easy, medium or hard
tags: [todo]                    # free-form keywords; a unit's tag (unit-5.5) belongs in that unit's list too
framework: {framework}               # torch or numpy: what inputs are and what solutions import
entry_point: {pid}              # the function a submission must define
args: [x]                       # its positional arguments, in order; every test gives each one
signature: "def {pid}(x: {type}) -> {type}"
domain:                         # the type of each argument: tests never pass another (docs/authoring.md)
  x: {domain}                   # any dtype: an integer one is an invalid input the rules name
limits:
  time_s: 2                     # wall clock per test call
  memory_mb: 1024
  ac_to_time_limit: 2.0         # judge validate: time_s >= this x the slowest accepted test
  time_limit_to_tle: 1.5        # judge validate: warn when a verdict flips within this factor of time_s
statement: |                    # prose only: `judge show` lists the rules below after it
  TODO: say what `{pid}` computes and why it matters (a few sentences, a worked example).

  **Input.** `x` is a float {noun} of any shape.
rules:                          # every rule of the contract; each test names the rules it enforces
  - id: result                  # tests refer to rules by id
    text: "TODO: what the result is. Placeholder: a new {noun} equal to `x` (same shape and dtype)."
    checks: [structure, shape, dtype, finite, values]   # the kinds of check this rule licenses
  - id: inputs_unchanged
    text: "Do not modify `x` in place."
    checks: [mutation]
  - id: errors
    text: "Raise `ValueError` when `x` is not a floating-point {noun}."
    checks: [raises]
{gradient_rule}starter: |
  import {module}


  def {pid}(x):
      raise NotImplementedError
hints:                          # revealed one at a time, from a nudge to the key idea
  - "TODO: a nudge; the next hints lead to the key idea."
examples:                       # public: learners see inputs, the reference's output and the explanation
  - name: small_example
    rules: [result]             # the rules this example enforces (judge validate checks every check is licensed)
    inputs:
      x: {{literal: [[1.0, 2.0], [3.0, -4.0]]}}   # a generator (docs/authoring.md) or a plain value
    expected: [[1.0, 2.0], [3.0, -4.0]]          # optional: judge validate holds the reference to it
    explanation: "TODO: why this is the output."
"""

_TESTS = """\
# The hidden part of problem `{pid}`: tests, checks, tolerances and known mistakes.
# Inputs are drawn from seeds; expected outputs come from reference.py. A hidden
# test's inputs and expected values are never shown to learners.
tolerance: {{rtol: 1.0e-6, atol: 1.0e-7}}  # default for every test; a test may set its own

traps:                         # known mistakes: functions in traps.py; a matching output names the mistake
  - name: returns_zeros
    message: "returns zeros (TODO: a realistic mistake and what to change)"

tests:
  - name: random_matrix        # no check key: `compare` (structure, shape, dtype, finite, allclose)
    rules: [result]
    inputs: {{x: {{normal: [8, 16]}}}}
  - name: float64_input
    rules: [result]
    inputs: {{x: {{normal: [4, 5], dtype: float64}}}}
  - name: rejects_integer_input
    rules: [errors]
    inputs: {{x: {{randint: {{shape: [3], low: 0, high: 9}}}}}}
    raises: ValueError         # the call must raise this (or a subclass)
    hint: "integer input is not allowed: raise ValueError"
    hint_when: [raises]        # shown only for this kind of failure (or a trap's name)
  - name: no_input_mutation
    rules: [inputs_unchanged]
    group: check               # hidden (default) or check: a property check
    inputs: {{x: {{normal: [3, 4]}}}}
    mutation: {{}}
{gradient}"""

_REFERENCE = """\
\"\"\"Trusted reference for `{pid}`: expected outputs of every test come from here.\"\"\"
import {module}


def {pid}(x):
    if not ({is_array} and {float_check}):
        raise ValueError("x must be a floating-point {noun}")
    return {copy}  # TODO: the real computation
"""

_TRAPS = """\
\"\"\"Known mistakes for `{pid}`: one function per trap listed in tests.yaml.\"\"\"
import {module}


def returns_zeros(x):
    return {zeros}
"""

_ACCEPTED = """\
import {module}


def {pid}(x):
    if not ({is_array} and {float_check}):
        raise ValueError("expected a float {noun}")
    return {copy}
"""

_WRONG = """\
import {module}


def {pid}(x):
    \"\"\"The trap in traps.py: returns zeros.\"\"\"
    if not ({is_array} and {float_check}):
        raise ValueError("expected a float {noun}")
    return {zeros}
"""

BUILD_BACKEND = "_pack_build"      # beside a pack's pyproject.toml: setuptools, from a clean build/ each time

_PACK_PYPROJECT = """\
# A problem pack for tensor-judge: `pip install .` adds its problems to `judge list`.
# The problems live in {package}/ laid out like a problem set (docs/authoring.md);
# `judge validate` inside this directory checks them.
[build-system]
requires = ["setuptools>=64"]
build-backend = "_pack_build"      # setuptools, with no build/ left to ship a deleted problem again
backend-path = ["."]

[project]
name = "{name}"
version = "0.1.0"
description = "Practice problems for tensor-judge"
dependencies = ["tensor-judge"]

[project.entry-points."{group}"]
{name} = "{package}"          # the pack's name in `judge list` = the package holding the problems

[tool.setuptools]
packages = ["{package}"]

[tool.setuptools.package-data]
{package} = ["problems/*.yaml", "units/*.yaml", "hidden_tests/**/*.py", "hidden_tests/**/*.yaml",
             "submissions/**/*.py"]
"""

_PACK_BACKEND = """\
\"\"\"setuptools' build backend, from a clean build/ each time.

setuptools copies the package into build/lib and builds the wheel from there, but never removes what the
source no longer has: a problem deleted from the pack would ship again from the copy left by the last
build. So build/ goes before and after every build.
\"\"\"
import shutil
from pathlib import Path

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403  (every hook the backend does not change)

_BUILD = Path(__file__).resolve().parent / "build"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    shutil.rmtree(_BUILD, ignore_errors=True)
    try:
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    finally:
        shutil.rmtree(_BUILD, ignore_errors=True)
"""

_PACK_MANIFEST = """\
include _pack_build.py
"""

_PACK_INIT = """\
\"\"\"The problem pack {name}: problems/, hidden_tests/, submissions/ (and units/) beside this file.\"\"\"
"""
