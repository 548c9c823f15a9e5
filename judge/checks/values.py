"""Walking returned values: leaves of nested outputs, numeric views, names."""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from judge.wire import Array


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


def top_key(path: str) -> str | None:
    """The dict key a leaf belongs to (for per-key tolerances)."""
    if not path or path.startswith("["):
        return None
    return path.split(".", 1)[0].split("[", 1)[0]


def is_number(value: Any) -> bool:
    return type(value) in (int, float, bool)


def numeric(value: Any) -> np.ndarray | None:
    """A numpy view of a numeric leaf (Array or Python number), else None."""
    if isinstance(value, Array):
        return value.data
    if is_number(value):
        return np.asarray(value, dtype=np.float64)
    return None


def scalar_like(value: Any) -> bool:
    """A Python number, a numpy scalar or a 0-dim array/tensor."""
    return is_number(value) or (isinstance(value, Array) and value.data.ndim == 0)


def fmt(x: Any) -> str:
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}"
    if isinstance(x, np.complexfloating):
        return f"{complex(x):.6g}"
    return str(x.item() if hasattr(x, "item") else x)


def fmt_index(index: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(int(i)) for i in index) + ("," if len(index) == 1 else "") + ")"
