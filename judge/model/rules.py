"""Rules of a statement and the checks they license.

Every check a test runs must trace to a rule the learner can read: a test
names the rules it enforces (`rules: [ids]`), and each kind of check it runs,
on each output key it touches, must be licensed by one of them. What a check
can fail on comes from its traits (`judge.checks.result.Traits`): `compare`
counts as its five stages, but only those that can fail on the reference's
output (each stage's `fails_on`: a float output has no shape or dtype to get wrong). This module says
what a test enforces and which of it no named rule licenses; `judge validate`
reports the offences (judge.statement renders the rules for learners).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from judge import checks
from judge.model.cases import MAIN, owned_by
from judge.checks.result import KEYS, VALUE, Traits
from judge.runs.calls import Observation
from judge.model.problem import Problem, Rule, TestSpec


@dataclass(frozen=True)
class Enforced:
    """One thing a test checks: a kind a rule licenses (`checks.rule_kinds`) on one output key (None: the value)."""

    kind: str
    key: str | None = None

    def describe(self) -> str:
        return f"{self.kind} of `{self.key}`" if self.key is not None else self.kind


@dataclass(frozen=True)
class Offence:
    """A check no named rule licenses; `test` is kept apart so identical offences collapse."""

    test: str
    message: str


def licenses(rule: Rule, enforced: Enforced) -> bool:
    return enforced.kind in rule.checks and (not rule.keys or enforced.key is None or enforced.key in rule.keys)


def enforced(test: TestSpec, expected: dict[str, Observation]) -> list[Enforced]:
    """What the checks of `test` can fail on, given the reference's observations of its calls."""
    found: list[Enforced] = []
    main = expected.get(MAIN)
    for spec in test.checks:
        traits = checks.get(spec.type).traits
        if traits.observes == VALUE:
            value = main.value if main is not None and main.error is None else None
            for key, sub in _parts(value):
                found += [Enforced(kind, key) for kind in traits.licenses if checks.can_fail(kind, sub)]
        elif traits.observes == KEYS:
            keys = _keys(spec.type, traits, spec.params, expected)
            found += [Enforced(kind, key) for kind in traits.licenses for key in keys]
        else:
            found += [Enforced(kind) for kind in traits.licenses]
    return list(dict.fromkeys(found))


def offences(problem: Problem, test: TestSpec, expected: dict[str, Observation]) -> list[Offence]:
    """Why `test` enforces something the statement does not state (empty when every check is licensed)."""
    if not test.rules:
        return [Offence(test.name, "names no rule: add `rules: [ids]` naming the statement's rules it enforces")]
    named = [rule for rule in (problem.rule(r) for r in test.rules) if rule is not None]
    found = []
    for item in enforced(test, expected):
        if not any(licenses(rule, item) for rule in named):
            scope = f" with keys including `{item.key}`" if item.key is not None else ""
            found.append(Offence(test.name, f"checks {item.describe()}, but none of the rules it names licenses it "
                                            f"(name a rule with `checks: [{item.kind}]`{scope}, or state one)"))
    return found


def collapse(found: list[Offence], limit: int = 6) -> list[str]:
    """One line per distinct offence, naming the tests that commit it."""
    by_message: dict[str, list[str]] = {}
    for offence in found:
        by_message.setdefault(offence.message, []).append(offence.test)
    lines = []
    for message, tests in by_message.items():
        shown = ", ".join(tests[:limit]) + (f" and {len(tests) - limit} more" if len(tests) > limit else "")
        lines.append(f"{'test' if len(tests) == 1 else f'{len(tests)} tests'} {shown}: {message}")
    return lines


# ---------------------------------------------------------------- helpers

def _parts(value: Any) -> Iterator[tuple[str | None, Any]]:
    """(top-level key, sub-value) of a dict output, else the whole value once."""
    if isinstance(value, dict):
        yield from ((str(k), v) for k, v in value.items())
    else:
        yield None, value


def _keys(check: str, traits: Traits, params: dict, expected: dict[str, Observation]) -> list[str | None]:
    """The output keys a check that observes some keys looks at: those its parameter names, else
    its default keys of the reference's dict output (every key unless its traits say)."""
    declared = params.get(traits.key_param) if traits.key_param is not None else None
    if declared is not None:
        return [str(k) for k in declared]
    observed = next((o.value for o in owned_by(check, expected).values()), None)
    if observed is None:
        main = expected.get(MAIN)
        observed = main.value if main is not None else None
    if isinstance(observed, dict):
        if traits.default_keys is not None:
            return list(traits.default_keys(observed)) or [None]
        return [str(k) for k in observed]
    return [None]
