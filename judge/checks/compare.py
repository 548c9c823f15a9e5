"""compare: the default check: structure, then shape, dtype, finite values, then allclose.

The first of these that fails gives the verdict and message, so a learner
hears about the wrong key before the wrong numbers. `matches_reference` runs
the same stages on one extra call of a check (a gradient call, a perturbed
batch, a transformed input): every call's output is compared with the
reference's, so a submission that remembers earlier calls or tells a probe
from a test gains nothing.
"""
from __future__ import annotations

from dataclasses import replace

from judge.checks import allclose, dtype, finite, shape, structure
from judge.checks.observed import Observed
from judge.checks.result import VALUE, CheckResult, Traits, fail, ok
from judge.runs.calls import Observation

PARAMS: dict = {}
# Each stage with the kind of rule that licenses it; a failure names the stage that failed.
STAGES = tuple((stage.TRAITS.failure_kind, stage) for stage in (structure, shape, dtype, finite, allclose))
TRAITS = Traits(licenses=tuple(kind for kind, _ in STAGES), observes=VALUE, diagnoses=VALUE)


def check(case, expected, actual, **params) -> CheckResult:
    for kind, stage in STAGES:
        result = stage.check(case, expected, actual)
        if not result.passed:
            return replace(result, kind=kind)
    return ok()


def passes(case, expected, actual) -> bool:
    """Whether `check` passes, without composing a failure's message: known-mistake matching asks
    this of every trap on every failed test, and most traps differ (their messages cost the time).
    The numbers go first: a pass needs every stage, and most traps' numbers differ at a glance."""
    if not allclose.matches(expected.main.value, actual.main.value, case.tolerance):
        return False
    return all(stage.check(case, expected, actual).passed for _, stage in STAGES[:-1])


ON_OWN_INPUTS = "on the test's own inputs, before any change"


def values_first(case, expected: Observation, actual: Observation, keys: list[str] | None = None) -> CheckResult | None:
    """A property check's first step: the values on the test's own inputs, or None when they are right.

    A property (invariance, independent samples) is judged only where the values are right: a
    wrong value makes every transformed call differ from the reference too, and calling that a
    broken property would send the learner after the wrong bug. The failure is a value failure
    (its stage's kind, diagnosed like any wrong value), and says nothing of the property.
    """
    if expected.error is not None:
        return None  # the reference raised here: the call's error is judged elsewhere
    result = check(case, *_restricted(expected, actual, keys))
    if result.passed:
        return None
    return replace(result, message=f"{ON_OWN_INPUTS}: {result.message}", diagnose=True, kind=result.kind or "values")


def matches_reference(case, expected: Observation, actual: Observation, what: str,
                      keys: list[str] | None = None) -> CheckResult:
    """One call's output against the reference's on the same inputs (limited to `keys` of a dict output)."""
    if expected.error is not None:
        return ok()  # the reference raised here: the call's error is judged elsewhere
    result = check(case, *_restricted(expected, actual, keys))
    if result.passed:
        return result
    return fail(f"{what}: {result.message}", lines=result.lines, verdict=result.verdict)


def _restricted(expected: Observation, actual: Observation, keys: list[str] | None) -> tuple[Observed, Observed]:
    """Both values as the checks see them, limited to `keys` of a dict output."""
    want, got = expected.value, actual.value
    if keys is not None and isinstance(want, dict):
        want = {k: v for k, v in want.items() if k in keys}
        if isinstance(got, dict):
            got = {k: v for k, v in got.items() if k in keys}
    return Observed(main=Observation(value=want)), Observed(main=Observation(value=got))
