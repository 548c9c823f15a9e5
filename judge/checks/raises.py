"""raises: the call must raise an exception of the given type (or a subclass).

    raises: ValueError

Decided by class, not by name: the harness lists the builtin classes in the
MRO of the exception's real type (`type(exc)`, against classes bound before
the submission loaded, by identity), what a caller's `except ValueError` goes
by. A class merely named `ValueError`, or one whose `__class__` property says
ValueError (which fools `isinstance`), does not pass. Which exception was
raised is the child's claim all the same (docs/sandbox.md, "Claims").
"""
from __future__ import annotations

import builtins
import difflib

from judge.checks.result import TRAPS, CheckResult, Param, Traits, fail, ok, params
from judge.base.outcomes import NOT_ATTEMPTED

PARAMS = params(Param("type", str, required=True, shorthand=True,
                      what="an exception type name such as ValueError"))
TRAITS = Traits(licenses=("raises",), expects_error=True, diagnoses=TRAPS, says_mistake=True)


def refuse_params(*, type: str) -> str | None:
    """Why `raises:` cannot name `type`, or None: it must be one of Python's builtin exception classes
    (the sandbox decides an error's class by isinstance against those, never by a name)."""
    known = sorted(n for n, v in vars(builtins).items() if isinstance(v, builtins.type) and issubclass(v, Exception))
    if type in known:
        return None
    close = difflib.get_close_matches(type, known, n=1)
    guess = f"did you mean {close[0]}? " if close else ""
    return (f"{type!r} is not one of Python's builtin exception classes; {guess}expected a class such as "
            "ValueError, TypeError or IndexError")


def check(case, expected, actual, *, type: str) -> CheckResult:
    observed = actual.main
    if observed.error is None:
        return fail(f"returned a value instead of raising {type}")
    if observed.error.is_a(type):
        return ok()
    if observed.error.is_a("NotImplementedError"):  # an untouched starter: say so, as grading does
        return fail(f"{NOT_ATTEMPTED}: the function still raises NotImplementedError (expected {type} here)")
    return fail(f"raised {observed.error.headline()}; expected {type}", lines=observed.error.frames)
