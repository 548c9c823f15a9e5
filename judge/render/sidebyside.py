"""Side-by-side views of a public example's output: yours next to the expected one.

Small tensors (at most `MAX_ENTRIES` entries) are printed in full, each 2-D
slice as two aligned blocks, with the entries outside the test's tolerance
marked `*` (and coloured where the terminal allows). Larger values are
summarised by shape and dtype; the checks' own messages already name the first
mismatching index. Lines are lists of (text, style) segments, so the renderer
decides whether styles become colours.
"""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from judge.base.numerics import within
from judge.render.display import show_input
from judge.render.segments import Line, plain
from judge.base.leaves import MISSING, all_leaves, fmt_entry, numeric, top_key
from judge.base.encoding import Array, kind_of

MAX_ENTRIES = 64     # entries per value shown in full
MAX_WIDTH = 100      # wider pairs of blocks are stacked instead of side by side
MARK = "*"



def inputs_lines(inputs: tuple[tuple[str, Any, Any], ...], indent: str) -> list[Line]:
    """`name = value` for each argument: small values in full, large ones as their generator."""
    lines: list[Line] = [[(f"{indent}inputs:", "bold")]]
    for name, spec, value in inputs:
        first, *rest = show_input(spec, value, "").split("\n")
        lines.append([(f"{indent}  {name} = {first}", None)])
        lines.extend([(f"{indent}  {line}" if line.strip() else "", None)] for line in rest)
    return lines


def outputs_lines(expected: Any, actual: Any, tolerance: Any, indent: str) -> tuple[list[Line], bool]:
    """Lines comparing every leaf of the two outputs; also whether any leaf was shown in full."""
    lines: list[Line] = []
    full = False
    for path, e, a in all_leaves(expected, actual):
        tol = tolerance.for_key(top_key(path)) if tolerance is not None else None
        leaf_lines, shown = leaf_lines_for(path or "output", e, a, tol, indent)
        lines.extend(leaf_lines)
        full = full or shown
    return lines, full


def leaf_lines_for(name: str, expected: Any, actual: Any, tol: Any, indent: str) -> tuple[list[Line], bool]:
    label = f"{indent}{name}: "
    if actual is MISSING:
        return [[(label, "bold"), ("missing from your output", "red")]], False
    if expected is MISSING:
        return [[(label, "bold"), ("not expected (an extra key or item)", "red")]], False
    e, a = numeric(expected, None), numeric(actual, None)
    if e is None or a is None:
        same = _same_plain(expected, actual)
        return [[(label, "bold"), ("yours ", None), (_short(actual), None if same else "red"),
                 ("  expected ", None), (_short(expected), None)]], False
    head = _describe(expected, actual)
    if e.size > MAX_ENTRIES or a.size > MAX_ENTRIES:
        return [[(label, "bold"), (head + f" (over {MAX_ENTRIES} entries: not shown in full)", "dim")]], False
    if e.shape != a.shape:
        lines = [[(label, "bold"), (head, "red")]]
        lines += _stacked(a, e, None, indent + "  ")
        return lines, True
    bad = _mismatches(e, a, tol)
    if e.ndim == 0 and a.ndim == 0:
        differs = bool(bad)
        return [[(label, "bold"), ("yours ", None), (fmt_entry(a[()]) + (MARK if differs else ""), "red" if differs else None),
                 ("  expected ", None), (fmt_entry(e[()]), None), ("" if differs else "  (matches)", "green")]], True
    count = int(bad.sum())
    summary = "matches" if count == 0 else f"{count} of {bad.size} entries differ (marked {MARK})"
    lines = [[(label, "bold"), (head + "; ", None), (summary, "green" if count == 0 else "red")]]
    lines += _pairs(a, e, bad, indent + "  ")
    return lines, True


# ------------------------------------------------------------------ blocks

def _pairs(actual: np.ndarray, expected: np.ndarray, bad: np.ndarray, indent: str) -> list[Line]:
    """Each 2-D slice of `actual` beside the same slice of `expected`."""
    width = _cell_width(actual, expected)
    lines: list[Line] = []
    for index, a, e, b in _slices(actual, expected, bad):
        left = _block(a, b, width, "red")
        right = _block(e, b, width, "green")
        block_width = len(plain(left[0]))
        if 2 * block_width + 4 + len(indent) > MAX_WIDTH:
            return _stacked(actual, expected, bad, indent, width)
        label = f"{index}  " if index else ""
        pad = " " * len(label)
        lines.append([(indent + pad + "yours".ljust(block_width) + "    expected", "dim")])
        for i, (l_row, r_row) in enumerate(zip(left, right)):
            lines.append([(indent + (label if i == 0 else pad), None), *l_row, ("    ", None), *r_row])
    return lines


def _stacked(actual: np.ndarray, expected: np.ndarray, bad: np.ndarray | None, indent: str,
             width: int | None = None) -> list[Line]:
    """Yours, then expected, one under the other (different shapes, or too wide)."""
    width = width or _cell_width(actual, expected)
    lines: list[Line] = []
    for title, values, style in (("yours", actual, "red"), ("expected", expected, "green")):
        lines.append([(f"{indent}{title} {tuple(values.shape)}:", "dim")])
        marks = bad if bad is not None else np.zeros(values.shape, dtype=bool)
        for index, v, _, b in _slices(values, values, marks):
            block = _block(v, b, width, style)
            label = f"{index}  " if index else ""
            for i, row in enumerate(block):
                lines.append([(indent + "  " + (label if i == 0 else " " * len(label)), None), *row])
    return lines


def _slices(a: np.ndarray, e: np.ndarray, bad: np.ndarray) -> Iterator[tuple[str, np.ndarray, np.ndarray, np.ndarray]]:
    """(label, 2-D a, 2-D e, 2-D bad) over the leading axes; label '' when there is one slice."""
    if a.ndim <= 2:
        yield "", _as2d(a), _as2d(e), _as2d(bad)
        return
    for index in np.ndindex(*a.shape[:-2]):
        yield "[" + ", ".join(map(str, index)) + "]", a[index], e[index], bad[index]


def _as2d(x: np.ndarray) -> np.ndarray:
    return x.reshape(1, -1) if x.ndim < 2 else x


def _block(values: np.ndarray, bad: np.ndarray, width: int, style: str) -> list[Line]:
    rows: list[Line] = []
    for r in range(values.shape[0]):
        row: Line = [("[", None)]
        for c in range(values.shape[1]):
            marked = bool(bad[r, c]) if bad.size else False
            row.append((" " + fmt_entry(values[r, c]).rjust(width), style if marked else None))
            row.append((MARK if marked else " ", style if marked else None))
        row.append(("]", None))
        rows.append(row)
    return rows or [[("[]", None)]]


def _cell_width(*arrays: np.ndarray) -> int:
    return max((len(fmt_entry(x)) for arr in arrays for x in arr.reshape(-1)), default=1)


# ------------------------------------------------------------------ values

def _mismatches(e: np.ndarray, a: np.ndarray, tol: Any) -> np.ndarray:
    """Entries outside the test's tolerance (exact equality without one), as the checks decide."""
    rtol, atol = (tol.rtol, tol.atol) if tol is not None else (0.0, 0.0)
    return ~within(e, a, rtol, atol)


def _describe(expected: Any, actual: Any) -> str:
    def one(v: Any) -> str:
        if isinstance(v, Array):
            return "scalar" if v.data.ndim == 0 else f"shape {tuple(v.shape)} {v.dtype}"
        return kind_of(v)
    yours, wanted = one(actual), one(expected)
    return yours if yours == wanted else f"yours {yours}, expected {wanted}"


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, Array) else value.describe()
    return text if len(text) <= 60 else text[:57] + "..."


def _same_plain(e: Any, a: Any) -> bool:
    try:
        return type(e) is type(a) and bool(e == a)
    except (TypeError, ValueError):
        return False
