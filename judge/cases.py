"""Cases: a test's inputs drawn from their seeds, and the calls the judge will make.

A `Case` is what both the reference and the submission are run on. Inputs are
drawn deterministically (a seed derived from problem id, test name and
argument name, unless the YAML fixes one) and stored in their plain,
boundary-crossing form. Each selected check may add calls (a gradient call, a
perturbed batch), so everything a check needs is computed by the same machinery
for the reference and the submission.
"""
from __future__ import annotations

import functools
import hashlib
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from judge import checks, generators, wire
from judge.compose import References
from judge.errors import ConfigError
from judge.execute import Call
from judge.problem import Problem, TestSpec, Tolerance, load_composable

MAIN = "main"


@dataclass(frozen=True)
class Case:
    test: TestSpec
    arg_names: tuple[str, ...]
    args: tuple[Any, ...]
    tolerance: Tolerance = Tolerance()
    calls: dict[str, Call] = field(default_factory=dict)
    problem: str = ""                 # the problem id, part of every seed


    @property
    def name(self) -> str:
        return self.test.name

    @property
    def public(self) -> bool:
        return self.test.public

    def arg_index(self, name: str) -> int:
        return self.arg_names.index(name)

    def seed(self, purpose: str) -> int:
        """The seed of a check's extra inputs: from problem id, test name and purpose only.

        Never from where the test is written (its file:line) or where the judge runs:
        the same test must draw the same bytes from any directory and after edits above it.
        """
        return derive_seed(self.problem, self.test.name, f"check:{purpose}")  # ":" keeps it apart from argument names


def derive_seed(*parts: str) -> int:
    digest = hashlib.sha256("/".join(parts).encode()).digest()
    return int.from_bytes(digest[:4], "little")


def draw_inputs(problem: Problem, test: TestSpec) -> tuple[Any, ...]:
    """The test's arguments, in signature order, as plain decoded values."""
    drawn: dict[str, Any] = {}
    references = References(functools.partial(load_composable, problem.root))  # for `output_of`
    for name in problem.args:
        spec = test.inputs.get(name)
        if isinstance(spec, generators.Spec):
            seed = spec.seed if spec.seed is not None else derive_seed(problem.id, test.name, name)
            try:
                drawn[name] = spec.draw_plain(np.random.default_rng(seed), drawn, problem.framework,
                                              context=references)
            except KeyError as exc:
                raise ConfigError(f"inputs.{name}: refers to argument {exc} which is not drawn before it",
                                  file=test.source) from None
            except (ValueError, TypeError) as exc:
                raise ConfigError(f"inputs.{name}: cannot draw {spec!r}: {exc}", file=test.source) from None
        else:
            drawn[name] = spec
    return tuple(wire.roundtrip(drawn[name]) for name in problem.args)


def build_case(problem: Problem, test: TestSpec, default_tolerance: Tolerance | None = None) -> Case:
    """Draw the inputs of `test` and collect the calls its checks need."""
    args = draw_inputs(problem, test)
    tolerance = test.tolerance or default_tolerance or Tolerance()
    case = Case(test=test, arg_names=problem.args, args=args, tolerance=tolerance, problem=problem.id)
    calls = {MAIN: Call(args=args)}
    for spec in test.checks:
        extra = checks.get(spec.type).calls
        if extra is not None:
            for name, call in extra(case, **spec.params).items():
                calls[f"{spec.type}.{name}"] = call
    case.calls.update(calls)
    return case
