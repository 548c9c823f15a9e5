"""dtype: every returned tensor or array has the expected dtype (no silent float64 or int32).

A Python int where the reference returns one must be a Python int too: a
float (`196.0`), a bool or a numpy integer is another type, however equal its
value (counts and sizes are exact integers; `vit_cost` promises Python ints).
"""
from __future__ import annotations

from judge.checks.result import CheckResult, fail, ok
from judge.checks.values import label, leaves
from judge.wire import Array, kind_of

PARAMS: dict = {}


def check(case, expected, actual, **params) -> CheckResult:
    for path, e, a in leaves(expected["main"].value, actual["main"].value):
        if isinstance(e, Array) and isinstance(a, Array) and not e.scalar and e.dtype != a.dtype:
            return fail(f"{label(path)} has dtype {a.dtype}; expected {e.dtype}", diagnose=True)
        if type(e) is int and type(a) is not int:
            return fail(f"{label(path)} is a {kind_of(a)}; expected a Python int", diagnose=True)
    return ok()
