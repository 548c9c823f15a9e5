"""Readers and value checks of single fields of a problem's YAML files.

A value check returns why a value is refused, or None: what `Fields.get(check=...)`
takes (judge.base.yamlfile). The readers read a test's inputs (which must fit the
problem's memory), a list of argument names, and a value without its line
bookkeeping, and say what an unknown key of a test may have meant.
"""
from __future__ import annotations

from typing import Any

from judge.base.yamlfile import Fields
from judge.model import generators


def unknown_test_key(key: str, fields: set[str], check_names: list[str]) -> str:
    """Say what a test may hold (its fields and every check type), and the likely intended key."""
    import difflib

    close = difflib.get_close_matches(key, [*fields, *check_names], n=1)
    guess = f"; did you mean `{close[0]}`?" if close else ""
    return (f"unknown field or check type `{key}`{guess} (test fields: {', '.join(sorted(fields))}; "
            f"check types: {', '.join(check_names)})")


def plain(value: Any) -> Any:
    """A YAML value without line bookkeeping: dicts, lists and scalars."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def read_inputs(f: Fields, args: tuple[str, ...] | list | None) -> dict[str, Any]:
    """A test's `inputs`: one generator or literal per argument of the problem, all of them and no other."""
    sub = f.sub("inputs", required=True)
    inputs: dict[str, Any] = {}
    if args is None:   # the problem's `args` is broken (said once): read each input without naming the others
        return {str(name): generators.parse_input(sub.raw(name), sub, str(name)) for name in sub.data}
    for name in args:
        if not sub.has(name):
            sub.errors.add(sub.line(), sub.field(name), f"missing; every test gives all arguments ({', '.join(args)})")
            continue
        inputs[name] = generators.parse_input(sub.raw(name), sub, name)
    sub.unknown(set(args))
    return inputs


def check_memory(f: Fields, inputs: dict[str, Any], memory_mb: int) -> None:
    """A test's inputs must fit in the problem's memory: they are drawn in the judge's process and held
    by the submission's, so a shape too large is said here, before anything is drawn."""
    sizes = {name: spec.nbytes(inputs) for name, spec in inputs.items() if isinstance(spec, generators.Spec)}
    total = sum(n for n in sizes.values() if n is not None)
    if total <= memory_mb * 2 ** 20:
        return
    name = max(sizes, key=lambda k: sizes[k] or 0)
    sub = f.sub("inputs")
    sub.error(name, f"{inputs[name]!r} takes {format_bytes(sizes[name])}"
                    + (f" (the test's inputs {format_bytes(total)})" if total != sizes[name] else "")
                    + f", more than the problem's memory limit (limits.memory_mb: {memory_mb} MB); "
                      "use a smaller shape")


def format_bytes(n: int) -> str:
    """A size in the largest unit it fills (`1.5 MB`)."""
    for unit, size in (("GB", 2 ** 30), ("MB", 2 ** 20), ("KB", 2 ** 10)):
        if n >= size:
            return f"{n / size:,.1f} {unit}"
    return f"{n} bytes"


def read_names(f: Fields, key: str) -> list[str] | None:
    """A list of argument names (`args`)."""
    names = f.get(key, list, check=all_identifiers, what="a list of argument names")
    return list(names) if names is not None else None


def one_of(options: tuple[str, ...]):
    return lambda v: None if v in options else f"expected one of {', '.join(options)}, got {v!r}"


def all_of(options: tuple[str, ...]):
    def check(v: list) -> str | None:
        bad = [x for x in v if x not in options]
        return f"unknown {', '.join(map(repr, bad))}; expected any of {', '.join(options)}" if bad else None
    return check


def known_rules(rule_ids: tuple[str, ...]):
    def check(v: list) -> str | None:
        bad = [x for x in v if x not in rule_ids]
        if not bad:
            return None
        known = ", ".join(rule_ids) or "none: add `rules:` to the problem's YAML"
        return f"unknown rule id {', '.join(map(repr, bad))}; the problem's rules are: {known}"
    return check


def all_conditions(v: list) -> str | None:
    ok = all(isinstance(x, str) and all(part.isidentifier() for part in x.split(".", 1)) for x in v)
    return None if ok else "expected a list of failure kinds (e.g. values, values.loss, raises) or trap names"


def positive(v: float) -> str | None:
    return None if v > 0 else f"expected a positive number, got {v!r}"


def at_least_one(v: float) -> str | None:
    return None if v >= 1 else f"expected a factor >= 1, got {v!r}"


def non_negative(v: float) -> str | None:
    return None if v >= 0 else f"expected a number >= 0, got {v!r}"


def identifier(v: str) -> str | None:
    return None if v.isidentifier() else f"expected a Python identifier, got {v!r}"


def all_str(v: list) -> str | None:
    return None if all(isinstance(x, str) for x in v) else "expected a list of strings"


def all_identifiers(v: list) -> str | None:
    return None if all(isinstance(x, str) and x.isidentifier() for x in v) else "expected a list of Python identifiers"
