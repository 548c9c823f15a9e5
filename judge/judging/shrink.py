"""The smallest input that shows a wrong value: a failing test's input shrunk, as Hypothesis shrinks.

Candidates are made in a few sandbox runs (every size halved or made 1 or 2, floats made small
integers), drawn by the test's own generators; the reference decides which are valid inputs, and the
smallest whose output differs from the reference's is kept and shrunk further. A public example's input
is shrunk as it is; a hidden test's is never shown: its generators are drawn again from seeds of their
own and its literal values replaced by the first public example's, and nothing is shown where that
fresh input shows no difference.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

import numpy as np

from judge.model import generators

from judge.base import encoding as wire
from judge.model.cases import Case, build_case, derive_seed
from judge.checks import compare
from judge.checks.observed import Observed
from judge.runs.contract import Backend, Limits, Program
from judge.base.errors import ConfigError
from judge.runs.calls import Call, Observation, run_call
from judge.model.problem import Problem, TestSpec
from judge.base.quiet import quiet
from judge.base.report import Shown
from judge.base.encoding import Array

ROUNDS = 3            # sandbox runs at most
PER_ROUND = 16        # candidates per round at most
SMALL_INTEGERS = (-3, 4)   # the range of the simpler values floats are made


@dataclass
class Shrinker:
    """Finds the smallest input showing a wrong value for one problem; its reference is loaded on need."""

    problem: Problem
    reference: Callable[[], Callable]     # loads the trusted reference (judge.model.problem.Hidden.reference_function)
    tolerance: Any                        # the hidden file's default tolerance
    public: Sequence[Case] = ()           # the public examples (their values stand in for a hidden test's own)
    every: Sequence[Case] = ()            # every test (no candidate equal to one is shown)

    def smallest(self, case: Case, program: Program, backend: Backend, limits: Limits) -> Shown | None:
        """The smallest input found on which `program` and the reference differ, side by side; None
        when no candidate shows a difference (or the test's input cannot be shrunk without showing it)."""
        start = self._start(case)
        if start is None:
            return None
        best, tried = None, {self._key(start)}
        frontier = [start]
        for round_ in range(ROUNDS):
            # A hidden test's fresh input is a candidate of its own; a public example is shown already.
            candidates = [start] if round_ == 0 and not case.test.public else []
            for spec in frontier:
                for made in _moves(spec, self.problem.args):
                    if self._key(made) not in tried and len(candidates) < PER_ROUND:
                        tried.add(self._key(made))
                        candidates.append(made)
            shown = self._judge_candidates(candidates, program, backend, limits)
            if not shown:
                break
            best = min(shown, key=lambda s: s[0])
            frontier = [best[1]]
        return best[2] if best is not None else None

    # ------------------------------------------------------------ candidates

    def _start(self, case: Case) -> TestSpec | None:
        """The test's own spec for a public example; for a hidden test, its generators with seeds of their
        own and the first public example's value for every value it gives as it is."""
        test = case.test
        if test.public:
            return replace(test, name=f"{test.name}~smallest")
        example = self.public[0].test.inputs if self.public else {}
        inputs = {}
        for name in self.problem.args:
            spec = test.inputs.get(name)
            if isinstance(spec, generators.Spec) and spec.kind != "literal":
                inputs[name] = _reseed(spec, f"{test.name}/smallest")
            elif name in example:
                inputs[name] = example[name]
            else:
                return None  # no public value to stand in for the hidden one
        return replace(test, name=f"{test.name}~fresh", inputs=inputs, group="hidden")

    def _key(self, spec: TestSpec) -> str:
        return repr(sorted((k, repr(v)) for k, v in spec.inputs.items()))

    def _judge_candidates(self, specs: list[TestSpec], program: Program, backend: Backend,
                          limits: Limits) -> list[tuple[tuple, TestSpec, Shown]]:
        """(size, spec, what to show) of each candidate that is a valid input and shows a difference."""
        ready = []
        for spec in specs:
            try:
                case = build_case(self.problem, replace(spec, checks=()), self.tolerance)
            except ConfigError:
                continue
            if any(_same_args(case.args, other.args) for other in self.every if not other.test.public):
                continue  # a hidden test's own input, drawn again: never shown
            with quiet():
                want = run_call(self.reference(), Call(args=case.args), None)
            if want.error is not None:
                continue  # not a valid input: the reference refuses it
            ready.append((spec, case, _plain(want)))
        if not ready:
            return []
        result = backend.run(program, [Call(args=case.args) for _, case, _ in ready], limits)
        found = []
        for (spec, case, want), outcome in zip(ready, result.outcomes):
            got = outcome.observation
            if result.load_error is not None or got is None or got.error is not None:
                continue
            if compare.check(case, Observed(main=want), Observed(main=got)).passed:
                continue
            inputs = tuple((name, spec.inputs.get(name) if spec.group == "example" else None, value)
                           for name, value in zip(case.arg_names, case.args))
            size = (_elements(case.args), _complexity(spec))
            found.append((size, spec, Shown(inputs=inputs, expected=want.value, actual=got.value,
                                            tolerance=case.tolerance)))
        return found


def _plain(observation: Observation) -> Observation:
    return Observation.from_plain(wire.roundtrip(observation.to_plain()))


def _reseed(spec: generators.Spec, salt: str) -> generators.Spec:
    """`spec` drawn from a seed of its own (its entries too, for a mapping)."""
    if isinstance(spec, generators.MappingSpec):
        entries = {k: _reseed(v, salt) if isinstance(v, generators.Spec) else v
                   for k, v in spec.params["entries"].items()}
        spec = replace(spec, params={**spec.params, "entries": entries})
    return replace(spec, seed=derive_seed(repr(spec), salt))


def _moves(test: TestSpec, names: Sequence[str]) -> list[TestSpec]:
    """Each one-step simplification of `test`'s inputs: every float made a small integer, then one size
    made smaller everywhere it recurs (and one more where it recurs plus one), the largest first."""
    sizes = sorted({n for spec in test.inputs.values() for n in _sizes(spec) if n > 1}, reverse=True)
    made = []
    simpler = {k: _integers(v) for k, v in test.inputs.items()}
    if simpler != test.inputs:
        made.append(replace(test, inputs=simpler))
    for size in sizes:
        for smaller in sorted({size // 2, 2, 1} - {size}, reverse=True):
            if smaller < size:
                # Alone, and with the size one more (N tokens beside N + 1 positions) where that recurs too.
                for mapping in ({size: smaller, size + 1: smaller + 1}, {size: smaller})[:2 if size + 1 in sizes else 1]:
                    made.append(replace(test, inputs={k: _resize(v, mapping) for k, v in test.inputs.items()}))
    return made


def _sizes(spec: Any) -> list[int]:
    if isinstance(spec, generators.MappingSpec):
        return [n for v in spec.params["entries"].values() for n in _sizes(v)]
    if isinstance(spec, generators.Spec) and "shape" in spec.params:
        return list(spec.params["shape"])
    return []


def _resize(spec: Any, mapping: dict[int, int]) -> Any:
    if isinstance(spec, generators.MappingSpec):
        entries = {k: _resize(v, mapping) for k, v in spec.params["entries"].items()}
        return replace(spec, params={**spec.params, "entries": entries})
    if isinstance(spec, generators.Spec) and "shape" in spec.params:
        shape = [mapping.get(n, n) for n in spec.params["shape"]]
        return replace(spec, params={**spec.params, "shape": shape, "_short": shape})
    return spec


def _integers(spec: Any) -> Any:
    """Gaussian or uniform floats made small integers of the same shape and dtype (simpler to read)."""
    if isinstance(spec, generators.MappingSpec):
        entries = {k: _integers(v) for k, v in spec.params["entries"].items()}
        return replace(spec, params={**spec.params, "entries": entries})
    if isinstance(spec, generators.Spec) and spec.kind in ("normal", "uniform"):
        low, high = SMALL_INTEGERS
        params = {"shape": spec.params["shape"], "low": low, "high": high}
        return replace(spec, kind="randint", params=params, dtype=spec.dtype or "float32")  # the float default
    return spec


def _elements(args: tuple) -> int:
    return sum(_count(v) for v in args)


def _count(value: Any) -> int:
    if isinstance(value, Array):
        return value.data.size
    if isinstance(value, dict):
        return sum(_count(v) for v in value.values())
    return 1


def _complexity(test: TestSpec) -> int:
    """Floats left as floats count against a candidate of the same size."""
    return sum(1 for spec in test.inputs.values() if isinstance(spec, generators.Spec) and spec.kind in ("normal", "uniform"))


def _same_args(a: tuple, b: tuple) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, Array) and isinstance(y, Array):
            if x.data.shape != y.data.shape or not np.array_equal(x.data, y.data):
                return False
        elif isinstance(x, dict) or isinstance(y, dict):
            if not (isinstance(x, dict) and isinstance(y, dict) and x.keys() == y.keys()
                    and _same_args(tuple(x.values()), tuple(y.values()))):
                return False
        elif x != y:
            return False
    return True

