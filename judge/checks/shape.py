"""shape: every returned tensor or array has the expected shape."""
from __future__ import annotations

from judge.checks.result import VALUE, CheckResult, Traits, fail, leaf_values, ok
from judge.base.leaves import label, leaves, top_key
from judge.base.encoding import Array

PARAMS: dict = {}


def fails_on(value) -> bool:
    """Only an array that is not a scalar has a shape to get wrong."""
    return any(isinstance(v, Array) and not v.scalar for v in leaf_values(value))


TRAITS = Traits(licenses=("shape",), observes=VALUE, diagnoses=VALUE, fails_on=fails_on)


def check(case, expected, actual, **params) -> CheckResult:
    for path, e, a in leaves(expected.main.value, actual.main.value):
        if isinstance(e, Array) and isinstance(a, Array) and not e.scalar and e.shape != a.shape:
            return fail(f"{label(path)} has shape {a.shape}; expected {e.shape}", diagnose=True, key=top_key(path))
    return ok()
