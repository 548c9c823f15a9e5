"""Showing values to learners: small tensors in full, large ones summarised."""
from __future__ import annotations

from typing import Any

import numpy as np

from judge.model import generators
from judge.base.leaves import fmt
from judge.base.encoding import Array

FULL_LIMIT = 64  # entries shown in full


def show_value(value: Any, indent: str = "") -> str:
    if isinstance(value, dict):
        return "\n".join(f"{indent}{k}: {_one(v, indent + '  ')}" for k, v in value.items())
    return indent + _one(value, indent)


def _one(value: Any, indent: str) -> str:
    if isinstance(value, Array):
        return show_array(value, indent)
    if isinstance(value, float):
        return fmt(value)
    return repr(value)


def show_array(value: Array, indent: str = "") -> str:
    head = value.describe()
    data = value.data
    if data.ndim == 0:
        return f"{float(data) if data.dtype.kind == 'f' else data.item()!r} ({head})"
    with np.printoptions(precision=4, suppress=True, threshold=FULL_LIMIT, edgeitems=2, linewidth=100):
        body = np.array2string(data, separator=", ")
    body = body.replace("\n", "\n" + indent + "  ")
    return f"{head}\n{indent}  {body}"


def show_input(spec: Any, value: Any, indent: str = "") -> str:
    """An input as its generator (when large) or its values (when small); a dict entry by entry."""
    if isinstance(spec, generators.MappingSpec) and isinstance(value, dict):
        entries = spec.params["entries"]
        return "".join(f"\n{indent}  {k}: {show_input(entries.get(k), v, indent + '  ')}" for k, v in value.items())
    if isinstance(spec, generators.Spec) and isinstance(value, Array) and value.data.size > FULL_LIMIT:
        return f"{value.describe()}, drawn as {spec!r}"
    return _one(value, indent)
