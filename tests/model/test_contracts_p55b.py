"""Unit 5.5's self_attention, vit_pool, vit_block and random_masking: the references honour
the contracts of shared/spec/units.md (worked numbers, an independent implementation of the
ViT block), the hidden tests keep the promises their statements make, and every known
wrong submission named after a trap is diagnosed as that trap and nothing else."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from judge.model import generators
from judge.model.cases import draw_inputs
from judge.model.problem import load_hidden, load_problem
from judge.model.solution import load_function

REPO = Path(__file__).resolve().parents[2]
PROBLEMS = ("self_attention", "vit_pool", "vit_block", "random_masking")


def reference(problem_id: str):
    problem = load_problem(REPO, problem_id)
    return load_function(load_hidden(problem).reference, problem.entry_point)


# ---------------------------------------------------------------- self_attention

def test_self_attention_worked_example_by_hand() -> None:
    x = torch.tensor([[[1.0, 0, 0], [0, 1, 0], [1, 1, 0]]])
    out = reference("self_attention")(x, torch.tensor([[2.0, 0], [0, 2], [0, 0]]),
                                      torch.tensor([[1.0, 0], [0, 1], [0, 0]]), torch.tensor([[1.0], [10], [100]]))
    # token 0: scores [2, 0, 2] / sqrt(2); v = [1, 10, 11]
    e = np.exp(np.array([2.0, 0.0, 2.0]) / math.sqrt(2))
    w0 = e / e.sum()
    assert np.allclose(out["weights"][0, 0].numpy(), w0, atol=1e-6)
    assert out["output"][0, 0, 0].item() == pytest.approx(float(w0 @ [1, 10, 11]), abs=1e-5)
    assert out["weights"].dtype == torch.float32 and out["output"].shape == (1, 3, 1)


def test_self_attention_stays_finite_at_scores_of_1e4() -> None:
    x = torch.randn(2, 6, 8, dtype=torch.float64) * 30
    out = reference("self_attention")(x, torch.randn(8, 4, dtype=torch.float64), torch.randn(8, 4, dtype=torch.float64),
                                      torch.randn(8, 3, dtype=torch.float64))
    scores = (x @ torch.randn(8, 4, dtype=torch.float64)).abs().max()
    assert scores > 100 and torch.isfinite(out["weights"]).all() and torch.isfinite(out["output"]).all()
    assert torch.allclose(out["weights"].sum(-1), torch.ones(2, 6, dtype=torch.float64))


# ---------------------------------------------------------------- vit_pool

def test_vit_pool_worked_examples() -> None:
    pool = reference("vit_pool")
    x = torch.arange(12.0).reshape(2, 3, 2)
    assert pool(x, "cls").tolist() == [[0, 1], [6, 7]]
    assert pool(x, "mean").tolist() == [[3, 4], [9, 10]]      # the class token is left out
    assert pool(torch.ones(2, 1, 3), "cls").shape == (2, 3)  # N = 0 is fine for "cls"
    for bad in [(torch.ones(2, 1, 3), "mean"), (x, "max"), (x, "CLS"), (torch.ones(3, 2), "cls")]:
        with pytest.raises(ValueError):
            pool(*bad)


# ---------------------------------------------------------------- vit_block

def timm_block_by_modules(x, p, heads):
    """An independent ViT block: torch's nn.MultiheadAttention (q, k, v stacked, heads consecutive)."""
    width = x.shape[-1]
    attention = nn.MultiheadAttention(width, heads, batch_first=True).to(x.dtype)
    with torch.no_grad():
        attention.in_proj_weight.copy_(p["qkv_weight"])
        attention.in_proj_bias.copy_(p["qkv_bias"])
        attention.out_proj.weight.copy_(p["proj_weight"])
        attention.out_proj.bias.copy_(p["proj_bias"])
    y = F.layer_norm(x, (width,), p["ln1_weight"], p["ln1_bias"], eps=1e-6)
    h = x + attention(y, y, y, need_weights=False)[0]
    y = F.layer_norm(h, (width,), p["ln2_weight"], p["ln2_bias"], eps=1e-6)
    return h + F.linear(F.gelu(F.linear(y, p["fc1_weight"], p["fc1_bias"])), p["fc2_weight"], p["fc2_bias"])


def block_params(width: int, hidden: int, seed: int = 0) -> dict:
    g = torch.Generator().manual_seed(seed)
    shapes = {"ln1_weight": (width,), "ln1_bias": (width,), "ln2_weight": (width,), "ln2_bias": (width,),
              "qkv_weight": (3 * width, width), "qkv_bias": (3 * width,), "proj_weight": (width, width),
              "proj_bias": (width,), "fc1_weight": (hidden, width), "fc1_bias": (hidden,),
              "fc2_weight": (width, hidden), "fc2_bias": (width,)}
    return {k: (torch.randn(s, generator=g, dtype=torch.float64) * 0.3 + (1.0 if k.startswith("ln") and k.endswith("weight") else 0.0))
            for k, s in shapes.items()}


@pytest.mark.parametrize("width, heads, hidden", [(12, 3, 20), (8, 1, 32), (6, 6, 24)])
def test_vit_block_equals_an_independent_block_on_the_same_weights(width: int, heads: int, hidden: int) -> None:
    x = torch.randn(3, 5, width, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    p = block_params(width, hidden)
    assert torch.allclose(reference("vit_block")(x, p, heads), timm_block_by_modules(x, p, heads), rtol=1e-10, atol=1e-12)


def test_vit_block_branch_biases_add_up() -> None:
    p = {k: torch.zeros_like(v, dtype=torch.float32) for k, v in block_params(4, 8).items()}
    p["proj_bias"] += 1
    p["fc2_bias"] += 2
    x = torch.arange(12.0).reshape(1, 3, 4)
    assert torch.equal(reference("vit_block")(x, p, 2), x + 3)


def test_vit_block_rejects_a_missing_key_with_value_error() -> None:
    p = block_params(8, 16)
    del p["fc2_bias"]
    with pytest.raises(ValueError, match="fc2_bias"):
        reference("vit_block")(torch.randn(1, 2, 8, dtype=torch.float64), p, 2)


# ---------------------------------------------------------------- random_masking

def test_random_masking_worked_example() -> None:
    out = reference("random_masking")(torch.arange(16.0).reshape(1, 4, 4), 0.5, torch.tensor([[0.5, 0.1, 0.9, 0.3]]))
    assert out["kept"].tolist() == [[[4, 5, 6, 7], [12, 13, 14, 15]]]
    assert out["mask"].tolist() == [[1, 0, 1, 0]] and out["mask"].dtype == torch.float32
    assert out["ids_restore"].tolist() == [[2, 0, 3, 1]] and out["ids_restore"].dtype == torch.int64


def test_random_masking_truncates_like_mae_even_where_rounding_decides() -> None:
    out = reference("random_masking")(torch.randn(1, 10, 2), 0.9, torch.rand(1, 10))
    assert out["kept"].shape == (1, 0, 2) and out["mask"].sum() == 10   # int(0.9999999999999998) = 0


def _hidden_cases(problem_id: str):
    problem = load_problem(REPO, problem_id)
    for test in load_hidden(problem).tests:
        yield test, dict(zip(problem.args, draw_inputs(problem, test)))


def test_random_masking_hidden_ratios_never_let_rounding_decide() -> None:
    """The statement promises: N * (1 - mask_ratio) is a whole number exactly, or >= 0.1 from one."""
    for test, args in _hidden_cases("random_masking"):
        if any(c.type == "raises" for c in test.checks):
            continue
        product = args["x"].data.shape[1] * (1 - args["mask_ratio"])
        assert product == int(product) or abs(product - round(product)) >= 0.1, test.name


def test_random_masking_hidden_noise_rows_hold_distinct_values() -> None:
    """The statement promises distinct noise values per row (argsort ties would be ambiguous)."""
    for test, args in _hidden_cases("random_masking"):
        noise = args["noise"].data
        if noise.ndim == 2:
            assert all(len(np.unique(row)) == len(row) for row in noise), test.name


# ---------------------------------------------------------------- every problem

@pytest.mark.parametrize("problem_id", PROBLEMS)
def test_tagged_for_the_unit_and_every_test_names_its_rules(problem_id: str) -> None:
    problem = load_problem(REPO, problem_id)
    assert "unit-5.5" in problem.tags and len(problem.hints) >= 3 and problem.rules
    for test in (*problem.examples, *load_hidden(problem).tests):
        assert test.rules, f"{problem_id}: {test.name} names no rule"
        licensed = {kind for rule in test.rules for kind in problem.rule(rule).checks}
        kinds = {c.type for c in test.checks} or {"compare"}
        needed = (kinds - {"compare"}) | ({"structure", "shape", "dtype", "values"} if "compare" in kinds else set())
        assert needed <= licensed, f"{problem_id}: {test.name} runs {needed - licensed} without a rule"


def _trap_submissions() -> list:
    params = []
    for problem_id in PROBLEMS:
        traps = {t.name for t in load_hidden(load_problem(REPO, problem_id)).traps}
        for path in sorted((REPO / "submissions" / problem_id / "wrong_answer").glob("*.py")):
            if path.stem in traps:
                params.append(pytest.param(problem_id, path, id=f"{problem_id}/{path.stem}"))
    return params


@pytest.mark.parametrize("problem_id, path", _trap_submissions())
def test_a_trap_submission_is_named_as_its_own_mistake_only(judge, problem_id: str, path: Path) -> None:
    trap = next(t for t in load_hidden(load_problem(REPO, problem_id)).traps if t.name == path.stem)
    report = judge.run(problem_id, path)
    named = {t.mistake.message for t in report.tests if t.mistake is not None and t.mistake.known}
    assert report.verdict.value == "wrong_answer"
    assert named == {trap.message}, f"{path.name}: diagnosed as {named}"


def test_every_trap_has_its_known_submission() -> None:
    for problem_id in PROBLEMS:
        traps = {t.name for t in load_hidden(load_problem(REPO, problem_id)).traps}
        files = {p.stem for p in (REPO / "submissions" / problem_id / "wrong_answer").glob("*.py")}
        assert traps <= files, f"{problem_id}: no submission for {traps - files}"
