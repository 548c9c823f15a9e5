"""The tolerance rule: when an actual number counts as the expected one.

An entry matches when |actual - expected| <= atol + rtol * |expected|; an
infinite expected value matches only the same infinity (its bound would be
infinite) and NaN matches NaN. Every decision against a tolerance goes through
`within`: the allclose check, invariance relations, the side-by-side marks
and the generic diagnoses, so a value marked as differing on screen is one
the checks failed.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np


def _as_float(x: np.ndarray) -> np.ndarray:
    # copy=False: an array that is float64 already is used as it is (nothing here writes to it).
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64, copy=False)


def within(expected: np.ndarray, actual: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    """Per entry (broadcast): whether `actual` is within tolerance of `expected`."""
    e, a = np.asarray(expected), np.asarray(actual)
    # The same rule where the bound is 0 (data movement: patchify, masks): |a - e| <= 0 is a == e for a
    # finite e, and a == e is also the rule for an infinite one; two float arrays compare as they are.
    exact = rtol == 0 and atol == 0
    if not (exact and e.dtype.kind == a.dtype.kind == "f"):
        e, a = _as_float(e), _as_float(a)
    with np.errstate(invalid="ignore", over="ignore"):
        if exact:
            close = a == e
        else:
            close = np.isfinite(e) & (np.abs(a - e) <= atol + rtol * np.abs(e))
            close |= np.isinf(e) & (a == e)
        close |= np.isnan(e) & np.isnan(a)
    return close


# Entries `all_within` looks at first: a few evenly spread ones tell most differing arrays apart.
SAMPLE = 64


def all_within(expected: np.ndarray, actual: np.ndarray, rtol: float, atol: float) -> bool:
    """Whether every entry of `actual` is within tolerance of `expected` (the same shape), as `within`
    says. A sample of entries is looked at first: known-mistake matching and the generic
    diagnoses compare a wrong output with many candidates, and most differ at once."""
    e, a = np.asarray(expected), np.asarray(actual)
    if e.shape == a.shape and e.size > 4 * SAMPLE:
        picks = _picks(e.shape)
        if not within(e[picks], a[picks], rtol, atol).all():
            return False
    return bool(within(e, a, rtol, atol).all())


@functools.lru_cache(maxsize=256)
def _picks(shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """The sample's indices for arrays of `shape`: a problem's outputs come in a few shapes, and a
    batch compares each many times (the indices are only read)."""
    picks = np.unravel_index(np.linspace(0, math.prod(shape) - 1, SAMPLE).astype(np.intp), shape)
    for index in picks:
        index.flags.writeable = False  # shared by every caller
    return picks


@dataclass(frozen=True)
class Errors:
    """How far the entries outside tolerance are: the largest finite absolute and relative errors."""

    count: int          # entries outside tolerance
    max_abs: float      # inf when no such entry has a finite error
    max_rel: float      # relative to |expected|; inf where expected is 0


def errors(expected: np.ndarray, actual: np.ndarray, bad: np.ndarray) -> Errors:
    """The errors of the entries marked `bad` (the complement of `within`)."""
    e, a = _as_float(np.asarray(expected)), _as_float(np.asarray(actual))
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        diff = np.abs(a - e)
        finite = np.isfinite(diff) & bad
        max_abs = float(diff[finite].max()) if finite.any() else float("inf")
        rel = np.where(np.abs(e) > 0, diff / np.abs(e), np.inf)
        max_rel = float(rel[finite].max()) if finite.any() else float("inf")
    return Errors(int(bad.sum()), max_abs, max_rel)
