"""judge/experiments: the synthetic world, the training loop, retrieval, and a run through the sandbox."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from judge import experiments

from judge.model import problem as problems
from judge.experiments import retrieval, training
from judge.experiments.world import make_world
from judge.base.submission import Submission

REPO = Path(__file__).resolve().parents[2]


def test_settings_merge_defaults_and_reject_unknown_keys() -> None:
    merged = experiments.settings("nt_xent", {"steps": 10, "lr": 1})
    assert merged["steps"] == 10 and merged["lr"] == 1.0 and isinstance(merged["lr"], float)
    assert merged["dim"] == experiments.get("nt_xent").SETTINGS["dim"]
    with pytest.raises(ValueError, match="unknown setting 'epochs'"):
        experiments.settings("nt_xent", {"epochs": 3})
    with pytest.raises(ValueError, match="must be an int"):
        experiments.settings("nt_xent", {"steps": True})
    with pytest.raises(KeyError, match="the experiments are: simsiam, nt_xent, clip"):
        experiments.get("byol")


def test_every_experiment_declares_its_parts() -> None:
    for name, module in experiments.REGISTRY.items():
        for part in ("SETTINGS", "FIGURES", "weight_shapes", "setup", "train", "score", "failure"):
            assert hasattr(module, part), f"judge/experiments/{name}.py lacks {part}"
        assert module.__doc__


def test_world_is_deterministic_and_pairs_share_content() -> None:
    def draw(seed):
        world = make_world(np.random.default_rng(seed), dims=(12, 10), content_dim=3, nuisance_dim=4,
                           nuisance_scale=0.0, noise=0.0, shared=False)
        return world, world.draw(np.random.default_rng(0), 50)

    (world, (a, b)), (_, (a2, b2)) = draw(5), draw(5)
    assert a.dtype == np.float32 and a.shape == (50, 12) and b.shape == (50, 10)
    assert np.array_equal(a, a2) and np.array_equal(b, b2)
    # Without nuisance or noise both views are linear images of one content: b is a function of a.
    content = a.astype(np.float64) @ np.linalg.pinv(world.content[0])
    assert np.allclose(content @ world.content[1], b, atol=1e-5)


def test_sgd_matches_torch_optim_sgd_with_momentum() -> None:
    """The written-out loop is torch.optim.SGD(momentum=0.9), minus its import cost."""
    torch.manual_seed(0)
    start = {"w": torch.randn(4, 3), "b": torch.randn(3)}
    x = torch.randn(16, 4)

    def loss_at(step, w):
        return ((x[step::4] @ w["w"] + w["b"]) ** 2).mean()

    ours = training.sgd(start, loss_at, steps=4, lr=0.1)
    params = {k: v.clone().requires_grad_(True) for k, v in start.items()}
    optimiser = torch.optim.SGD(list(params.values()), lr=0.1, momentum=0.9)
    for step in range(4):
        optimiser.zero_grad()
        loss_at(step, params).backward()
        optimiser.step()
    for key in start:
        assert torch.allclose(ours[key], params[key].detach(), atol=1e-6)


@pytest.mark.parametrize("value, key, says", [
    (0.5, None, "the loss is a float, not a torch.Tensor"),
    (torch.ones(2, requires_grad=True), None, "has shape (2,); a loss is a 0-dim tensor"),
    (torch.tensor(1.0), None, "does not depend on the weights through autograd"),
    (torch.tensor(1.0, requires_grad=True), "loss", "not a dict with key 'loss'"),
])
def test_as_loss_says_why_a_value_cannot_train(value, key, says) -> None:
    with pytest.raises(training.ExperimentError, match="at step 3, .*" + says.replace("(", r"\(").replace(")", r"\)")):
        training.as_loss(value, 3, key)


def test_top1_counts_ties_as_misses() -> None:
    collapsed = torch.ones(5, 4, dtype=torch.float64)
    assert retrieval.top1(collapsed, collapsed) == 0.0
    eye = torch.eye(4, dtype=torch.float64)
    assert retrieval.top1(eye, eye * 3) == 1.0
    assert retrieval.top1(eye, eye[[1, 0, 2, 3]]) == 0.5


@pytest.mark.parametrize("name", ["simsiam", "nt_xent", "clip"])
def test_training_is_deterministic(name: str) -> None:
    module = experiments.get(name)
    settings = experiments.settings(name, {"steps": 5})
    data, _ = module.setup(np.random.default_rng(3), settings)
    live = {"weights": {k: torch.from_numpy(v) for k, v in data["weights"].items()},
            "views": [torch.from_numpy(v) for v in data["views"]], "batches": torch.from_numpy(data["batches"])}
    loss = {"simsiam": lambda p1, p2, z1, z2: -(p1 * z2.detach()).sum(1).tanh().mean() - (p2 * z1.detach()).sum(1).tanh().mean(),
            "nt_xent": lambda a, b, t: -(torch.nn.functional.normalize(a, dim=1) * torch.nn.functional.normalize(b, dim=1)).sum(1).mean(),
            "clip": lambda a, b, t: {"loss": -(torch.nn.functional.normalize(a, dim=1) * torch.nn.functional.normalize(b, dim=1)).sum(1).mean()}}[name]
    first, second = module.train(loss, live, settings), module.train(loss, live, settings)
    assert set(first) == set(module.weight_shapes(settings))
    assert all(torch.equal(first[k], second[k]) for k in first)
    assert any(not torch.equal(first[k], live["weights"][k]) for k in first)  # it trained


def _experiment_report(judge, problem_id: str, source: str):
    """Judge `source` on the problem's experiment tests only, in the sandbox."""
    prepared = judge.prepared(problem_id)
    chosen = [i for i, c in enumerate(prepared.cases) if any(s.type == "experiment" for s in c.test.checks)]
    assert chosen
    only = replace(prepared, cases=tuple(prepared.cases[i] for i in chosen),
                   expected=tuple(prepared.expected[i] for i in chosen))
    return only.judge(Submission.from_text(source, "s.py"))


def test_simsiam_without_stop_gradient_collapses_in_the_sandbox(judge) -> None:
    """The issue's gate: trained in the child with the submission, scored in the judge."""
    path = REPO / "submissions" / "simsiam_loss" / "wrong_answer" / "no_stop_gradient.py"
    report = _experiment_report(judge, "simsiam_loss", path.read_text())
    [result] = report.tests
    assert result.verdict.value == "wrong_answer"
    assert "the representation collapsed: the per-channel std" in result.message and "fell from" in result.message
    accepted = REPO / "submissions" / "simsiam_loss" / "accepted" / "normalize_detach.py"
    assert _experiment_report(judge, "simsiam_loss", accepted.read_text()).accepted


def test_a_loss_that_cannot_train_is_a_runtime_error_with_the_reason(judge) -> None:
    source = "def nt_xent(z1, z2, temperature):\n    return float((z1 - z2).pow(2).mean())\n"
    [result] = _experiment_report(judge, "nt_xent", source).tests
    assert result.verdict.value == "runtime_error"
    assert "the loss is a float, not a torch.Tensor" in result.message
