"""mutation: the solution must not modify its input arguments in place.

    mutation: {}

A dict argument (a model's parameters) must come back with the same keys and
each tensor unchanged.
"""
from __future__ import annotations

import numpy as np

from typing import Any, Iterator

from judge.checks.result import CheckResult, fail, ok
from judge.execute import Call
from judge.wire import Array

PARAMS: dict = {}


def calls(case, **params) -> dict[str, Call]:
    return {"inputs": Call(args=case.args, return_inputs=True)}


def _entries(name: str, before: Any, now: Any) -> Iterator[tuple[str, Any, Any]]:
    """(name, before, after) for an argument, or for each entry of a dict argument."""
    if not isinstance(before, dict):
        yield name, before, now
        return
    for key, value in before.items():
        yield f'{name}["{key}"]', value, now.get(key) if isinstance(now, dict) else None


def check(case, expected, actual, **params) -> CheckResult:
    after = actual["mutation.inputs"].inputs_after
    if after is None or len(after) != len(case.args):
        return fail("the inputs could not be read back after the call")
    pairs = [entry for args in zip(case.arg_names, case.args, after) for entry in _entries(*args)]
    for name, before, now in pairs:
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
