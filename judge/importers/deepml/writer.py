"""Writing a converted Deep-ML variant as a problem of this judge: its YAML files, reference and starter.

The layout is the course's (judge.model.problem): `problems/<id>.yaml` (statement, signature, starter,
rules, the public example), `hidden_tests/<id>/tests.yaml` (the tests, their tolerances, learn.md as
the editorial), `hidden_tests/<id>/reference.py` and `submissions/<id>/<verdict>/starter.py`. Each
test calls the learner's code through the `script` driver (judge.runs.script): its arguments are the
call and a mapping of its inputs. Writing a problem first removes what an earlier import wrote for it,
so a re-import updates the set in place.
"""
from __future__ import annotations

import math
import re
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from judge import checks
from judge.checks import allclose, structure
from judge.importers.deepml.convert import Conversion, Test
from judge.importers.deepml.facts import EXAMPLE
from judge.importers.deepml.split import key

RULE = "printed_values"
RULE_TEXT = ("Each test runs your code as Deep-ML's test does and compares what it prints with what the "
             "reference solution prints, as values: each number within half a unit of the last decimal the "
             "test rounds it to (within 1e-5, relative, where it rounds nothing); lists, tuples and arrays "
             "holding the same numbers are the same value; strings, None and `-1`-style answers exactly.")
ARGS = ("call", "inputs")
MIN_TIME_S = 2.0
TIME_FACTOR = 4.0       # the time limit is at least this many times the reference's slowest test here
CHECKS = (structure, allclose)   # each test's checks: the printed value's structure, then its numbers


@dataclass(frozen=True)
class Paths:
    """Where one problem's files are in a problem set."""

    root: Path
    problem_id: str

    @property
    def public(self) -> Path:
        return self.root / "problems" / f"{self.problem_id}.yaml"

    @property
    def hidden(self) -> Path:
        return self.root / "hidden_tests" / self.problem_id

    @property
    def reference(self) -> Path:
        return self.hidden / "reference.py"

    @property
    def submissions(self) -> Path:
        return self.root / "submissions" / self.problem_id

    def remove(self) -> None:
        """Everything of this problem in the set (an earlier import's files)."""
        self.public.unlink(missing_ok=True)
        for folder in (self.hidden, self.submissions):
            if folder.is_dir():
                shutil.rmtree(folder)


def write_reference(paths: Paths, source: str) -> None:
    paths.hidden.mkdir(parents=True, exist_ok=True)
    paths.reference.write_text(source, encoding="utf-8")


def write_problem(paths: Paths, conversion: Conversion) -> None:
    """problems/<id>.yaml and hidden_tests/<id>/tests.yaml (the reference is written already)."""
    variant = conversion.variant
    tests = sorted(conversion.tests, key=lambda t: t.number)
    # example.json's input as a call, or else a copy of the first test (which stays a hidden test too)
    example = conversion.example or replace(tests[0], number=EXAMPLE)
    hidden = [t for t in tests if t.number != EXAMPLE]
    slowest = max(t.seconds for t in tests)
    public = {
        "id": variant.problem_id,
        "title": variant.title,
        "difficulty": variant.difficulty,
        "tags": ["deepml"] + ([_slug(variant.category)] if variant.category.strip() else []),
        "framework": conversion.framework,
        "driver": "script",
        "entry_point": conversion.entry_point,
        "args": list(ARGS),
        "signature": conversion.signature or f"def {conversion.entry_point}(...):",
        "statement": statement(conversion, judged_example=conversion.example is not None),
        "rules": [{"id": RULE, "text": RULE_TEXT, "checks": [kind for check in CHECKS for kind in check.TRAITS.licenses]}],
        "starter": variant.starter,
        "limits": {"time_s": float(max(MIN_TIME_S, math.ceil(slowest * TIME_FACTOR)))},
        "examples": [_test(example, explanation=variant.example.reasoning.strip()
                           if conversion.example is not None and variant.example is not None else "")],
    }
    private: dict[str, Any] = {"tolerance": {"rtol": 1e-5, "atol": 1e-8}}
    if variant.learn.strip():
        private["editorial"] = {"idea": _text(variant.learn), "cost": ""}
    private["tests"] = [_test(t) for t in hidden]
    paths.public.parent.mkdir(parents=True, exist_ok=True)
    paths.hidden.mkdir(parents=True, exist_ok=True)
    header = (f"# Imported from Deep-ML's open problems, question {variant.number} ({variant.label}) by "
              "`judge import deepml`: edits here are lost on the next import.\n")
    paths.public.write_text(header + _dump(public), encoding="utf-8")
    paths.hidden.joinpath("tests.yaml").write_text(header + _dump(private), encoding="utf-8")


def write_submission(paths: Paths, folder: str, name: str, source: str) -> Path:
    target = paths.submissions / folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source, encoding="utf-8")
    return target


def statement(conversion: Conversion, judged_example: bool) -> str:
    """description.md with its maths as the page writes it (`$...$`, `$$...$$`), and example.json's
    worked example when it is not a judged example of its own."""
    variant = conversion.variant
    text = _maths(_text(variant.description))
    example = variant.example
    if example is not None and not judged_example and (example.input.strip() or example.output.strip()):
        text += "\n\n### Example\n\n"
        text += f"Input:\n\n```\n{example.input.strip()}\n```\n\nOutput:\n\n```\n{example.output.strip()}\n```\n"
        if example.reasoning.strip():
            text += f"\n{_maths(example.reasoning.strip())}\n"
    source = f"Deep-ML question {variant.number}" + (f" ({variant.category})" if variant.category.strip() else "")
    return f"{text.rstrip()}\n\n*{source}.*\n"


def _test(test: Test, explanation: str = "") -> dict[str, Any]:
    rtol, atol = _tolerance(test)
    inputs = {name: _flow(spec) for name, spec in test.inputs.items()}
    entry: dict[str, Any] = {"name": test.name,
                             "inputs": {"call": test.call, "inputs": {"mapping": inputs}},
                             "tolerance": {"rtol": rtol, "atol": atol}}
    if len(test.precision) > 1:
        entry["tolerance"]["keys"] = {key(i): dict(zip(("rtol", "atol"), p.tolerance()))
                                      for i, p in enumerate(test.precision, 1)}
    if explanation:
        entry["explanation"] = _maths(explanation)
    entry["rules"] = [RULE]
    for check in CHECKS:
        entry[checks.name_of(check)] = {}
    return entry


def _tolerance(test: Test) -> tuple[float, float]:
    pairs = [p.tolerance() for p in test.precision]
    return max(r for r, _ in pairs), max(a for _, a in pairs)


def _maths(text: str) -> str:
    r"""TeX delimiters as the page reads them: `\(x\)` as `$x$`, `\[x\]` as `$$x$$`."""
    text = re.sub(r"\\\((.+?)\\\)", r"$\1$", text, flags=re.S)
    return re.sub(r"\\\[(.+?)\\\]", r"$$\1$$", text, flags=re.S)


def _text(text: str) -> str:
    """Text as a YAML block can hold it: no trailing spaces, one newline at the end."""
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()) + "\n"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class _Flow(dict):
    """An input's value written on one line (wrapped), as `{literal: [[1, 2], [3, 4]], dtype: int64}`."""


class _FlowList(list):
    pass


def _flow(spec: Any) -> Any:
    if isinstance(spec, dict) and set(spec) == {"mapping"}:
        return {"mapping": {k: _flow(v) for k, v in spec["mapping"].items()}}
    if isinstance(spec, dict):
        return _Flow(spec)
    if isinstance(spec, list):
        return _FlowList(spec)
    return spec


class _Dumper(yaml.SafeDumper):
    """Block text for multi-line strings, and never an alias (problem files refuse them)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _string(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    if "\n" in data:
        data = "\n".join(line.rstrip() for line in data.splitlines()) + ("\n" if data.endswith("\n") else "")
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)


_Dumper.add_representer(str, _string)
_Dumper.add_representer(_Flow, lambda d, data: d.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True))
_Dumper.add_representer(_FlowList, lambda d, data: d.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True))


def _dump(data: dict) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None)
