"""Walking returned values: leaves of nested outputs, numeric views, names and number formats.

The checks, the generic diagnoses and the side-by-side renderer all walk a
returned value and print its numbers through here.
"""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from judge.base.encoding import Array


def label(path: str) -> str:
    return f"`{path}`" if path else "the returned value"


def join(path: str, key: Any) -> str:
    if isinstance(key, str):
        return f"{path}.{key}" if path else key
    return f"{path}[{key}]" if path else f"[{key}]"


def leaves(expected: Any, actual: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """(path, expected, actual) for every leaf where the structures agree."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected:
            if key in actual:
                yield from leaves(expected[key], actual[key], join(path, key))
    elif isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        for i, (e, a) in enumerate(zip(expected, actual)):
            yield from leaves(e, a, join(path, i))
    else:
        yield path, expected, actual


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()  # the side of `all_leaves` that lacks a key or item


def all_leaves(expected: Any, actual: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """(path, expected, actual) for every leaf of either structure; the side without it is MISSING."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected:
            yield from all_leaves(expected[key], actual.get(key, MISSING), join(path, key))
        for key in actual:
            if key not in expected:
                yield join(path, key), MISSING, actual[key]
    elif isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        for i in range(max(len(expected), len(actual))):
            yield from all_leaves(expected[i] if i < len(expected) else MISSING,
                                  actual[i] if i < len(actual) else MISSING, join(path, i))
    else:
        yield path, expected, actual


def top_key(path: str) -> str | None:
    """The dict key a leaf belongs to (for per-key tolerances)."""
    if not path or path.startswith("["):
        return None
    return path.split(".", 1)[0].split("[", 1)[0]


def is_number(value: Any) -> bool:
    return type(value) in (int, float, bool)


def numeric(value: Any, dtype: Any = np.float64) -> np.ndarray | None:
    """A numpy view of a numeric leaf (Array or Python number), else None; a Python number
    becomes `dtype` (None: its own kind, so a bool stays a bool for display)."""
    if isinstance(value, Array):
        return value.data
    if is_number(value):
        return np.asarray(value, dtype=dtype)
    return None


def scalar_like(value: Any) -> bool:
    """A Python number, a numpy scalar or a 0-dim array/tensor."""
    return is_number(value) or (isinstance(value, Array) and value.data.ndim == 0)


def fmt(x: Any) -> str:
    """A number in a message: 6 significant digits."""
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}"
    if isinstance(x, np.complexfloating):
        return f"{complex(x):.6g}"
    return str(x.item() if hasattr(x, "item") else x)


def fmt_index(index: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(int(i)) for i in index) + ("," if len(index) == 1 else "") + ")"


def fmt_entry(x: Any) -> str:
    """One entry of a tensor drawn in full: 4 significant digits, so columns stay narrow."""
    if isinstance(x, (np.bool_, bool)):
        return str(bool(x))
    if isinstance(x, (np.integer, int)):
        return str(int(x))
    if isinstance(x, (np.complexfloating, complex)):
        return f"{complex(x):.4g}"
    return f"{float(x):.4g}"
