"""Cases are the same bytes wherever the judge runs from (issue 10, issue 11 item 1).

Seeds come from problem id, test name and argument or check purpose only, so
the inputs of every call (gradient upstream seeds, perturbed batches,
permutations) and the expected-value cache key do not depend on the working
directory or on where in the YAML a test is written.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from judge.cases import derive_seed

REPO = Path(__file__).resolve().parent.parent

# Prints, for one problem, the cache key and a digest of every call's wire bytes.
_PROBE = """
import hashlib, json, sys
from judge import problem as problems, wire
from judge.cache import cache_key
from judge.session import Judge
judge = Judge(sys.argv[1], record=False)
problem = judge.problem(sys.argv[2])
hidden = problems.load_hidden(problem)
from judge.cases import build_case
cases = [build_case(problem, t, hidden.tolerance) for t in list(problem.examples) + list(hidden.tests)]
calls = {f"{c.name}/{n}": hashlib.sha256(wire.encode(call.to_plain(), 1 << 34)).hexdigest()
         for c in cases for n, call in c.calls.items()}
print(json.dumps({"key": cache_key(problem, hidden, cases), "calls": calls}))
"""


def _probe(cwd: Path, problem: str) -> dict:
    result = subprocess.run([sys.executable, "-c", _PROBE, str(REPO), problem], cwd=cwd, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_inputs_and_cache_key_do_not_depend_on_the_working_directory(tmp_path):
    # patchify has gradient and leakage checks: both draw from Case.seed.
    from_repo = _probe(REPO, "patchify")
    from_elsewhere = _probe(tmp_path, "patchify")
    assert any("gradient" in name for name in from_repo["calls"])
    assert any("leakage" in name for name in from_repo["calls"])
    assert from_repo["calls"] == from_elsewhere["calls"]
    assert from_repo["key"] == from_elsewhere["key"]


def test_check_seeds_are_kept_apart_from_argument_seeds():
    from judge.cases import Case
    from judge.problem import TestSpec

    case = Case(test=TestSpec(name="t", group="hidden", inputs={}, checks=(), tolerance=None), arg_names=("gradient",), args=(None,), problem="p")
    assert case.seed("gradient") != derive_seed("p", "t", "gradient")  # an argument named like a check
    assert case.seed("gradient") == Case(test=TestSpec(name="t", group="hidden", inputs={}, checks=(), tolerance=None,
                                                              source="elsewhere.yaml:99"),
                                         arg_names=(), args=(), problem="p").seed("gradient")
