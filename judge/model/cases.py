"""Cases: a test's identity, its inputs drawn from their seeds, and the calls the judge will make.

A `Case` is what both the reference and the submission are run on. Inputs are
drawn deterministically (a seed derived from problem id, test name and
argument name, unless the YAML fixes one) and stored in their plain,
boundary-crossing form (`Drawn`). Each selected check may add calls (a
gradient call, a perturbed batch) from the drawn inputs; the calls are all
built before the `Case` is made and never change after (`Calls`).

This module owns how calls are named: "main" for the call on the test's own
inputs and "<check>.<name>" for a check's extra call. Those names key the
expected-value cache; nothing else spells them. A check sees its calls'
observations through `Observed` (judge.checks.observed), which gives it the main call and its own
calls by the short names its `calls` chose, never another check's by name.
"""
from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

import numpy as np

from judge import checks

from judge.model import generators

from judge.base import encoding as wire
from judge.checks.observed import Observed
from judge.model.compose import References
from judge.base.errors import ConfigError
from judge.runs.calls import Call, Observation
from judge.model.problem import Problem, TestSpec, Tolerance, load_composable

MAIN = "main"  # the call on the test's own inputs
V = TypeVar("V")


def call_name(check: str, name: str) -> str:
    """The name of the extra call `name` of `check` among a test's calls (and in the expected-value cache)."""
    return f"{check}.{name}"


def owned_by(check: str, by_call: Mapping[str, V]) -> dict[str, V]:
    """The entries of `by_call` (keyed by call name) that belong to `check`'s extra calls, by their short names."""
    prefix = call_name(check, "")
    return {name[len(prefix):]: value for name, value in by_call.items() if name.startswith(prefix)}


@dataclass(frozen=True)
class Drawn:
    """A test with its arguments drawn: what a check's `calls` builds its extra calls from."""

    test: TestSpec
    arg_names: tuple[str, ...]
    args: tuple[Any, ...]
    tolerance: Tolerance = Tolerance()
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


class Calls(Mapping[str, Call]):
    """A test's calls by name, read-only, in a fixed order: the main call, then each check's
    extra calls in the order the test lists its checks (the order the cache records)."""

    def __init__(self, main: Call | None = None, extra: tuple[tuple[str, str, Call], ...] = ()) -> None:
        named: dict[str, Call] = {} if main is None else {MAIN: main}
        owned: dict[str, dict[str, Call]] = {}
        for check, name, call in extra:
            full = call_name(check, name)
            if full in named:
                raise ValueError(f"two calls named {full!r}")
            named[full] = call
            owned.setdefault(check, {})[name] = call
        self._named = MappingProxyType(named)
        self._owned = MappingProxyType({check: MappingProxyType(calls) for check, calls in owned.items()})

    def __getitem__(self, name: str) -> Call:
        return self._named[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._named)

    def __len__(self) -> int:
        return len(self._named)

    def __repr__(self) -> str:
        return f"Calls({list(self._named)})"

    @property
    def main(self) -> Call:
        return self._named[MAIN]

    def of(self, check: str) -> Mapping[str, Call]:
        """The extra calls of `check`, by the names its `calls` gave them."""
        return self._owned.get(check, MappingProxyType({}))


@dataclass(frozen=True)
class Case(Drawn):
    """A drawn test with every call the judge makes on it."""

    calls: Calls = field(default_factory=Calls)
    # What diagnosing wrong answers learns of this case's expected values (along which axes its
    # slices are all distinct), kept for every later submission of the batch or server.
    facts: dict = field(default_factory=dict, compare=False, repr=False)

    def view(self, check: str, observations: Mapping[str, Observation]) -> Observed:
        """`observations` (one side's, by call name) as `check` sees them; KeyError when one it owns is missing."""
        own = MappingProxyType({name: observations[call_name(check, name)] for name in self.calls.of(check)})
        every = tuple((call, observations.get(name)) for name, call in self.calls.items())
        return Observed(main=observations[MAIN], own=own, every=every)


def with_calls(drawn: Drawn) -> Case:
    """`drawn` with the main call and the extra calls of each of its test's checks."""
    extra = []
    for spec in drawn.test.checks:
        make = checks.get(spec.type).calls
        if make is not None:
            extra.extend((spec.type, name, call) for name, call in make(drawn, **spec.params).items())
    calls = Calls(Call(args=drawn.args), tuple(extra))
    return Case(test=drawn.test, arg_names=drawn.arg_names, args=drawn.args, tolerance=drawn.tolerance,
                problem=drawn.problem, calls=calls)


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
    tolerance = test.tolerance or default_tolerance or Tolerance()
    return with_calls(Drawn(test=test, arg_names=problem.args, args=draw_inputs(problem, test),
                            tolerance=tolerance, problem=problem.id))
