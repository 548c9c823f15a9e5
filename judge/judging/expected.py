"""Expected values: the trusted reference run on each call of a case, as its observations look after
crossing the sandbox's boundary (`plain`), so both sides of every check are compared alike.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from judge import checks
from judge.base import encoding as wire
from judge.base.errors import ConfigError
from judge.base.quiet import quiet
from judge.model.cases import MAIN, Case
from judge.runs.calls import Call, Observation, restore_unchanged, run_call

Expected = dict[str, Observation]


def plain(observation: Observation, call: Call | None = None) -> Observation:
    """An observation as it looks after crossing the boundary (for symmetric checks); with its `call`,
    the arguments it read back unchanged are the judge's copies, as the sandbox's runner restores them."""
    crossed = Observation.from_plain(wire.roundtrip(observation.to_plain()))
    return crossed if call is None else restore_unchanged(crossed, call)


def expect(case: Case, reference: Callable, reference_path: Path) -> Expected:
    """Run the trusted reference on every call of `case` (its warnings shown nowhere: judge.base.quiet)."""
    raising = expects_error(case)
    expected: Expected = {}
    for name, call in case.calls.items():
        with quiet():
            observation = run_call(reference, call, str(reference_path))
        if observation.error is not None and not (name == MAIN and raising):
            raise ConfigError(f"the reference fails on test {case.name!r}: {observation.error.headline()}",
                              file=reference_path)
        if observation.grad_error is not None:
            raise ConfigError(f"the reference's backward pass fails on test {case.name!r}: "
                              f"{observation.grad_error.headline()}", file=reference_path)
        expected[name] = plain(observation, call)
    return expected


def expects_error(case: Case) -> bool:
    return any(checks.get(spec.type).traits.expects_error for spec in case.test.checks)
