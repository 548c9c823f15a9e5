"""Cases are the same bytes wherever the judge runs from, and call names belong to judge.model.cases
(issue 10, issue 11 item 1).

Seeds come from problem id, test name and argument or check purpose only, so
the inputs of every call (gradient upstream seeds, perturbed batches,
permutations, training data) and the expected-value cache key do not depend on
the working directory or on where in the YAML a test is written. Calls are
built before the case and never change; a check reads its own calls by the
short names it chose, so no check module spells a call's full name.
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from judge.model import problem as problems
from judge.model.cases import MAIN, Calls, Case, Drawn, build_case, call_name, derive_seed, owned_by, with_calls
from judge.runs.calls import Call, Observation
from judge.checks import gradient, mutation
from judge.model.problem import CheckSpec

REPO = Path(__file__).resolve().parents[2]
CHECKS_DIR = REPO / "judge" / "checks"

# Prints, for every shipped problem, the cache key and a digest of every call's wire bytes, in call order.
_PROBE = """
import hashlib, json, sys
from pathlib import Path
from judge.model import problem as problems
from judge.base import encoding as wire
from judge.model.cache import cache_key
from judge.model.cases import build_case
root = Path(sys.argv[1])
out = {}
for pid in problems.problem_ids(root):
    problem = problems.load_problem(root, pid)
    hidden = problems.load_hidden(problem)
    cases = [build_case(problem, t, hidden.tolerance) for t in list(problem.examples) + list(hidden.tests)]
    calls = [[c.name, n, hashlib.sha256(wire.encode(call.to_plain(), 1 << 34)).hexdigest()]
             for c in cases for n, call in c.calls.items()]
    out[pid] = {"key": cache_key(problem, hidden, cases), "calls": calls}
print(json.dumps(out))
"""


def _probe(cwd: Path) -> dict:
    result = subprocess.run([sys.executable, "-c", _PROBE, str(REPO)], cwd=cwd, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _shipped_cases() -> list[Case]:
    found = []
    for pid in problems.problem_ids(REPO):
        problem = problems.load_problem(REPO, pid)
        hidden = problems.load_hidden(problem)
        found += [build_case(problem, t, hidden.tolerance) for t in list(problem.examples) + list(hidden.tests)]
    return found


def test_inputs_and_cache_key_do_not_depend_on_the_working_directory(tmp_path):
    from_repo = _probe(REPO)
    from_elsewhere = _probe(tmp_path)
    assert sorted(from_repo) == problems.problem_ids(REPO) and len(from_repo) >= 20
    # every check that adds calls is covered: each draws from Case.seed or its own declared seed
    names = {name for entry in from_repo.values() for _, name, _ in entry["calls"]}
    assert {n.split(".")[0] for n in names} >= {MAIN, "gradient", "leakage", "invariance", "mutation", "experiment"}
    for pid in from_repo:
        assert from_repo[pid]["calls"] == from_elsewhere[pid]["calls"], pid   # same calls, order and bytes
        assert from_repo[pid]["key"] == from_elsewhere[pid]["key"], pid


def test_check_seeds_are_kept_apart_from_argument_seeds():
    drawn = Drawn(test=problems.TestSpec(name="t", group="hidden", inputs={}, checks=(), tolerance=None),
                  arg_names=("gradient",), args=(None,), problem="p")
    assert drawn.seed("gradient") != derive_seed("p", "t", "gradient")  # an argument named like a check
    moved = problems.TestSpec(name="t", group="hidden", inputs={}, checks=(), tolerance=None, source="elsewhere.yaml:99")
    assert drawn.seed("gradient") == Drawn(test=moved, arg_names=(), args=(), problem="p").seed("gradient")


# ---------------------------------------------------------------- calls: built once, frozen, named here

def _drawn(*specs: CheckSpec) -> Drawn:
    test = problems.TestSpec(name="t", group="hidden", inputs={}, checks=specs, tolerance=None, source="t.yaml:1")
    return Drawn(test=test, arg_names=("x",), args=(1.0,), problem="p")


def test_calls_are_main_then_each_checks_calls_in_the_order_of_the_checks():
    case = with_calls(_drawn(CheckSpec("mutation", {}), CheckSpec("compare", {})))
    assert list(case.calls) == [MAIN, call_name("mutation", mutation.CALL)]
    assert case.calls.main == Call(args=(1.0,))
    assert list(case.calls.of("mutation")) == [mutation.CALL]
    assert case.calls.of("compare") == {}


def test_calls_cannot_be_changed_after_the_case_is_made():
    case = with_calls(_drawn(CheckSpec("mutation", {})))
    with pytest.raises(TypeError):
        case.calls[MAIN] = Call(args=(2.0,))   # type: ignore[index]
    with pytest.raises(AttributeError):
        case.calls.update({})                  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        case.calls.of("mutation")["inputs"] = Call(args=())   # type: ignore[index]
    with pytest.raises(ValueError, match="two calls named"):
        Calls(Call(args=()), (("a", "b", Call(args=())), ("a", "b", Call(args=()))))


def test_a_check_sees_the_main_call_and_its_own_calls_only():
    case = with_calls(_drawn(CheckSpec("mutation", {}), CheckSpec("gradient", {"wrt": ["x"]})))
    observations = {name: Observation(value=i) for i, name in enumerate(case.calls)}
    seen = case.view("mutation", observations)
    assert seen.main.value == 0 and seen[mutation.CALL].value == 1
    with pytest.raises(TypeError):
        seen.own[gradient.CALL] = observations[MAIN]   # nor added to what it sees
    with pytest.raises(KeyError):
        seen[gradient.CALL]                    # another check's call is not reachable by name
    assert [o.value for _, o in seen.every] == [0, 1, 2]      # but every call, unnamed, for mutation
    assert owned_by("gradient", observations) == {gradient.CALL: observations[call_name("gradient", gradient.CALL)]}
    with pytest.raises(KeyError):              # a missing observation is never silently absent
        case.view("gradient", {MAIN: Observation(value=0)})


# ---------------------------------------------------------------- no check module spells a call name

def call_name_strings(source: str, forbidden: set[str]) -> list[str]:
    """String constants in `source` that are a call name, and f-strings or sums that build one from a
    "<check>." prefix and a module constant holding a check's short call name (f"invariance.{CALL}")."""
    tree = ast.parse(source)
    prefixes = {name.split(".", 1)[0] + "." for name in forbidden if "." in name}
    short = {name.split(".", 1)[1] for name in forbidden if "." in name}
    holders = {target.id for node in tree.body if isinstance(node, ast.Assign)
               and isinstance(node.value, ast.Constant) and node.value.value in short
               for target in node.targets if isinstance(target, ast.Name)}

    def builds(head: ast.AST, tail: ast.AST) -> bool:
        if isinstance(tail, ast.FormattedValue):
            tail = tail.value
        return isinstance(head, ast.Constant) and head.value in prefixes and isinstance(tail, ast.Name) \
            and tail.id in holders

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in forbidden:
            found.append(node.value)
        elif isinstance(node, ast.JoinedStr) and len(node.values) == 2 and builds(*node.values):
            found.append(ast.unparse(node))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and builds(node.left, node.right):
            found.append(ast.unparse(node))
    return found


def test_no_check_module_contains_a_call_name():
    names = {name for case in _shipped_cases() for name in case.calls}
    assert MAIN in names and len(names) > 1
    offenders = {path.name: hits for path in sorted(CHECKS_DIR.glob("*.py"))
                 if (hits := call_name_strings(path.read_text(), names))}
    assert not offenders, f"call names belong to judge.model.cases; check modules read calls through Observed: {offenders}"


def test_the_call_name_scan_finds_each_way_of_spelling_one():
    source = ('CALL = "transformed"\nRUN = "run"\n'
              'a = expected["main"]\nb = actual["gradient.backward"]\nc = actual[f"invariance.{CALL}"]\n'
              'd = actual["experiment." + RUN]\nfine = f"invariance.{field}: expected a list"\n'
              'own = actual[CALL]\n')
    forbidden = {"main", "gradient.backward", "invariance.transformed", "experiment.run"}
    assert call_name_strings(source, forbidden) == [
        "main", "gradient.backward", "f'invariance.{CALL}'", "'experiment.' + RUN"]
