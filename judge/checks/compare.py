"""compare: the default check: structure, then shape, dtype, finite values, then allclose.

The first of these that fails gives the verdict and message, so a learner
hears about the wrong key before the wrong numbers.
"""
from __future__ import annotations

from dataclasses import replace

from judge.checks import allclose, dtype, finite, shape, structure
from judge.checks.result import CheckResult, ok

PARAMS: dict = {}
# Each stage with the kind of rule that licenses it (judge.problem.RULE_CHECKS).
STAGES = (("structure", structure), ("shape", shape), ("dtype", dtype), ("finite", finite), ("values", allclose))


def check(case, expected, actual, **params) -> CheckResult:
    for kind, stage in STAGES:
        result = stage.check(case, expected, actual)
        if not result.passed:
            return replace(result, kind=kind)
    return ok()
