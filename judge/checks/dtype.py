"""dtype: every returned tensor or array has the expected dtype (no silent float64 or int32).

Integers stay integers: where the reference returns a Python int, a Python
int must come back (not `196.0`, a bool or a numpy integer: `vit_cost`
promises Python ints), and where it returns a numpy integer scalar, no float
may stand for it (so a known mistake made of numpy integers is not matched by
a submission returning floats).
"""
from __future__ import annotations

import numpy as np

from judge.checks.result import VALUE, CheckResult, Traits, fail, leaf_values, ok
from judge.base.leaves import label, leaves, top_key
from judge.base.encoding import Array, kind_of
from judge.base.wording import a as article

PARAMS: dict = {}


def fails_on(value) -> bool:
    """Arrays, and integers that must stay integers, have a dtype to get wrong."""
    found = leaf_values(value)
    arrays = [v for v in found if isinstance(v, Array) and not v.scalar]
    integers = [v for v in found if type(v) is int or (isinstance(v, Array) and v.scalar and v.data.dtype.kind in "iu")]
    return bool(arrays or integers)


TRAITS = Traits(licenses=("dtype",), observes=VALUE, diagnoses=VALUE, fails_on=fails_on)


def check(case, expected, actual, **params) -> CheckResult:
    for path, e, a in leaves(expected.main.value, actual.main.value):
        if isinstance(e, Array) and isinstance(a, Array) and not e.scalar and e.dtype != a.dtype:
            return fail(f"{label(path)} has dtype {a.dtype}; expected {e.dtype}", diagnose=True, key=top_key(path))
        if type(e) is int and type(a) is not int:
            return fail(f"{label(path)} is {article(kind_of(a))}; expected a Python int", diagnose=True,
                        key=top_key(path))
        if isinstance(e, Array) and e.scalar and np.issubdtype(e.data.dtype, np.integer) and _is_float(a):
            return fail(f"{label(path)} is {article(kind_of(a))}; expected an integer", diagnose=True,
                        key=top_key(path))
    return ok()


def _is_float(value) -> bool:
    if isinstance(value, Array):
        return np.issubdtype(value.data.dtype, np.floating)
    return type(value) is float
