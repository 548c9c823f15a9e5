"""Value equality: when a model's output is the learner's or the expected value, as the value checks see it.

`same_value` compares as the tests compare (structure, shape, dtype, then tolerance); `same_numbers`
compares the numbers only, whatever holds them; `rounding_apart` allows float32 rounding alone. The
rest looks inside outputs (finite numbers, overflows, entry-by-entry agreement, leaf types) for the
rules that weigh what a model's match proves (judge.judging.evidence).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from judge.model.cases import Case
from judge.checks import allclose, dtype, shape, structure
from judge.checks.observed import Observed
from judge.runs.calls import Observation
from judge.base.leaves import MISSING, all_leaves, leaves, numeric, top_key
from judge.base.numerics import SAMPLE, within
from judge.model.problem import Tolerance
from judge.base.encoding import Array

FLOAT32 = 1e-5         # numbers this close (relative to a leaf's largest) differ by float32 rounding only


def same_value(case: Case, want: Any, got: Any) -> bool:
    """`got` is `want` as the value checks see it: structure, shape and dtype, then every number within
    the test's tolerance (relative to `want`), NaN where NaN and the same infinities."""
    expected, actual = Observed(main=Observation(value=want)), Observed(main=Observation(value=got))
    if not allclose.matches(want, got, case.tolerance):
        return False
    return all(stage.check(case, expected, actual).passed for stage in (structure, shape, dtype))


def _numeric_pairs(want: Any, got: Any) -> list[tuple[Any, Any, np.ndarray, np.ndarray]] | None:
    """The numeric leaves of `want` and `got` side by side, as leaves and arrays (one-element ones as
    0-dim); None where the two differ in keys or items, or in a leaf that is not a number."""
    pairs = []
    for _, e, a in all_leaves(want, got):
        if e is MISSING or a is MISSING:
            return None
        ev, av = numeric(e), numeric(a)
        if ev is None or av is None:
            if (ev is None) != (av is None) or e != a:
                return None
            continue
        if ev.size == 1 and av.size == 1:
            ev, av = ev.reshape(()), av.reshape(())
        pairs.append((e, a, ev, av))
    return pairs


def same_numbers(case: Case, want: Any, got: Any) -> bool:
    """`got` has `want`'s keys and items, and its numbers are `want`'s within the test's tolerance, in
    the same shapes and float precision, whatever holds them (a float, a 0-dim tensor or array)."""
    pairs = _numeric_pairs(want, got)
    if pairs is None:
        return False
    for e, a, ev, av in pairs:
        if ev.shape != av.shape:
            return False
        floats = [x.dtype for x in (e, a) if isinstance(x, Array) and not x.scalar and x.data.dtype.kind == "f"]
        if len(floats) == 2 and floats[0] != floats[1]:
            return False
    return allclose.matches(want, got, case.tolerance)


def rounding_apart(want: Any, got: Any) -> bool:
    """The same numbers but for float32 rounding: every leaf of the same shape, non-finite where the
    other is, and within FLOAT32 of the leaf's largest magnitude (as judge.judging.diagnose's float32_values)."""
    pairs = _numeric_pairs(want, got)
    if pairs is None:
        return False
    for _, _, ev, av in pairs:
        if ev.shape != av.shape or ev.dtype.kind not in "fc" and av.dtype.kind not in "fc":
            if ev.shape != av.shape or not np.array_equal(ev, av):
                return False
            continue
        if ev.size > SAMPLE and not _sample_apart(ev, av):
            return False   # most outputs differ at a glance: a few entries tell, before whole copies are made
        e64, a64 = ev.astype(np.float64), av.astype(np.float64)
        finite = np.isfinite(e64)
        if not np.array_equal(finite, np.isfinite(a64)) or not np.array_equal(e64[~finite], a64[~finite], equal_nan=True):
            return False
        scale = float(np.max(np.abs(e64[finite]))) if finite.any() else 0.0
        if finite.any() and not np.all(np.abs(a64[finite] - e64[finite]) <= FLOAT32 * scale):
            return False
    return True


def _sample_apart(ev: np.ndarray, av: np.ndarray) -> bool:
    """Whether a few evenly spread entries of `av` are within float32 rounding of `ev`'s (NaN where NaN)."""
    picks = np.linspace(0, ev.size - 1, SAMPLE).astype(np.intp)
    e, a = ev.reshape(-1)[picks].astype(np.float64), av.reshape(-1)[picks].astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.isfinite(ev)
        scale = float(np.max(np.abs(ev[finite]))) if finite.any() else 0.0
        close = (np.abs(a - e) <= FLOAT32 * scale) | (np.isnan(e) & np.isnan(a)) | (e == a)
    return bool(close.all())


def value_of(made: Observation | None) -> Any:
    """An output's value; None where there is none (not run, or it raised)."""
    return None if made is None or made.error is not None else made.value


def all_finite(value: Any) -> bool:
    return all(np.isfinite(v).all() for _, v, _ in _numbers(value))


def finite_anywhere(value: Any) -> bool:
    """Some number of `value` is finite (an output all NaN or inf shows nothing but the overflow)."""
    return any(np.isfinite(v).any() for _, v, _ in _numbers(value))


def overflow_only(case: Case, want: Any, got: Any) -> bool:
    """Wherever `got` departs from `want`, it holds no finite number: an overflow (a NaN loss beside right
    similarities) leaves nothing of any other mistake there to see."""
    per_leaf = entrywise(case, want, got)
    if per_leaf is None:
        return not finite_anywhere(got)
    wrong = [a for (_, _, a), same in zip(_leaf_values(want, got), per_leaf) if not same.all()]
    return bool(wrong) and all(not finite_anywhere(a) for a in wrong)


def _leaf_values(want: Any, got: Any) -> list[tuple[str, Any, Any]]:
    """(path, expected leaf, actual leaf) in `entrywise`'s order."""
    return list(all_leaves(want, got))


def numbers_anywhere(value: Any) -> bool:
    """`value` holds some float number (finite or not)."""
    return any(v.size for _, v, _ in _numbers(value))


def _numbers(value: Any):
    for path, v, _ in leaves(value, value):
        n = numeric(v)
        if n is not None and n.dtype.kind in "fc":
            yield path, n, None


def count_numbers(value: Any) -> int:
    """How many numbers `value` holds."""
    return sum(v.size for _, v, _ in _numbers(value))


def loose_kinds(value: Any) -> Any:
    """`kinds`, with an array's float dtype said as a float of any precision: a model computed in float64 is
    the same mistake as the learner's in float32."""
    if isinstance(value, dict):
        return {k: loose_kinds(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [loose_kinds(v) for v in value]
    if isinstance(value, Array):
        return ("array", value.library, value.data.dtype.kind, value.data.ndim)
    return type(value).__name__


def kinds(value: Any) -> Any:
    """The types of a plain value's leaves: a Python int, a float, an array of one dtype, nested alike."""
    if isinstance(value, dict):
        return {k: kinds(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [kinds(v) for v in value]
    if isinstance(value, Array):
        return ("array", value.library, value.dtype, value.data.ndim)
    return type(value).__name__


def entrywise(case: Case, want: Any, got: Any) -> list[np.ndarray] | None:
    """Per leaf of `want`, per number: whether `got` has it, within the test's tolerance for its key; a leaf
    that is no number counts as one entry. None where the two differ in keys, items or shapes (entries cannot
    be set side by side)."""
    found = []
    for path, e, a in all_leaves(want, got):
        if e is MISSING or a is MISSING:
            return None
        ev, av = numeric(e), numeric(a)
        if ev is None or av is None:
            if (ev is None) != (av is None):
                return None
            found.append(np.array([_plain_equal(e, a)]))
            continue
        if ev.shape != av.shape:
            return None
        tol = case.tolerance.for_key(top_key(path)) if isinstance(case.tolerance, Tolerance) else Tolerance()
        found.append(within(ev, av, tol.rtol, tol.atol).reshape(-1))
    return found or None


def _plain_equal(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except (TypeError, ValueError):
        return False
