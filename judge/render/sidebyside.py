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
    """Lines comparing every leaf of the two outputs; also whether any leaf was shown in full. Where some leaf
    differs, a leaf that matches is one line: the eye goes to the part that is wrong."""
    lines: list[Line] = []
    full = False
    leaves = list(all_leaves(expected, actual))
    tolerances = [tolerance.for_key(top_key(path)) if tolerance is not None else None for path, _, _ in leaves]
    differs = any(not _leaf_matches(e, a, tol) for (_, e, a), tol in zip(leaves, tolerances))
    for (path, e, a), tol in zip(leaves, tolerances):
        if differs and _leaf_matches(e, a, tol) and numeric(e, None) is not None and numeric(e, None).size > 1:
            lines.append([(f"{indent}{path or 'output'}: ", "bold"), (_describe(e, a) + "; matches", "green")])
            continue
        leaf_lines, shown = leaf_lines_for(path or "output", e, a, tol, indent)
        lines.extend(leaf_lines)
        full = full or shown
    return lines, full


def _leaf_matches(expected: Any, actual: Any, tol: Any) -> bool:
    """Whether a leaf matches as the side-by-side marks it (same shape, every entry within tolerance)."""
    if expected is MISSING or actual is MISSING:
        return False
    e, a = numeric(expected, None), numeric(actual, None)
    if e is None or a is None:
        return _same_plain(expected, actual)
    return e.shape == a.shape and not _mismatches(e, a, tol).any()


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
    if (e.size > MAX_ENTRIES or a.size > MAX_ENTRIES) and e.shape == a.shape and e.ndim >= 1:
        return _window_lines(label, head, e, a, _mismatches(e, a, tol), indent), True
    if e.size > MAX_ENTRIES or a.size > MAX_ENTRIES:
        return [[(label, "bold"), (head + f" (over {MAX_ENTRIES} entries: not shown in full)", "dim")]], False
    if e.shape != a.shape:
        lines = [[(label, "bold"), (head, "red")]]
        lines += _stacked(a, e, None, indent + "  ")
        return lines, True
    bad = _mismatches(e, a, tol)
    if e.ndim == 0 and a.ndim == 0:
        # One number beside another says whether they differ: no mark to explain.
        differs = bool(bad)
        return [[(label, "bold"), ("yours ", None), (fmt_entry(a[()]), "red" if differs else None),
                 ("  expected ", None), (fmt_entry(e[()]), None), ("" if differs else "  (matches)", "green")]], True
    count = int(bad.sum())
    summary = "matches" if count == 0 else f"{count} of {bad.size} entries differ (marked {MARK})"
    lines = [[(label, "bold"), (head + "; ", None), (summary, "green" if count == 0 else "red")]]
    lines += _pairs(a, e, bad, indent + "  ")
    return lines, True


WINDOW = (6, 8)   # rows and columns of a large value shown around its first difference


def _window_lines(label: str, head: str, e: np.ndarray, a: np.ndarray, bad: np.ndarray, indent: str) -> list[Line]:
    """A value too large to show whole: the part around its first difference (a window of the 2-D slice that
    holds it), yours beside the expected one, or one line when nothing differs."""
    count = int(bad.sum())
    if count == 0:
        return [[(label, "bold"), (head + "; matches", "green")]]
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    rows, cols = WINDOW
    lead = first[:-2] if e.ndim >= 2 else ()
    r, c = (first[-2], first[-1]) if e.ndim >= 2 else (0, first[-1])
    e2, a2, b2 = (x[lead] if lead else x for x in (e, a, bad))
    if e.ndim == 1:
        e2, a2, b2 = e2.reshape(1, -1), a2.reshape(1, -1), b2.reshape(1, -1)
    r0 = max(0, min(r - 1, e2.shape[0] - rows))
    c0 = max(0, min(c - 1, e2.shape[1] - cols))
    window = (slice(r0, r0 + rows), slice(c0, c0 + cols))
    place = ", ".join([*(str(i) for i in lead), f"{r0}:{r0 + e2[window].shape[0]}" if e.ndim >= 2 else "",
                       f"{c0}:{c0 + e2[window].shape[1]}"]).replace(", ,", ",").strip(", ")
    lines = [[(label, "bold"), (head + "; ", None), (f"{count} of {bad.size} entries differ", "red"),
              (f"; the part around the first, [{place}] (marked {MARK}):", None)]]
    return lines + _pairs(a2[window], e2[window], b2[window], indent + "  ")


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
