"""compare: the default check: structure, then shape, dtype, finite values, then allclose.

The first of these that fails gives the verdict and message, so a learner
hears about the wrong key before the wrong numbers.
"""
from __future__ import annotations

from judge.checks import allclose, dtype, finite, shape, structure
from judge.checks.result import CheckResult, ok

PARAMS: dict = {}
STAGES = (structure, shape, dtype, finite, allclose)


def check(case, expected, actual, **params) -> CheckResult:
    for stage in STAGES:
        result = stage.check(case, expected, actual)
        if not result.passed:
            return result
    return ok()
