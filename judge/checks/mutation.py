"""mutation: the solution must not modify its input arguments in place.

    mutation: {}
"""
from __future__ import annotations

import numpy as np

from judge.checks.result import CheckResult, fail, ok
from judge.execute import Call
from judge.wire import Array

PARAMS: dict = {}


def calls(case, **params) -> dict[str, Call]:
    return {"inputs": Call(args=case.args, return_inputs=True)}


def check(case, expected, actual, **params) -> CheckResult:
    after = actual["mutation.inputs"].inputs_after or ()
    for name, before, now in zip(case.arg_names, case.args, after):
        if not isinstance(before, Array):
            continue
        if not isinstance(now, Array):
            return fail(f"the input `{name}` was replaced in place")
        if now.shape != before.shape:
            return fail(f"the input `{name}` was reshaped or transposed in place: its shape went from "
                        f"{before.shape} to {now.shape} (e.g. .transpose_(), .resize_(), .t_()); "
                        "use the out-of-place version")
        same = (now.data == before.data) | (np.isnan(now.data) & np.isnan(before.data)) \
            if np.issubdtype(before.data.dtype, np.inexact) else now.data == before.data
        if not np.all(same):
            changed = int((~same).sum())
            return fail(f"the input `{name}` was modified in place ({changed} of {same.size} entries changed): "
                        "in-place operations (+=, .add_(), slice assignment, normalising in place) change the "
                        "caller's data; compute a new tensor instead")
    return ok()
