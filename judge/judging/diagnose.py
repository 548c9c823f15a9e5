"""Generic diagnoses: name a wrong output by how it relates to the expected one.

Traps name the mistakes an author foresaw; these need no list. Each is a
small function `(expected, actual, context) -> str | None` over one numeric
leaf of the output (numpy arrays, `Array.data` or a 0-d array for a number),
saying what the learner's value is *as a relation* to the right one: off by
a simple factor, rounded, negated, transposed, shifted, scaled, permuted
along an axis (named when the permutation is a known layout), reshaped, with
extra or missing slices, or in another dtype. The texts never contain an
expected value: hidden tests must not give theirs away.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from judge.base.numerics import SAMPLE, all_within, within
from judge.model.problem import Tolerance
from judge.base.leaves import label, leaves, numeric, top_key
from judge.base.encoding import Array
from judge.judging.wording import say_layouts, say_slices

MAX_ELEMENTS = 4_000_000  # larger outputs are not searched for relations (cost)
MAX_SLICES = 4096         # nor axes longer than this for a permutation


@dataclass(frozen=True)
class Diagnosis:
    """A named mistake: `name` is a trap's name or a generic diagnosis' function name. `claims` are the ways
    of saying it that are true on this test, most specific first (`message` is the first): a report names a
    relation only in words true on every test it names it on (a factor that is 2 here and the number of rows
    there is "times the number of rows", never "times 2")."""

    name: str
    message: str
    claims: tuple[str, ...] = ()

    @property
    def wordings(self) -> tuple[str, ...]:
        return self.claims or (self.message,)


@dataclass(frozen=True)
class Context:
    """What a diagnosis may use besides the two values: tolerances and the factors the inputs suggest."""

    rtol: float
    atol: float
    factors: tuple[tuple[float, str], ...]      # (factor, how to say "f times the expected value")
    counts: tuple[int, ...] = ()                # row counts of the inputs: fractions k / n are counts
    expected_dtype: str = ""
    actual_dtype: str = ""
    # The expected leaf's facts (Case.facts), kept across submissions: (axis, rtol, atol) -> distinct
    known: dict = field(default_factory=dict, compare=False, repr=False)


def generic(case, expected: Any, actual: Any) -> Diagnosis | None:
    """A generic diagnosis of the first leaf of `actual` that differs (the one a check names), or None.

    It speaks only when it explains the whole difference: every leaf that differs
    must have a relation of its own, else a named relation on one key would
    describe a submission whose other keys are wrong for another reason.
    """
    found = relations(case, expected, actual, first_only=True)
    return found[0] if found else None


def relations(case, expected: Any, actual: Any, first_only: bool = False,
              reference: bool = True) -> list[Diagnosis] | None:
    """Every relation that holds on the first leaf of `actual` that differs, most specific first (a
    transpose is a rearrangement too), when every differing leaf has one; else none ([]). None where
    the values were not searched (a leaf too large to search): that says nothing either way. A report
    names the relation that holds on its failing tests alike (judge.judging.explain). `reference`: `expected`
    is the test's expected value, whose facts (distinct slices) are kept with the case; another value's
    (a trap's output set against the learner's) are looked at afresh."""
    factors = input_factors(case.arg_names, case.args)
    counts = tuple(v.data.shape[0] for v in case.args if isinstance(v, Array) and v.data.ndim >= 1)
    first: list[Diagnosis] | None = None
    shared: dict[str, set[str]] | None = None   # per relation: its words (without a leaf's name) true of every leaf
    for path, e, a in leaves(expected, actual):
        ev, av = numeric(e), numeric(a)
        if ev is None or av is None:
            continue
        tol = case.tolerance.for_key(top_key(path)) if isinstance(case.tolerance, Tolerance) else Tolerance()
        known = case.facts.setdefault(("distinct", path), {}) if reference else {}
        context = Context(max(tol.rtol, 1e-7), tol.atol, factors, counts,
                          e.dtype if isinstance(e, Array) else "", a.dtype if isinstance(a, Array) else "", known)
        if ev.shape == av.shape and context.expected_dtype == context.actual_dtype \
                and all_within(ev, av, tol.rtol, tol.atol):
            continue  # this leaf passes the test's own tolerance: nothing to explain
        if ev.size > MAX_ELEMENTS or av.size > MAX_ELEMENTS:
            return None  # a huge one is not searched (cost): no evidence either way
        if ev.size == 0 or av.size == 0:
            return []  # an empty output relates to nothing
        found = _relations(ev, av, context, first_only=first_only)
        if found is None:
            return None   # the right values in an order repeated values leave undecided: no evidence either way
        if not found:
            return []
        words = {name: set(texts) for name, texts in found}
        shared = words if shared is None else {n: t & words.get(n, set()) for n, t in shared.items()}
        if first is None:
            first_texts = dict(found)
            first = [Diagnosis(name, f"{label(path)} {texts[0]}", tuple(f"{label(path)} {t}" for t in texts))
                     for name, texts in found]
    if not first:
        return []
    # The same words true of every leaf that differs are said of them all too: tests where the first wrong key
    # is another one (`text_to_image_accuracy` where `image_to_text_accuracy` is right) agree on them.
    return [replace(d, claims=d.wordings + tuple(f"{EVERY_WRONG} {t}" for t in first_texts[d.name]
                                             if t in shared.get(d.name, ())))
            for d in first]


EVERY_WRONG = "each value that differs"


def _relations(ev: np.ndarray, av: np.ndarray, context: Context,
               first_only: bool) -> list[tuple[str, tuple[str, ...]]] | None:
    """(the diagnosis' name, the ways to say it, most specific first) of each relation that holds between two
    leaves, in order; None where none is found but the values may be the expected ones moved (`UNSURE`)."""
    scalar = ev.size == 1 and av.size == 1
    found = []
    unsure = False
    for diagnosis in (SCALAR if scalar else ARRAY):
        text = diagnosis(ev.reshape(()) if scalar else ev, av.reshape(()) if scalar else av, context)
        if text is UNSURE:
            unsure = True
            continue
        if text:
            found.append((diagnosis.__name__, (text,) if isinstance(text, str) else tuple(text)))
            if first_only:
                break
    names = [name for name, _ in found]
    if ("transposed" in names or "permuted" in names) and "rearranged" not in names and av.size == ev.size:
        # Slices moved are values moved, also where repeated values keep `rearranged` from saying so itself:
        # a test showing a transpose agrees with one showing a rearrangement.
        found.append(("rearranged", (MOVED,)))
    return None if unsure and not found else found


def input_factors(names: tuple[str, ...], args: tuple[Any, ...]) -> tuple[tuple[float, str], ...]:
    """Simple factors a wrong value is often off by: 2, 100, sizes of the inputs, scalar arguments.

    Each comes with words that complete "is the expected value ..."; they name
    inputs, never their hidden values.
    """
    factors: list[tuple[float, str]] = [(2.0, "times 2"), (0.5, "divided by 2"),
                                        (100.0, "times 100 (a percentage?)"), (0.01, "divided by 100")]
    counted: set[int] = set()
    for name, value in zip(names, args):
        if isinstance(value, Array) and value.data.ndim >= 1 and value.data.shape[0] >= 1 \
                and value.data.shape[0] not in counted:  # two inputs of N rows: naming the first says it
            # Small counts too: "times 2" and "times the number of rows" are both said on a test of 2 rows, and
            # a report names the words true on every test it names them on (explain.common_claim).
            n, rows = value.data.shape[0], f"the number of rows of `{name}`"
            counted.add(n)
            if n > 1:
                factors += [(float(n), f"times {rows}"), (1 / n, f"divided by {rows}"),
                            (n / (n - 1), f"times n / (n - 1), n {rows} (a divisor of n - 1 instead of n?)"),
                            (float(np.sqrt(n / (n - 1))), f"times sqrt(n / (n - 1)), n {rows} (a std dividing by "
                                                          "n - 1 instead of n?)")]
            factors += [(2.0 * n, f"times twice {rows}"), (0.5 / n, f"divided by twice {rows}")]
            if n % 2 == 0 and n > 4:
                m = n // 2
                factors += [(float(m), f"times half {rows}"), (1 / m, f"divided by half {rows}"),
                            (m / (m - 1), f"times m / (m - 1), m half {rows} (a divisor of 2(m - 1) instead of 2m?)")]
        elif type(value) is float and value > 0 and value != 1.0:
            factors += [(value, f"times `{name}`"), (1 / value, f"divided by `{name}`")]
    for name, value in zip(names, args):
        # The width of a table of rows (a feature dimension): a mean over the wrong axis, a scale by sqrt(d).
        if isinstance(value, Array) and value.data.ndim >= 2 and value.data.shape[-1] > 2:
            d, columns = value.data.shape[-1], f"the number of columns of `{name}`"
            if d not in counted:
                counted.add(d)
                factors += [(float(d), f"times {columns}"), (1 / d, f"divided by {columns}")]
    return tuple(factors)


# ---------------------------------------------------------------- scalars

def rounded(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    """The fewest decimals k >= 1 that the learner's value was rounded to, when rounding explains it."""
    a64, e64 = a.astype(np.float64), e.astype(np.float64)
    if not (np.all(np.isfinite(e64)) and np.all(np.isfinite(a64))) or not np.any(a64 != 0):
        return None
    # a float32 of 0.37 is 0.37000000476...: "has k decimals" holds up to the actual dtype's rounding
    eps = 4 * np.finfo(ctx.actual_dtype if ctx.actual_dtype in ("float16", "float32") else "float64").eps

    def has_decimals(k: int, values: np.ndarray = a64) -> bool:
        return bool(np.all(np.abs(np.round(values, k) - values) <= eps * np.maximum(np.abs(values), 1e-300)))

    # A few evenly spread entries first: an output that was not rounded fails there at once.
    flat = a64.reshape(-1)
    sample = flat[np.linspace(0, flat.size - 1, min(flat.size, SAMPLE)).astype(np.intp)]
    for k in range(1, 7):
        if has_decimals(k, sample) and has_decimals(k) and np.allclose(a64, np.round(e64, k), rtol=eps, atol=0):
            if has_decimals(k - 1) or np.allclose(a64, e64, rtol=ctx.rtol, atol=ctx.atol):
                return None
            return f"is rounded to {k} decimal{'s' if k != 1 else ''}: return the value at full precision"
    return None


def simple_factor(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    if not (np.isfinite(e) and np.isfinite(a)):
        return None
    if abs(float(e)) <= ctx.atol:
        return UNSURE   # within the tolerance of zero: any factor of it is, so the value cannot tell
    if abs(float(a)) <= 1 and any(_count(e, n) and _count(a, n) for n in ctx.counts):
        return None  # two fractions k / n (accuracies): their ratio says nothing about the mistake
    # A scaled value within `atol` of zero is any small factor's: 0 is not "the expected value divided by 100".
    matches = [words for factor, words in ctx.factors
               if abs(factor - 1) > 1e-9 and abs(float(e) * factor) > ctx.atol and _close(a, e * factor, ctx)]
    if not matches:
        return None
    # Each factor that fits is a claim of its own: the report says the one that fits every test it names.
    return tuple(f"is the expected value {words}" for words in dict.fromkeys(matches))


def negated(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    if np.any(np.abs(e) > ctx.atol) and _close(a, -e, ctx):
        return "has the wrong sign: it is the expected value negated"
    return None


# ---------------------------------------------------------------- arrays

def other_dtype(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    if not (ctx.expected_dtype and ctx.actual_dtype and ctx.expected_dtype != ctx.actual_dtype) or e.shape != a.shape:
        return None
    # Right up to the rounding of the coarser of the two dtypes (a float64 result cast to float32).
    coarse = [np.finfo(d).eps for d in (e.dtype, a.dtype) if d.kind == "f"]
    loose = Context(max([ctx.rtol] + [4 * x for x in coarse]), ctx.atol, ctx.factors)
    if _close(a, e, loose):
        return f"has the right values in dtype {ctx.actual_dtype}; convert it to {ctx.expected_dtype}"
    return None


def float32_values(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    """float64 values that are all float32 numbers, within float32 rounding of the expected ones.

    The signature of a float32 step inside (an upcast softmax, a `.float()`):
    the result went through float32 and was cast back. Expected float64 values
    are almost never float32 numbers, so the relation holds by coincidence only
    when the expected values are float32 numbers too, and then it is not named.
    """
    if e.dtype != np.float64 or a.dtype != np.float64 or a.shape != e.shape or not _finite(e, a):
        return None
    if np.all(e.astype(np.float32).astype(np.float64) == e) or np.any(a.astype(np.float32).astype(np.float64) != a):
        return None
    # Short numbers (-1, 0.5, 3: at most 12 significant bits) are float32 numbers by being short: a floor
    # division's -1 beside an expected -0.99999 went through no float32 step. A float32 result uses all 24 bits.
    mantissa = np.frexp(a)[0] * 4096
    if np.all(mantissa == np.round(mantissa)):
        return None
    scale = float(np.max(np.abs(e)))
    if scale == 0 or not np.all(np.abs(a - e) <= 1e-5 * scale):
        return None
    return ("holds float32 numbers (cast back to float64): the right values to float32 precision only; "
            "compute in the input's float64 throughout (no .float() or float32 softmax inside)")


def transposed(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    if e.ndim < 2 or a.shape != e.shape[:-2] + (e.shape[-1], e.shape[-2]):
        return None
    swapped = np.swapaxes(e, -1, -2)
    if _close(a, swapped, ctx) and not (a.shape == e.shape and _close(e, swapped, ctx)):
        return "is the expected array transposed (its last two axes swapped)"
    return None


def scaled(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    if a.shape != e.shape or not _finite(e, a):
        return None
    ee = float(np.sum(e.astype(np.float64) ** 2))
    if ee == 0:
        return None
    s = float(np.sum(a.astype(np.float64) * e)) / ee
    guess = e * s
    if abs(s - 1) < 1e-6 or abs(s) < 1e-6 or not _close(a, guess, ctx):
        return None  # a factor of 0 is an output of zeros: that explains nothing
    if np.all(np.abs(guess) <= ctx.atol):
        return None  # nor is one whose scaled array is within `atol` of zeros: any small factor would do
    if abs(s + 1) < 1e-6:
        return "has the wrong sign: it is the expected array negated"
    matches = [words for factor, words in ctx.factors if abs(s / factor - 1) < max(ctx.rtol * 10, 1e-6)]
    if e.dtype.kind in "iub" and not matches:
        return None  # labels or counts that happen to be proportional: a coincidence, not a mistake
    return tuple(f"is the expected array {words}" for words in dict.fromkeys(matches)) + (SCALED,)


def shifted(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    if a.shape != e.shape or e.size < 2 or not _finite(e, a) or e.dtype.kind in "iub":
        return None   # labels or indices all off by one constant are a coincidence of few values, not a shift
    shift = float(np.mean(a.astype(np.float64) - e))
    if abs(shift) > ctx.atol and _close(a, e + shift, ctx):
        return "is the expected array with the same constant added to every entry"
    return None


def rounded_array(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    if a.shape != e.shape or e.dtype.kind != "f" or not _finite(e, a):
        return None
    return rounded(e, a, ctx)


def permuted(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    """Slices along one axis in another order; the order named when it is a known layout."""
    if a.shape != e.shape:
        return None
    for axis in range(e.ndim):
        key = (axis, ctx.rtol, ctx.atol)
        if key not in ctx.known:
            ctx.known[key] = e.shape[axis] >= 2 and _distinct(np.moveaxis(e, axis, 0), ctx)
        if not ctx.known[key]:
            continue  # equal slices (class labels, a repeated row) make any order a coincidence
        order = _find(np.moveaxis(a, axis, 0), np.moveaxis(e, axis, 0), ctx)
        if order is not None and not np.array_equal(order, np.arange(len(order))):
            slices = say_slices(e.ndim, axis)
            return tuple(f"holds the expected {slices} {layout}" for layout in say_layouts(order)) + \
                (f"holds the expected {slices} {ANOTHER_ORDER}",)
    return None


def rearranged(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    """The right values, moved: reshaped in order, or scattered (a reshape without a permute?)."""
    if a.size != e.size or e.size < 2:
        return None
    if a.shape != e.shape and _close(a.reshape(-1), e.reshape(-1), ctx):
        return f"holds the expected values in the expected order, shaped {a.shape}; expected shape {e.shape}"
    if _finite(e, a) and _close(np.sort(a, axis=None), np.sort(e, axis=None), ctx):
        # Repeated values move by coincidence: the same values in other places, but which went where (and so
        # whether they were moved at all, or computed another way) is not decided by them.
        return MOVED if _apart(e, ctx) else UNSURE
    return None


def _apart(e: np.ndarray, ctx: Context) -> bool:
    """No two numbers of `e` are equal within the tolerance (as `permuted` tells slices apart): then which
    value went where is decided by the values."""
    values = np.sort(e.astype(np.float64), axis=None)
    gaps = np.diff(values)
    return bool(np.all(gaps > ctx.atol + ctx.rtol * np.abs(values[1:])))


UNSURE = "unsure"   # a diagnosis' answer where the values cannot decide (not a relation, not none)
MOVED = "holds exactly the expected values, but in other places: the values are right, their order is not"
SCALED = "is the expected array scaled by one constant factor"


def extra_or_missing(e: np.ndarray, a: np.ndarray, ctx: Context) -> str | None:
    """Shapes differing along one axis: every expected slice present plus more, or some missing."""
    if a.ndim != e.ndim:
        return None
    differ = [k for k in range(e.ndim) if a.shape[k] != e.shape[k]]
    if len(differ) != 1:
        return None
    axis = differ[0]
    av, ev = np.moveaxis(a, axis, 0), np.moveaxis(e, axis, 0)
    what = say_slices(e.ndim, axis, abs(len(av) - len(ev)))
    # Each said with its count, then without it: tests of other sizes agree on the count-free words.
    many = say_slices(e.ndim, axis)
    if len(av) > len(ev):
        extra = len(av) - len(ev)
        if _close(av[extra:], ev, ctx):
            return (f"has {extra} extra {what} at the start (a class or distillation token?), then the expected ones",
                    f"has extra {many} at the start (a class or distillation token?), then the expected ones")
        if _close(av[:len(ev)], ev, ctx):
            return (f"has {extra} extra {what} at the end, after the expected ones",
                    f"has extra {many} at the end, after the expected ones")
        if _find(ev, av, ctx) is None:
            return None
        cause = "(an extra token, or overlapping windows from a stride smaller than the patch?)"
        return (f"holds all the expected {many} and {extra} more {cause}", f"holds all the expected {many} and more {cause}")
    found = _find(av, ev, ctx)
    if found is None:
        return None
    return (f"is missing {len(ev) - len(av)} of the expected {many} (a dropped or cropped slice?)",
            f"is missing some of the expected {many} (a dropped or cropped slice?)")


# In the order they are tried: the most specific relation first.
SCALAR: tuple[Callable[..., str | None], ...] = (other_dtype, float32_values, rounded, simple_factor, negated)
ARRAY: tuple[Callable[..., str | None], ...] = (other_dtype, float32_values, transposed, rounded_array, scaled, shifted, permuted,
                                               rearranged, extra_or_missing)


# ---------------------------------------------------------------- helpers

def _close(a: np.ndarray, e: np.ndarray, ctx: Context) -> bool:
    """`a` equals `e` within the context's tolerance (the judge's one tolerance rule)."""
    return a.shape == e.shape and all_within(e, a, ctx.rtol, ctx.atol)


def _count(x: np.ndarray, n: int) -> bool:
    """x is a whole multiple of 1 / n (a count or a fraction of n items)."""
    k = float(x) * n
    return abs(k - round(k)) < 1e-6 * max(1.0, abs(k))


def _finite(*arrays: np.ndarray) -> bool:
    return all(np.isfinite(x.astype(np.float64)).all() for x in arrays)


def _distinct(slices: np.ndarray, ctx: Context) -> bool:
    """No two slices are equal within tolerance (then an order of them is determined by the values)."""
    flat = slices.reshape(len(slices), -1).astype(np.float64)
    if len(flat) > MAX_SLICES or not np.isfinite(flat).all():
        return False
    key = flat @ np.random.default_rng(1).normal(size=flat.shape[1])
    ranked = flat[np.argsort(key)]
    # Equal slices project alike: each is compared with its next four neighbours, both ways (the
    # tolerance is relative to the expected side), every pair at one distance at once.
    for k in range(1, min(5, len(ranked))):
        first, then = ranked[:-k], ranked[k:]
        equal = within(first, then, ctx.rtol, ctx.atol).all(axis=1) | within(then, first, ctx.rtol, ctx.atol).all(axis=1)
        if equal.any():
            return False
    return True


def _find(wanted: np.ndarray, pool: np.ndarray, ctx: Context) -> np.ndarray | None:
    """For each slice of `wanted`, the index of an equal (within tolerance) slice of `pool`; None if any is absent."""
    if wanted.shape[1:] != pool.shape[1:] or len(pool) > MAX_SLICES or len(wanted) > MAX_SLICES \
            or wanted.size == 0 or pool.size == 0 or not _finite(wanted, pool):
        return None
    w = wanted.reshape(len(wanted), -1).astype(np.float64)
    p = pool.reshape(len(pool), -1).astype(np.float64)
    direction = np.random.default_rng(0).normal(size=w.shape[1])
    pw, pp = w @ direction, p @ direction
    order = np.argsort(pp)
    # Slice i takes the first of its candidates, order[max(0, at - 4):at + 4], that matches it.
    at = np.searchsorted(pp[order], pw)
    low, high = np.maximum(0, at - 4), np.minimum(len(p), at + 4)
    ranks = low[:, None] + np.arange(8)
    candidates = order[np.minimum(ranks, len(p) - 1)]
    # A candidate whose projection is farther from the slice's than the tolerance allows cannot
    # match it (|w.d - p.d| <= sum |d| |w - p| <= atol sum|d| + rtol |d|.|p|, plus the rounding of
    # the products, under 1e-8 |d|.(|w| + |p|), where a match has |d|.|w| <= |d|.|p| + that bound):
    # most are ruled out at once, and a slice with no candidate left ends the search without a
    # comparison.
    viable = ranks < high[:, None]
    size_p = (np.abs(p) @ np.abs(direction))[candidates]
    with np.errstate(over="ignore", invalid="ignore"):
        bound = ctx.atol * np.abs(direction).sum() + ctx.rtol * size_p
        allowed = bound * (1 + 1e-8) + 1e-8 * size_p
        gap = np.abs(pw[:, None] - pp[candidates])
        if np.isfinite(allowed).all() and np.isfinite(gap).all():  # else (huge values) no candidate is ruled out
            viable &= gap <= allowed
    if not viable.any(axis=1).all():
        return None
    found = np.full(len(w), -1, dtype=np.int64)
    # Most slices match their first viable candidate: those are compared all at once.
    first = candidates[np.arange(len(w)), viable.argmax(axis=1)]
    matched = within(p[first], w, ctx.rtol, ctx.atol).all(axis=1)
    found[matched] = first[matched]
    for i in np.flatnonzero(found < 0):
        for j in candidates[i][viable[i]][1:]:
            if _close(w[i], p[j], ctx):
                found[i] = j
                break
        else:
            return None
    return found


ANOTHER_ORDER = "in another order"
