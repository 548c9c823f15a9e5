"""judge/authoring/gate.py: the mutation gate finds a planted weak test, tolerates equivalent mutants, tells a
mutant that differs only outside the input domain (out of contract) from a survivor, and is bounded.

The gate runs on private copies of `pos_embed` and `patchify` whose only accepted solution is the
reference, with the operators that touch validation checks, so each run judges a few dozen mutants.
"""
from __future__ import annotations

import re

import pytest

from judge.authoring.gate import EQUIVALENT, KILLED, NOT_RUN, OUT_OF_CONTRACT, SURVIVED, GateOptions, run_gate
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


# ---------------------------------------------------------------- the input domain

TYPED = "patchify"   # its reference checks that the patch sizes are ints, not bools: beyond its domain


@pytest.fixture(scope="module")
def typed_set(tmp_path_factory):
    return copy_problems(tmp_path_factory.mktemp("gate_domain"), TYPED)


@pytest.fixture(scope="module")
def typed_judge(typed_set):
    with Judge(typed_set, record=False, ahead=True, threads=1) as j:
        yield j


def _type_check_mutant(result):
    """The mutant without the reference's `not isinstance(size, int)`: it differs on a float patch size only."""
    return next(o for o in result.outcomes if o.mutant.operator == "guard"
                and o.mutant.after == "if isinstance(size, bool) or size <= 0: ...")


def test_a_mutant_that_differs_only_outside_the_domain_is_out_of_contract(typed_judge):
    result = run_gate(typed_judge, TYPED, GateOptions(operators=("guard",), workers=2))
    outcome = _type_check_mutant(result)
    assert outcome.status == OUT_OF_CONTRACT
    assert outcome.probe.outside == "patch_height is a float (2.0), not int" and not outcome.probe.in_domain
    assert result.survivors == [] and result.count(OUT_OF_CONTRACT) >= 2   # the bool check's mutant too
    assert result.outside >= 4   # a float and a bool for each patch size
    found = result.to_json()
    assert found["mutants"]["out_of_contract"] == len(found["out_of_contract"]) >= 2
    assert found["out_of_contract"][0]["input"]["outside_domain"]
    # No out-of-domain probe is ever open: accepted solutions may do anything there.
    assert all(o.probe.in_domain for o in result.open)


def test_the_same_mutant_survives_where_the_domain_says_nothing(typed_judge, typed_set):
    """Without `domain:` and without annotations a float patch size is inside the contract: then a test is missing."""
    public = typed_set / "problems" / f"{TYPED}.yaml"
    text = public.read_text()
    start, end = text.index("domain:\n"), text.index("statement: |")
    bare = text[:start] + text[end:]
    bare = bare.replace("patch_height: int, patch_width: int) -> dict\"", "patch_height, patch_width) -> dict\"")
    public.write_text(bare)
    try:
        result = run_gate(typed_judge, TYPED, GateOptions(operators=("guard",), workers=2))
    finally:
        public.write_text(text)
    outcome = _type_check_mutant(result)
    assert outcome.status == SURVIVED and outcome.probe.in_domain
    assert "2.0" in outcome.probe.change


def test_a_sample_knows_it_is_a_sample(typed_judge):
    result = run_gate(typed_judge, TYPED, GateOptions(operators=("guard",), per_file=2))
    assert result.sampled and result.made == 2 < result.population
    assert result.to_json()["sampled"] is True and result.to_json()["mutants"]["of"] == result.population
    every = run_gate(typed_judge, TYPED, GateOptions(operators=("guard",), budget_s=1e-6))
    assert not every.sampled and every.made == every.population == result.population


UNTYPED = '''import torch


def patchify(images, patch_height, patch_width):
    if images.dim() != 4 or patch_height < 1 or patch_width < 1:
        raise ValueError("bad input")
    b, c, h, w = images.shape
    if h % patch_height or w % patch_width:
        raise ValueError("indivisible")
    if images.numel() < 0:   # never true: its mutants change nothing
        raise ValueError("impossible")
    gh, gw = h // patch_height, w // patch_width
    x = images.reshape(b, c, gh, patch_height, gw, patch_width).permute(0, 2, 4, 1, 3, 5)
    rows, cols = torch.meshgrid(torch.arange(gh), torch.arange(gw), indexing="ij")
    return {"tokens": x.reshape(b, gh * gw, -1), "coordinates": torch.stack([rows.flatten(), cols.flatten()], 1)}
'''


def test_an_accepted_file_without_type_checks_has_no_out_of_contract_mutants_for_that(typed_judge, typed_set):
    """The file raises TypeError for a float patch size where the reference raises ValueError: outside the
    domain it may. A mutant that keeps doing just that is equivalent; only a change where the file agreed
    with the reference would be out of contract."""
    path = typed_set / "submissions" / TYPED / "accepted" / "untyped.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(UNTYPED)
    try:
        result = run_gate(typed_judge, TYPED, GateOptions(operators=("guard",), workers=2))
    finally:
        path.unlink()
    mine = [o for o in result.outcomes if o.file.endswith("untyped.py")]
    impossible = next(o for o in mine if o.mutant.before.startswith("if images.numel() < 0"))
    assert impossible.status == EQUIVALENT
    assert not any(o.status == OUT_OF_CONTRACT for o in mine) and result.survivors == []
