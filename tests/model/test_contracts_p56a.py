"""The references of collapse_std, siglip_loss, zero_shot_classify and linear_probe honour the
contracts of shared/spec/units.md (unit 5.6): worked numbers, extremes, ties, and linear_probe's
leakage properties (the YAML never types expected values, so they are pinned here)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import torch

from judge.model.problem import load_hidden, load_problem
from judge.model.solution import load_function

REPO = Path(__file__).resolve().parents[2]
PROBLEMS = ("collapse_std", "siglip_loss", "zero_shot_classify", "linear_probe")


def reference(problem_id: str, entry_point: str | None = None):
    return load_function(REPO / "hidden_tests" / problem_id / "reference.py", entry_point or problem_id)


def trap(problem_id: str, name: str):
    return load_function(REPO / "hidden_tests" / problem_id / "traps.py", name)


# ---------------------------------------------------------------- collapse_std

def test_collapse_std_is_zero_when_collapsed_and_one_over_sqrt_d_when_spread() -> None:
    collapse_std = reference("collapse_std")
    assert collapse_std(torch.tensor([[1.0, 2.0], [1.0, 2.0], [2.0, 4.0]])) == 0.0
    axes = torch.cat([torch.eye(3), -torch.eye(3)])
    assert collapse_std(axes) == pytest.approx(1 / math.sqrt(3), rel=1e-12)
    spread = collapse_std(torch.randn(4096, 16, generator=torch.Generator().manual_seed(0)))
    assert isinstance(spread, float) and spread == pytest.approx(0.25, rel=0.02)


def test_collapse_std_float32_collapse_is_zero_but_one_pass_variance_is_not() -> None:
    z = torch.randn(1, 24, generator=torch.Generator().manual_seed(1)).repeat(64, 1)
    assert reference("collapse_std")(z) == pytest.approx(0.0, abs=1e-6)
    u = torch.nn.functional.normalize(z, dim=1)
    one_pass = ((u * u).mean(0) - u.mean(0) ** 2).clamp_min(0).sqrt().mean().item()
    assert one_pass > 2e-6  # what the hidden collapsed_float32 test's atol rejects


@pytest.mark.parametrize("shape", [(1, 8), (0, 8), (8,), (2, 3, 4)])
def test_collapse_std_rejects_fewer_than_two_rows_and_other_ranks(shape) -> None:
    with pytest.raises(ValueError):
        reference("collapse_std")(torch.zeros(shape))


# ---------------------------------------------------------------- siglip_loss

def test_siglip_two_pairs_by_hand() -> None:
    loss = reference("siglip_loss")(torch.tensor([[1.0, 0.0], [0.0, 1.0]]), torch.tensor([[3.0, 0.0], [0.0, 1.0]]),
                                    0.0, 0.0)
    by_hand = (2 * math.log1p(math.exp(-1.0)) + 2 * math.log(2.0)) / 2
    assert loss.dtype == torch.float32 and loss.dim() == 0
    assert float(loss) == pytest.approx(by_hand, rel=1e-6) and round(float(loss), 4) == 1.0064


def test_siglip_single_pair_is_one_positive() -> None:
    image, text = torch.randn(1, 8, dtype=torch.float64), torch.randn(1, 8, dtype=torch.float64)
    cos = torch.nn.functional.cosine_similarity(image, text).item()
    loss = reference("siglip_loss")(image, text, math.log(10.0), -10.0)
    assert float(loss) == pytest.approx(math.log1p(math.exp(-(10 * cos - 10))), rel=1e-12)


def test_siglip_is_finite_at_logits_of_ten_thousand_where_naive_log_sigmoid_is_not() -> None:
    image, text = torch.randn(8, 16), torch.randn(8, 16)
    t_prime = math.log(1e4)
    loss = reference("siglip_loss")(image, text, t_prime, 0.0)
    assert loss.dtype == torch.float32 and torch.isfinite(loss) and float(loss) > 1e3
    assert not torch.isfinite(trap("siglip_loss", "naive_log_sigmoid")(image, text, t_prime, 0.0))


def test_siglip_gradients_reach_learnable_temperature_and_bias() -> None:
    t_prime = torch.tensor(math.log(10.0), requires_grad=True)
    bias = torch.tensor(-10.0, requires_grad=True)
    reference("siglip_loss")(torch.randn(4, 6), torch.randn(4, 6), t_prime, bias).backward()
    assert t_prime.grad is not None and bias.grad is not None
    # at b = -10 every logit is <= 0: raising the bias lowers the loss of the 4 positives more
    # than it raises that of the 12 negatives, so the loss decreases with the bias
    assert float(bias.grad) < 0


# ---------------------------------------------------------------- zero_shot_classify

def test_zero_shot_two_classes_two_templates() -> None:
    out = reference("zero_shot_classify")(torch.tensor([[1.0, 0.0], [1.0, 1.0]]),
                                          torch.tensor([[[2.0, 0.0], [1.0, 1.0]], [[0.0, 1.0], [0.0, 3.0]]]), 10.0)
    cos_22_5 = math.cos(math.pi / 8)
    assert torch.allclose(out["logits"], torch.tensor([[10 * cos_22_5, 0.0], [10 * cos_22_5, 10 / math.sqrt(2)]]))
    assert torch.allclose(out["probs"].sum(dim=1), torch.ones(2))
    assert out["predictions"].dtype == torch.int64 and out["predictions"].tolist() == [0, 0]


def test_zero_shot_exact_ties_go_to_the_lowest_class() -> None:
    prompts = torch.tensor([[[1.0, 0, 0], [2, 0, 0]], [[0, 1.0, 0], [0, 5, 0]], [[0, 3.0, 0], [0, 1, 0]]])
    out = reference("zero_shot_classify")(torch.tensor([[0.3, 0.7, 0.0], [0.0, 0.0, 2.0]]), prompts, 100.0)
    assert out["logits"][0, 1] == out["logits"][0, 2]  # bit-identical, not merely close
    assert out["predictions"].tolist() == [1, 0]


@pytest.mark.parametrize("images, prompts", [((8,), (3, 2, 8)), ((4, 8), (3, 8)), ((4, 8), (3, 2, 6)),
                                             ((4, 8), (3, 0, 8))])
def test_zero_shot_rejects_bad_shapes(images, prompts) -> None:
    with pytest.raises(ValueError):
        reference("zero_shot_classify")(torch.randn(images), torch.randn(prompts), 100.0)


# ---------------------------------------------------------------- linear_probe

def _probe_inputs(seed: int, n_train: int = 30, n_test: int = 40, d: int = 6, classes: int = 3):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(n_train, d)), rng.integers(0, classes, n_train),
            rng.normal(1.0, 2.0, size=(n_test, d)), rng.integers(0, classes, n_test), classes, 0.5)


def test_linear_probe_one_feature_by_hand() -> None:
    train, test = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([[1.0], [2.5]])
    scores = reference("linear_probe", "scores")(train, np.array([0, 0, 1, 1]), test, 2, 1.0)
    assert np.allclose(scores, [[0.66, 0.34], [0.18, 0.82]], rtol=0, atol=1e-12)
    out = reference("linear_probe")(train, np.array([0, 0, 1, 1]), test, np.array([0, 0]), 2, 1.0)
    assert out["predictions"].dtype == np.int64 and out["predictions"].tolist() == [0, 1]
    assert out["accuracy"] == 0.5


def test_linear_probe_constant_features_predict_class_frequencies_with_exact_ties() -> None:
    out = reference("linear_probe")(np.full((5, 3), 2.0), np.array([1, 2, 2, 1, 0]),
                                    np.array([[0.0, 1, 2], [9, 9, 9]]), np.array([2, 1]), 4, 1.0)
    assert out["predictions"].tolist() == [1, 1] and out["accuracy"] == 0.5


@pytest.mark.parametrize("seed", range(5))
def test_linear_probe_predictions_ignore_other_test_samples_and_all_test_labels(seed: int) -> None:
    probe = reference("linear_probe")
    train_x, train_y, test_x, test_y, classes, l2 = _probe_inputs(seed)
    base = probe(train_x, train_y, test_x, test_y, classes, l2)["predictions"]
    other = test_x.copy()
    other[10:] = np.random.default_rng(100 + seed).normal(5.0, 10.0, size=other[10:].shape)
    assert np.array_equal(probe(train_x, train_y, other, test_y, classes, l2)["predictions"][:10], base[:10])
    relabelled = (test_y + 1) % classes
    assert np.array_equal(probe(train_x, train_y, test_x, relabelled, classes, l2)["predictions"], base)


@pytest.mark.parametrize("name", ["test_statistics", "train_and_test_statistics", "fit_on_train_and_test"])
def test_linear_probe_leaky_traps_do_depend_on_the_test_set(name: str) -> None:
    leaky = trap("linear_probe", name)
    moved = 0
    for seed in range(5):
        train_x, train_y, test_x, test_y, classes, l2 = _probe_inputs(seed, n_train=12, d=8)
        base = leaky(train_x, train_y, test_x, test_y, classes, l2)["predictions"]
        other = test_x.copy()
        other[10:] = np.random.default_rng(100 + seed).normal(5.0, 10.0, size=other[10:].shape)
        relabelled = (test_y + 1) % classes
        moved += int(np.sum(leaky(train_x, train_y, other, test_y, classes, l2)["predictions"][:10] != base[:10]))
        moved += int(np.sum(leaky(train_x, train_y, test_x, relabelled, classes, l2)["predictions"] != base))
    assert moved > 0


@pytest.mark.parametrize("change", [
    {"l2": 0.0}, {"l2": -1.0}, {"train_labels": np.array([0, 1, 2, 1])}, {"test_labels": np.array([0, -1, 1])},
    {"test_features": np.zeros((3, 5))}, {"train_labels": np.array([0, 1, 1])}, {"test_features": np.zeros((0, 3)),
                                                                                   "test_labels": np.zeros(0, int)},
])
def test_linear_probe_rejects_bad_input(change: dict) -> None:
    args = {"train_features": np.ones((4, 3)), "train_labels": np.array([0, 1, 1, 0]),
            "test_features": np.ones((3, 3)), "test_labels": np.array([0, 1, 1]), "num_classes": 2, "l2": 1.0}
    args.update(change)
    with pytest.raises(ValueError):
        reference("linear_probe")(**args)


# ---------------------------------------------------------------- every problem

@pytest.mark.parametrize("problem_id", PROBLEMS)
def test_each_check_of_each_test_is_licensed_by_a_rule_it_names(problem_id: str) -> None:
    problem = load_problem(REPO, problem_id)
    assert "unit-5.6" in problem.tags and len(problem.hints) >= 3
    stages = {"compare": {"structure", "shape", "dtype", "finite", "values"}, "allclose": {"values"}}
    for test in (*problem.examples, *load_hidden(problem).tests):
        kinds = set().union(*(stages.get(c.type, {c.type}) for c in test.checks or ())) or stages["compare"]
        licensed = {kind for rule in test.rules for kind in problem.rule(rule).checks}
        assert test.rules and kinds <= licensed, f"{problem_id}.{test.name}: {kinds - licensed} unlicensed"


def _wrong_answers() -> list:
    return [pytest.param(problem_id, path, id=f"{problem_id}/{path.stem}") for problem_id in PROBLEMS
            for path in sorted((REPO / "submissions" / problem_id / "wrong_answer").glob("*.py"))]


@pytest.mark.parametrize("problem_id, path", _wrong_answers())
def test_a_wrong_answer_is_named_as_its_own_trap_or_as_none(judge, problem_id: str, path: Path) -> None:
    # outputs such as predictions are discrete, so two mistakes can coincide on a test: a
    # learner must never be told about a mistake they did not make
    traps = {t.name: t.message for t in load_hidden(load_problem(REPO, problem_id)).traps}
    report = judge.run(problem_id, path)
    named = {t.mistake.message for t in report.tests if t.mistake is not None and t.mistake.known}
    assert report.verdict.value == "wrong_answer"
    assert named == ({traps[path.stem]} if path.stem in traps else set()), f"{path.name}: named {named}"
