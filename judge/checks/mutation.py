"""mutation: the solution must not modify its input arguments in place.

    mutation: {}

A dict argument (a model's parameters) must come back with the same keys and
each tensor unchanged. Every argument is read back after every call, so this
check looks at all of the test's calls (its own extra call, and any other
check's), not only at one a submission could recognise. Values are what the
judge read in its own shared mapping (judge.sandbox.arena), when the call's
result arrived and again until the run ended: an input kept and changed by a
later call, or after the last result, fails too. A shape changed in place, an
entry rebound and an in-place write that kept the values (torch's version
counter) are what the child reports. A call whose inputs did not come back,
or came back malformed, fails: a missing observation never passes. The values
the calls return are not judged here: a wrong value is the value tests'
failure, never this property's.
"""
from __future__ import annotations

import numpy as np

from typing import Any, Iterator

from judge.checks.result import EVERY_PROBE, CheckResult, Traits, fail, ok
from judge.runs.calls import WRITTEN, Call
from judge.base.encoding import Array

PARAMS: dict = {}
TRAITS = Traits(licenses=("mutation",), says_mistake=True, on_probes=EVERY_PROBE)
CALL = "inputs"  # the extra call: the test's inputs again, read back afterwards


def calls(case, **params) -> dict[str, Call]:
    return {CALL: Call(args=case.args)}


def _entries(name: str, before: Any, now: Any) -> Iterator[tuple[str, Any, Any]]:
    """(name, before, after) for an argument, or for each entry of a dict argument."""
    if not isinstance(before, dict):
        yield name, before, now
        return
    for key, value in before.items():
        yield f'{name}["{key}"]', value, now.get(key) if isinstance(now, dict) else None


def check(case, expected, actual, **params) -> CheckResult:
    for call, observed in actual.every:
        if observed is None:
            continue  # a call with no observation is judged by grading, before any check
        result = _unchanged(case, call.args, observed.inputs_after)
        if not result.passed:
            return result
    # Only the property: what the calls returned is the value tests' business (a wrong value here would
    # read as "the inputs were changed" to a learner whose file never touches them).
    return ok()


def _unchanged(case, before_args, after) -> CheckResult:
    if type(after) is not tuple or len(after) != len(before_args):
        return fail("the inputs could not be read back after the call (they did not come back from the "
                    "sandbox), so the call cannot be shown to leave them unchanged")
    pairs = [entry for args in zip(case.arg_names, before_args, after) for entry in _entries(*args)]
    for name, before, now in pairs:
        if not isinstance(before, Array):
            continue
        if type(now) is str and now == WRITTEN:
            return fail(f"the input `{name}` was written in place: an in-place operation ran on it (e.g. "
                        "`.div_()` on `.detach()` or `.data`, which share the caller's memory), even though its "
                        "values came out the same; compute a new tensor instead")
        if not isinstance(now, Array) or now.library != before.library:
            return fail(f"the input `{name}` was replaced in place")
        if now.shape != before.shape:
            return fail(f"the input `{name}` was reshaped or transposed in place: its shape went from "
                        f"{before.shape} to {now.shape} (e.g. .transpose_(), .resize_(), .t_()); "
                        "use the out-of-place version")
        if now.dtype != before.dtype:
            return fail(f"the input `{name}` changed dtype in place, from {before.dtype} to {now.dtype}")
        same = (now.data == before.data) | (np.isnan(now.data) & np.isnan(before.data)) \
            if np.issubdtype(before.data.dtype, np.inexact) else now.data == before.data
        if not np.all(same):
            changed = int((~same).sum())
            return fail(f"the input `{name}` was modified in place ({changed} of {same.size} entries changed): "
                        "in-place operations (+=, .add_(), slice assignment, normalising in place) change the "
                        "caller's data; compute a new tensor instead")
    return ok()
