"""judge/authoring/gate.py: the mutation gate finds a planted weak test, tolerates equivalent mutants, and is bounded.

The gate runs on a private copy of `pos_embed` whose only accepted solution is its reference, with
the operators that touch validation checks, so each run judges a few dozen mutants.
"""
from __future__ import annotations

import re

import pytest

from judge.authoring.gate import EQUIVALENT, KILLED, NOT_RUN, SURVIVED, GateOptions, run_gate
from judge.judging.session import Judge
from problemsets import copy_problems

PROBLEM = "pos_embed"
CHECKS = ("guard", "comparison")
NARROW = re.compile(r"  - name: rejects_cls_token_width_mismatch\n(    .*\n)+")   # a (1, 1, 6) class token, D = 8


@pytest.fixture(scope="module")
def problem_set(tmp_path_factory):
    return copy_problems(tmp_path_factory.mktemp("gate"), PROBLEM)


@pytest.fixture(scope="module")
def gate_judge(problem_set):
    with Judge(problem_set, record=False, ahead=True, threads=1) as j:
        yield j


@pytest.fixture(scope="module")
def shipped(gate_judge):
    return run_gate(gate_judge, PROBLEM, GateOptions(operators=CHECKS, workers=2))


def test_the_shipped_tests_kill_every_mutant_of_a_check(shipped):
    assert shipped.survivors == []
    assert shipped.count(KILLED) >= 5
    assert shipped.complete and shipped.files == [f"hidden_tests/{PROBLEM}/reference.py"]


def test_an_equivalent_mutant_is_tolerated(shipped):
    """`not isinstance(x, torch.Tensor) or ...` without its first condition: every input is a tensor,
    so no correct solution can be told apart from it; it is classed equivalent, not reported."""
    outcome = next(o for o in shipped.outcomes if o.mutant.operator == "guard"
                   and o.mutant.after == "if x.dim() != 3 or not x.is_floating_point(): ...")
    assert outcome.status == EQUIVALENT
    assert shipped.count(EQUIVALENT) >= 1


def test_a_planted_weak_test_gives_a_survivor_with_its_smallest_input(gate_judge, problem_set):
    tests = problem_set / "hidden_tests" / PROBLEM / "tests.yaml"
    text = tests.read_text()
    tests.write_text(NARROW.sub("", text))
    try:
        weak = run_gate(gate_judge, PROBLEM, GateOptions(operators=CHECKS, workers=2))
    finally:
        tests.write_text(text)
    survivor = next(o for o in weak.survivors if "cls_token" in o.mutant.before)
    assert survivor.mutant.operator == "comparison" and " > " in survivor.mutant.after
    # The input that tells it apart: a class token narrower than D, on which the reference raises.
    assert survivor.probe.raises == "ValueError" and "cls_token axis 2 shrunk" in survivor.probe.change
    assert "RuntimeError" in survivor.difference
    smallest = min(o.probe.size for o in weak.survivors if o.mutant == survivor.mutant)
    assert survivor.probe.size == smallest
    found = weak.to_json()
    assert found["mutants"]["survived"] == len(weak.survivors) >= 1
    assert found["survivors"][0]["input"]["reference"] == "raises ValueError"


def test_the_probes_are_deterministic(gate_judge):
    from judge.model import problem as problem_files
    from judge.authoring.probes import make_probes

    problem = gate_judge.problem(PROBLEM)
    hidden = problem_files.load_hidden(problem)
    reference = hidden.reference_function(problem.entry_point)
    first, second = (make_probes(problem, hidden, reference, seed=0) for _ in range(2))
    assert [p.describe() for p in first] == [p.describe() for p in second]
    other = make_probes(problem, hidden, reference, seed=1)
    redrawn = [p for p in first if p.change.startswith("redrawn")]
    assert redrawn and any(p.change.startswith("redrawn (seed 1") for p in other)


def test_a_budget_bounds_the_gate_and_a_sample_is_seeded(gate_judge):
    runs = [run_gate(gate_judge, PROBLEM, GateOptions(operators=CHECKS, per_file=3, seed=seed, budget_s=1e-6))
            for seed in (1, 1, 2)]
    assert all(not r.complete and r.count(NOT_RUN) == r.made == 3 for r in runs)
    assert runs[0].to_json()["complete"] is False
    indices = [[o.mutant.index for o in r.outcomes] for r in runs]
    assert indices[0] == indices[1] and indices[0] != indices[2]


def test_survived_counts_in_the_score(shipped):
    assert shipped.score() == 1.0
    assert shipped.count(SURVIVED) == 0
