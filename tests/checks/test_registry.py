"""The check registry (judge.checks) is the one list of check types: the rest of the package asks it by trait."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from judge import checks
from judge.checks import gradient, raises
from judge.checks.result import EVERY_PROBE, REDRAWN_PROBES

PACKAGE = Path(checks.__file__).resolve().parents[1]

# A compared value that holds a check type or a kind a check licenses (`spec.type`, `result.kind`, `rule.checks`).
CHECK_WORDS = frozenset({"type", "kind", "kinds", "check", "checks", "check_name", "check_type", "stage"})
# Calls whose first argument is a check type: a test's check, a check's extra calls, its parameters.
CHECK_CALLS = frozenset({"CheckSpec", "of", "parse_params", "refuse_params"})


def _tail(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def check_names_in(tree: ast.AST, names: set[str], kinds: set[str]) -> list[tuple[int, str]]:
    """(line, name) of each string constant in `tree` that names a check type where a check is meant.

    Precise rather than every string equal to a check's name: "shape" and "dtype" are also fields
    of the wire format and of the input generators, and a test may be named "gradient". A name counts
    only where it denotes a check:

    - compared (==, !=, in, not in) with a value that holds a check type or a licensed kind (a name or
      attribute in CHECK_WORDS: `spec.type == "gradient"`, `"raises" in rule.checks`);
    - the check argument of a call that takes one (CHECK_CALLS, `checks.get`): `CheckSpec("raises", ...)`;
    - an item of a literal collection of two or more strings, each a check type or a licensed kind:
      a list of checks kept beside the registry (`frozenset({"raises", "gradient"})`).

    Keys of dicts and subscripts are left out: they are fields of YAML or wire documents, and where
    an importer writes a check's YAML key into a problem file, the problem loader refuses a key that
    names no check, so nothing is weakened silently.
    """
    found: list[tuple[int, str]] = []

    def named(node: ast.AST) -> str | None:
        return node.value if isinstance(node, ast.Constant) and node.value in names else None

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and all(isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn))
                                                 for op in node.ops):
            operands = [node.left, *node.comparators]
            for operand in operands:
                name = named(operand)
                if name and any(_tail(other) in CHECK_WORDS for other in operands if other is not operand):
                    found.append((node.lineno, name))
        elif isinstance(node, ast.Call):
            callee = _tail(node.func)
            on_registry = (callee == "get" and isinstance(node.func, ast.Attribute)
                           and _tail(node.func.value) == "checks")
            if callee in CHECK_CALLS or on_registry:
                chosen = node.args[:1] + [k.value for k in node.keywords if k.arg == "type"]
                found += [(node.lineno, name) for arg in chosen if (name := named(arg))]
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and len(node.elts) >= 2:
            texts = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(texts) == len(node.elts) and all(t in names or t in kinds for t in texts):
                found += [(node.lineno, t) for t in texts if t in names]
    return sorted(set(found))


def _modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        if relative.parts[:2] == ("judge", "checks"):
            continue
        found.append((".".join(relative.parts).removesuffix(".__init__"), path))
    return found


def test_no_check_is_named_outside_the_registry():
    names, kinds = set(checks.names()), set(checks.rule_kinds())
    offences = []
    for _module, path in _modules():
        for line, name in check_names_in(ast.parse(path.read_text(encoding="utf-8")), names, kinds):
            offences.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {name!r}")
    assert not offences, ("check types named outside judge/checks (ask the registry by trait, or name the check "
                          "through its module with checks.name_of):\n" + "\n".join(offences))


@pytest.mark.parametrize("source, expected", [
    ('if spec.type == "gradient": pass', [(1, "gradient")]),
    ('ok = "raises" in rule.checks', [(1, "raises")]),
    ('c = CheckSpec("raises", {}, 0)', [(1, "raises")]),
    ('calls = case.calls.of("experiment")', [(1, "experiment")]),
    ('t = checks.get("leakage")', [(1, "leakage")]),
    ('KEPT = ("gradient", "mutation")', [(1, "gradient"), (1, "mutation")]),
    ('KINDS = frozenset({"structure", "values"})', [(1, "structure")]),
    # Not a check: fields of data, generator parameters, a test's name, a mixed list of words.
    ('node = {"dtype": name, "shape": list(shape)}', []),
    ('n = math.prod(params["shape"])', []),
    ('if b.value.attr == "shape": pass', []),
    ('if test.name == "gradient": pass', []),
    ('OPTIONS = ("dtype", "library", "seed")', []),
    ('x = data.get("experiment")', []),
])
def test_the_scan_finds_checks_only_where_one_is_meant(source, expected):
    names, kinds = set(checks.names()), set(checks.rule_kinds())
    assert check_names_in(ast.parse(source), names, kinds) == expected


def test_traits_say_what_the_lists_beside_the_registry_said():
    """The traits validate and probes ask by hold what their own lists held before."""
    def having(predicate) -> set[str]:
        return {name for name in checks.names() if predicate(checks.get(name).traits)}

    assert having(lambda t: t.says_mistake) == {"raises", "gradient", "mutation", "leakage", "invariance",
                                                "experiment"}
    assert having(lambda t: t.on_probes == EVERY_PROBE) == {"gradient", "mutation"}
    assert having(lambda t: t.on_probes == REDRAWN_PROBES) == {"leakage", "invariance"}
    assert having(lambda t: t.applies_to is not None) == {"gradient"}
    assert having(lambda t: t.fails_on is not None) == {"shape", "dtype", "finite", "allclose"}


def test_name_of_names_a_check_module_and_nothing_else():
    assert checks.name_of(raises) == "raises" and checks.name_of(gradient) == "gradient"
    with pytest.raises(ValueError):
        checks.name_of(ast)


def test_refuse_params_is_the_check_modules_own():
    assert checks.refuse_params("raises", {"type": "ValueError"}) is None
    assert "did you mean ValueError?" in checks.refuse_params("raises", {"type": "ValueErorr"})
    assert checks.refuse_params("compare", {}) is None
