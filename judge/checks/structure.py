"""structure: the output has the expected kind: dict keys, list lengths, tensor vs array vs number."""
from __future__ import annotations

from typing import Any, Iterator

from judge.checks.result import VALUE, CheckResult, Traits, fail, ok
from judge.base.leaves import is_number, join, label, scalar_like
from judge.base.encoding import Array, kind_of
from judge.base.wording import a as article

PARAMS: dict = {}
TRAITS = Traits(licenses=("structure",), observes=VALUE, diagnoses=VALUE)


def check(case, expected, actual, **params) -> CheckResult:
    problems = list(differences(expected.main.value, actual.main.value))
    if problems:
        return fail(problems[0], lines=problems[1:6], diagnose=True)
    return ok()


def differences(expected: Any, actual: Any, path: str = "") -> Iterator[str]:
    where = label(path)
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            yield f"{where} is {article(kind_of(actual))}; expected a dict with keys {_keys(expected)}"
            return
        missing = [k for k in expected if k not in actual]
        extra = [k for k in actual if k not in expected]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing key(s) {_keys(missing)}")
            if extra:
                parts.append(f"unexpected key(s) {_keys(extra)}")
            yield f"{where}: {' and '.join(parts)}; expected exactly the keys {_keys(expected)}"
            return
        for key in expected:
            yield from differences(expected[key], actual[key], join(path, key))
    elif isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)):
            yield (f"{where} is {article(kind_of(actual))}; "
                   f"expected {article(kind_of(expected))} of {len(expected)} items")
        elif len(actual) != len(expected):
            yield f"{where} has {len(actual)} items; expected {len(expected)}"
        else:
            for i, (e, a) in enumerate(zip(expected, actual)):
                yield from differences(e, a, join(path, i))
    elif isinstance(expected, Array) and not expected.scalar:
        if not isinstance(actual, Array) or actual.scalar:
            yield f"{where} is {article(kind_of(actual))}; expected {article(kind_of(expected))}"
        elif actual.library != expected.library:
            yield f"{where} is {article(kind_of(actual))}; expected {article(kind_of(expected))}"
    elif is_number(expected) or isinstance(expected, Array):
        if not scalar_like(actual):
            shape = f" of shape {actual.shape}" if isinstance(actual, Array) else ""
            yield f"{where} is {article(kind_of(actual))}{shape}; expected a single number"
    elif type(expected) is not type(actual):
        yield f"{where} is {article(kind_of(actual))}; expected {article(kind_of(expected))}"


MAX_KEYS_SHOWN = 8


def _keys(keys) -> str:
    """A set of keys for a message: at most MAX_KEYS_SHOWN (each cut to 60 characters), then a count."""
    keys = list(keys)
    shown = ", ".join(repr(k if len(k) <= 60 else k[:60] + "...") if isinstance(k, str) else repr(k)
                      for k in keys[:MAX_KEYS_SHOWN])
    more = f", ... and {len(keys) - MAX_KEYS_SHOWN} more" if len(keys) > MAX_KEYS_SHOWN else ""
    return "{" + shown + more + "}"
