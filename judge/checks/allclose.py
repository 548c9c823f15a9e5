"""allclose: numbers match within the test's tolerance (judge.base.numerics: |actual - expected| <= atol + rtol * |expected|).

On failure the message gives the count of mismatches, the first mismatching
index, the largest absolute and relative errors and, for public examples
only, a small table of obtained vs expected values (as pytest.approx does).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from judge.checks.result import VALUE, CheckResult, Traits, fail, numbers_in, ok
from judge.base.numerics import all_within, errors, within
from judge.base.leaves import fmt, fmt_index, label, leaves, numeric, top_key

PARAMS: dict = {}


def fails_on(value) -> bool:
    """Any number at all can be off."""
    return any(n.size for n in numbers_in(value))


TRAITS = Traits(licenses=("values",), observes=VALUE, diagnoses=VALUE, fails_on=fails_on)
MAX_ROWS = 8


def check(case, expected, actual, **params) -> CheckResult:
    return compare_values(expected.main.value, actual.main.value, case.tolerance, case.public)


def compare_values(expected, actual, tolerance, reveal: bool, what: str = "") -> CheckResult:
    """Compare every numeric leaf, and every text leaf exactly; the first that differs gives the message."""
    for path, e, a in leaves(expected, actual):
        if type(e) is str and type(a) is str:
            if e != a:
                name = f"{what} {label(path)}" if what and path else (what or label(path))
                message = f"{name} is {_text(a)}; expected {_text(e)}" if reveal else \
                    f"{name} is {_text(a)}, not the expected text"
                return fail(message, diagnose=True, key=top_key(path) or "")
            continue
        ev, av = numeric(e), numeric(a)
        if ev is None or av is None:
            continue
        tol = tolerance.for_key(top_key(path))
        name = f"{what} {label(path)}" if what and path else (what or label(path))
        result = _compare_arrays(ev, av, tol.rtol, tol.atol, name, reveal)
        if result is not None:
            return replace(result, key=top_key(path) or "")
    return ok()


def matches(expected, actual, tolerance) -> bool:
    """Whether `compare_values` finds no difference (the same leaves, shapes and rule), as a bool."""
    for path, e, a in leaves(expected, actual):
        if type(e) is str and type(a) is str:
            if e != a:
                return False
            continue
        ev, av = numeric(e), numeric(a)
        if ev is None or av is None:
            continue
        if ev.shape != av.shape:
            if ev.size != 1 or av.size != 1:
                return False
            ev, av = ev.reshape(()), av.reshape(())
        tol = tolerance.for_key(top_key(path))
        if not all_within(ev, av, tol.rtol, tol.atol):
            return False
    return True


def _text(value: str, limit: int = 60) -> str:
    """A text leaf in a message: quoted, cut to `limit` characters."""
    return repr(value if len(value) <= limit else value[:limit] + "...")


def _coarse(rel: float) -> str:
    """How far off, in bands too wide to recover a hidden value from the learner's own output."""
    if not np.isfinite(rel):
        return "far off (the expected value is 0 or the error is not finite)"
    for bound, text in ((1e-3, "off by less than 0.1%"), (1e-2, "off by less than 1%"),
                        (1e-1, "off by less than 10%"), (1.0, "off by less than 100%")):
        if rel < bound:
            return text
    return "off by more than 100%"


def _figures(e: np.ndarray, a: np.ndarray, errs, tol: str) -> str:
    """The error figures that mean something for these values: none for a 0/1 mask (an error of 1
    is the count again), no relative error where the expected values are 0 (it is infinite)."""
    if ((e == 0) | (e == 1)).all() and ((a == 0) | (a == 1)).all():
        return ""
    rel = f", max rel error {errs.max_rel:.3g}" if np.isfinite(errs.max_rel) else ""
    return f"; max abs error {errs.max_abs:.3g}{rel} ({tol})"


def _compare_arrays(expected: np.ndarray, actual: np.ndarray, rtol: float, atol: float,
                    name: str, reveal: bool) -> CheckResult | None:
    if expected.shape != actual.shape:
        if expected.size == 1 and actual.size == 1:
            expected, actual = expected.reshape(()), actual.reshape(())
        else:
            return fail(f"{name} has shape {actual.shape}; expected {expected.shape}", diagnose=True)
    # `within` converts what it must itself: a passing array (most of them) is not copied here.
    close = within(expected, actual, rtol, atol)
    if close.all():
        return None
    e = expected.astype(np.complex128 if np.iscomplexobj(expected) else np.float64)
    a = actual.astype(np.complex128 if np.iscomplexobj(actual) else np.float64)
    bad = ~close
    total = bad.size
    errs = errors(e, a, bad)
    count, max_abs, max_rel = errs.count, errs.max_abs, errs.max_rel
    tol = f"rtol={rtol:g}, atol={atol:g}"
    if e.ndim == 0:
        if reveal:
            return fail(f"{name} is {fmt(a[()])}; expected {fmt(e[()])} (abs error {max_abs:.3g}, {tol})",
                        diagnose=True)
        return fail(f"{name} is wrong: {_coarse(max_rel)} ({tol})", diagnose=True)
    first = fmt_index(np.unravel_index(int(np.argmax(bad)), bad.shape))   # the first entry outside tolerance
    if count == 1 and not reveal:
        # One wrong entry at a known index: an exact error would give its hidden value away.
        message = f"{name}: 1 of {total} values differs, at index {first}: {_coarse(max_rel)} ({tol})"
    else:
        message = f"{name}: {count} of {total} values differ, first at index {first}" + _figures(e, a, errs, tol)
    lines: list[str] = []
    if reveal:
        rows = [("Index", "Obtained", "Expected")]
        for index in np.argwhere(bad)[:MAX_ROWS]:
            index = tuple(index)
            rows.append((fmt_index(index), fmt(a[index]), f"{fmt(e[index])} ± {atol + rtol * abs(e[index]):.1e}"))
        widths = [max(len(r[i]) for r in rows) for i in range(3)]
        lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
    return fail(message, lines=lines, diagnose=True)
