"""finite: no NaN or inf where the expected value is finite (overflow, division by zero)."""
from __future__ import annotations

import numpy as np

from judge.checks.result import VALUE, CheckResult, Traits, fail, numbers_in, ok
from judge.base.leaves import fmt_index, label, leaves, numeric, top_key

PARAMS: dict = {}


def fails_on(value) -> bool:
    """Only a finite float or complex value can come back as inf or nan where it should not."""
    return any(np.isfinite(n).any() for n in numbers_in(value) if n.dtype.kind in "fc")


TRAITS = Traits(licenses=("finite",), observes=VALUE, diagnoses=VALUE, fails_on=fails_on)


def check(case, expected, actual, **params) -> CheckResult:
    for path, e, a in leaves(expected.main.value, actual.main.value):
        ev, av = numeric(e), numeric(a)
        if ev is None or av is None or ev.shape != av.shape:
            continue
        finite = np.isfinite(av)
        if finite.all():  # nothing can be wrong here: one pass over a right value, not three
            continue
        bad = np.isfinite(ev) & ~finite
        if bad.any():
            kinds = sorted({"NaN" if np.isnan(x) else "inf" for x in np.asarray(av)[bad].ravel()[:1000]})
            where = "" if av.ndim == 0 else f" ({int(bad.sum())} of {bad.size} entries, first at {fmt_index(np.argwhere(bad)[0])})"
            # What is seen, not a cure: the same NaN comes from a plain exp overflowing and from a log-sum-exp
            # over a row whose every entry was masked; a named mistake or the test's hint says which.
            cause = ("NaN comes from an invalid operation such as inf - inf, inf / inf, 0 / 0 or the log of a "
                     "negative number" if "NaN" in kinds else "an overflow, or a division by zero or log of zero?")
            return fail(f"{label(path)} contains {' and '.join(kinds)}{where} where a finite value is expected: "
                        f"{cause}", diagnose=True, key=top_key(path))
    return ok()
