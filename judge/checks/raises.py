"""raises: the call must raise an exception of the given type (or a subclass).

    raises: ValueError

Decided by class, not by name: the harness lists the builtin classes in the
MRO of the exception's real type (`type(exc)`, against classes bound before
the submission loaded, by identity), what a caller's `except ValueError` goes
by. A class merely named `ValueError`, or one whose `__class__` property says
ValueError (which fools `isinstance`), does not pass. Which exception was
raised is the child's claim all the same (README, "Claims").
"""
from __future__ import annotations

from judge.checks.result import TRAPS, CheckResult, Param, Traits, fail, ok, params
from judge.base.outcomes import NOT_ATTEMPTED

PARAMS = params(Param("type", str, required=True, shorthand=True,
                      what="an exception type name such as ValueError"))
TRAITS = Traits(licenses=("raises",), expects_error=True, diagnoses=TRAPS)


def check(case, expected, actual, *, type: str) -> CheckResult:
    observed = actual.main
    if observed.error is None:
        return fail(f"returned a value instead of raising {type}")
    if observed.error.is_a(type):
        return ok()
    if observed.error.is_a("NotImplementedError"):  # an untouched starter: say so, as grading does
        return fail(f"{NOT_ATTEMPTED}: the function still raises NotImplementedError (expected {type} here)")
    return fail(f"raised {observed.error.headline()}; expected {type}", lines=observed.error.frames)
