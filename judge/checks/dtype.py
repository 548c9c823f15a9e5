"""dtype: every returned tensor or array has the expected dtype (no silent float64 or int32)."""
from __future__ import annotations

from judge.checks.result import CheckResult, fail, ok
from judge.checks.values import label, leaves, top_key
from judge.wire import Array

PARAMS: dict = {}


def check(case, expected, actual, **params) -> CheckResult:
    for path, e, a in leaves(expected["main"].value, actual["main"].value):
        if isinstance(e, Array) and isinstance(a, Array) and not e.scalar and e.dtype != a.dtype:
            return fail(f"{label(path)} has dtype {a.dtype}; expected {e.dtype}", diagnose=True, key=top_key(path))
    return ok()
