"""Where two of the reference's observations differ, and where an example's stated output disagrees with the reference's."""
from __future__ import annotations

from typing import Any

import numpy as np

from judge.base.encoding import Array
from judge.checks import compare
from judge.checks.observed import Observed
from judge.model.cases import Case
from judge.runs.calls import Observation


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two plain observations differ (timings ignored); None when identical."""
    where = path or "the value"
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key == "time_ms":
                continue
            if key not in a or key not in b:
                return f"{path}.{key} present only once".lstrip(".")
            found = first_difference(a[key], b[key], f"{path}.{key}".lstrip("."))
            if found:
                return found
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(a, Array) and isinstance(b, Array):
        if (a.library, a.dtype, a.shape) != (b.library, b.dtype, b.shape):
            return f"{where}: {a.describe()} vs {b.describe()}"
        if not np.array_equal(a.data, b.data, equal_nan=a.data.dtype.kind in "fc"):
            return f"{where}: values differ"
        return None
    if type(a) is not type(b) or a != b:
        if isinstance(a, float) and isinstance(b, float) and np.isnan(a) and np.isnan(b):
            return None
        return f"{where}: {a!r:.60} vs {b!r:.60}"
    return None


def stated_mismatch(case: Case, reference: Observation, stated: Any) -> str | None:
    """Why an example's stated output disagrees with the reference's, or None."""
    if reference.error is not None:
        return f"states an output, but the reference raises {reference.error.headline()}"
    try:
        value = _like(stated, reference.value)
    except (ValueError, TypeError) as exc:
        return f"cannot read the stated output as numbers shaped like the reference's: {exc}"
    outcome = compare.check(case, Observed(main=reference), Observed(main=Observation(value=value)))
    if outcome.passed:
        return None
    return f"the stated output disagrees with the reference: {outcome.message.splitlines()[0]}"


def _like(stated: Any, reference: Any) -> Any:
    """A YAML value in the decoded form of `reference` (arrays as Arrays of its library and dtype)."""
    if isinstance(reference, dict) and isinstance(stated, dict):
        return {k: _like(v, reference[k]) if k in reference else v for k, v in stated.items()}
    if isinstance(reference, Array) and not isinstance(stated, dict):
        data = np.asarray(stated)
        if data.dtype == object:
            raise ValueError("a ragged list")
        data = data.astype(reference.data.dtype) if data.size else data
        return Array(data=data, library=reference.library, dtype=reference.dtype, scalar=reference.scalar)
    if isinstance(reference, (list, tuple)) and isinstance(stated, list):
        return [_like(s, r) for s, r in zip(stated, reference)] + stated[len(reference):]
    return stated
