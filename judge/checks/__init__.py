"""The check library: small functions that judge one aspect of a submission.

A check is a plain function `check(case, expected, actual, **params) ->
CheckResult`, one per module (as DMOJ keeps one checker per file).
`expected` and `actual` are the reference's and the submission's
observations as this check sees them (`judge.model.cases.Observed`): `.main` is the
call on the test's inputs. A check that needs more (a gradient, a perturbed
batch) declares extra calls with `calls(drawn, **params) -> {name: Call}`,
which the judge runs on the reference and on the submission alike; the check
reads them back as `actual[name]`, by the name it chose (how they are named
among the test's calls is `judge.model.cases`' business). Checks never raise for a
wrong answer; a check that crashes is a judge error, never a silent "wrong".

Tests select checks in YAML by key: `compare: {}`, `raises: ValueError`,
`gradient: {wrt: [images]}`, and so on; `PARAMS` in each module declares the
keys it accepts (and `refuse_params(**params)`, where it has one, refuses
values the types let through), and `TRAITS` what the rest of the judge needs
to know of it (`judge.checks.result.Traits`: which rules license it, what it
observes and can fail on, whether it expects an error, how its failures are
diagnosed, whether its message names the mistake, which probes keep it).
This registry is the one list of check types: the rest of the judge asks it
by trait, and names a check only through its module (`name_of(raises)`), so
a new check is one module here and one line in `_MODULES`
(tests/checks/test_registry.py holds the package to that).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

from judge.checks.result import CheckResult, Param, Traits, fail, ok
from judge.base.yamlfile import Fields

__all__ = ["CheckResult", "Param", "Traits", "fail", "ok", "get", "names", "name_of", "parse_params", "refuse_params",
           "rule_kinds", "can_fail", "DEFAULT"]

_MODULES = ("compare", "structure", "shape", "dtype", "finite", "allclose", "raises",
            "mutation", "gradient", "leakage", "invariance", "experiment")
DEFAULT = "compare"  # the check of a test that selects none


@dataclass(frozen=True)
class CheckType:
    name: str
    check: Callable[..., CheckResult]
    calls: Callable[..., dict] | None   # (drawn, **params) -> {name: Call}: the check's extra calls
    params: dict[str, Param]
    traits: Traits
    doc: str
    refuse_params: Callable[..., str | None] | None   # (**params) -> why these values cannot be used, or None


def _load(name: str) -> CheckType:
    module: ModuleType = importlib.import_module(f"judge.checks.{name}")
    return CheckType(name=name, check=module.check, calls=getattr(module, "calls", None),
                     params=getattr(module, "PARAMS", {}), traits=module.TRAITS, doc=(module.__doc__ or "").strip(),
                     refuse_params=getattr(module, "refuse_params", None))


_REGISTRY: dict[str, CheckType] = {}


def registry() -> dict[str, CheckType]:
    if not _REGISTRY:
        _REGISTRY.update({name: _load(name) for name in _MODULES})
    return _REGISTRY


def names() -> list[str]:
    return list(_MODULES)


def get(name: str) -> CheckType:
    return registry()[name]


def name_of(module: ModuleType) -> str:
    """The type name (the YAML key) of a check module: how code that means one check names it."""
    name = module.__name__.rpartition(".")[2]
    if module.__name__ != f"judge.checks.{name}" or name not in _MODULES:
        raise ValueError(f"{module.__name__} is not a registered check module")
    return name


def refuse_params(name: str, params: dict) -> str | None:
    """Why a check's parameters, well typed, still cannot be used (a `raises` type that is no builtin
    exception class), or None: the check module's own `refuse_params`, where it has one."""
    refuse = get(name).refuse_params
    return refuse(**params) if refuse is not None else None


def can_fail(kind: str, value: Any) -> bool:
    """Whether the value check that fails as `kind` (a stage of compare) can fail on an output whose
    expected value is `value`: its `fails_on` trait (a float output has no shape or dtype to get wrong)."""
    owner = next(c for c in registry().values() if c.traits.licenses == (kind,))
    return owner.traits.fails_on is None or owner.traits.fails_on(value)


def rule_kinds() -> tuple[str, ...]:
    """What a statement rule can license a test to check (`checks: [...]`): every check type's
    kinds, in registry order (compare's five stages first)."""
    return tuple(dict.fromkeys(kind for check in registry().values() for kind in check.traits.licenses))


def parse_params(name: str, owner: Fields, key: str) -> dict | None:
    """Read the YAML value of a check key into its parameters, collecting errors."""
    spec = get(name)
    raw = owner.raw(key)
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        shorthand = next((p for p in spec.params.values() if p.shorthand), None)
        if shorthand is None:
            owner.error(key, f"expected a mapping of parameters ({', '.join(spec.params) or 'none'})")
            return None
        raw = {shorthand.name: raw}
    sub = Fields(_as_mapping(raw, owner, key), owner.field(key), owner.errors, owner.line(key))
    params: dict[str, Any] = {}
    for pname, param in spec.params.items():
        if param.required:
            value = sub.get(pname, param.kind, what=param.what)
        else:
            value = sub.get(pname, param.kind, default=param.default, what=param.what)
        if value is not None:
            params[pname] = list(value) if isinstance(value, list) else value
    sub.unknown(set(spec.params))
    if any(param.required and pname not in params for pname, param in spec.params.items()):
        return None
    return params


def _as_mapping(raw: dict, owner: Fields, key: str):
    from judge.base.yamlfile import Mapping

    if isinstance(raw, Mapping):
        return raw
    mapping = Mapping(raw)
    mapping.line = owner.line(key)
    mapping.key_lines = {}
    return mapping
