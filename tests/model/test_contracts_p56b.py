"""The references of nt_xent and simsiam_loss honour shared/spec/units.md (unit 5.6) and the worked
numbers their statements show."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
import torch

from judge.model.solution import load_function

REPO = Path(__file__).resolve().parents[2]


def reference(problem_id: str, entry_point: str):
    return load_function(REPO / "hidden_tests" / problem_id / "reference.py", entry_point)


nt_xent = reference("nt_xent", "nt_xent")
simsiam_loss = reference("simsiam_loss", "simsiam_loss")


def test_nt_xent_worked_example_matches_info_nce_layout() -> None:
    """Two images [e1, e2] seen twice: the info_nce example's 0.5514 with SimCLR's (k, k + N) pairs."""
    eye = torch.eye(2)
    loss = nt_xent(eye, eye.clone(), 1.0)
    assert loss.dim() == 0 and loss.dtype == torch.float32
    assert float(loss) == pytest.approx(-1 + math.log(2 + math.e), abs=1e-6)
    info_nce = reference("info_nce", "contrastive_loss")
    assert float(loss) == pytest.approx(info_nce(torch.stack([eye[0], eye[0], eye[1], eye[1]]).numpy(), 1.0), abs=1e-6)


def test_nt_xent_single_image_is_zero_and_extreme_temperatures_are_finite() -> None:
    assert float(nt_xent(torch.tensor([[3.0, 4.0]]), torch.tensor([[-1.0, 0.5]]), 0.5)) == 0.0
    z1, z2 = torch.randn(8, 16), torch.randn(8, 16)
    for temperature in (1e-3, 1e3):
        assert torch.isfinite(nt_xent(z1, z2, temperature))
    assert float(nt_xent(z1, z2, 1e3)) == pytest.approx(math.log(15), abs=1e-3)  # all logits ~ 0


def test_nt_xent_positive_is_k_plus_n() -> None:
    """Views matched by index give a small loss; matched to (2i, 2i + 1) neighbours they do not."""
    z1 = torch.randn(6, 32, dtype=torch.float64)
    assert float(nt_xent(z1, z1 + 1e-3, 0.05)) < 1e-3
    assert float(nt_xent(z1, z1.roll(1, dims=0), 0.05)) > 10


@pytest.mark.parametrize("args", [(torch.ones(3, 2), torch.ones(4, 2), 0.5), (torch.ones(3), torch.ones(3), 0.5),
                                  (torch.ones(3, 2), torch.ones(3, 2), 0.0), (torch.ones(3, 2), torch.ones(3, 2), -1.0)])
def test_nt_xent_value_errors(args) -> None:
    with pytest.raises(ValueError):
        nt_xent(*args)


def test_simsiam_worked_example_and_minimum() -> None:
    t = lambda rows: torch.tensor(rows, dtype=torch.float32)  # noqa: E731
    loss = simsiam_loss(t([[1, 0], [0, 1]]), t([[0, 2], [1, 1]]), t([[0, 3], [1, 1]]), t([[1, 1], [0, 1]]))
    assert loss.dim() == 0 and float(loss) == pytest.approx(-(1 + (1 / math.sqrt(2) + 1) / 2) / 2, abs=1e-6)
    p = torch.randn(4, 3)
    assert float(simsiam_loss(p, p * 3, p * 2, p * 0.5)) == pytest.approx(-1.0, abs=1e-6)


def test_simsiam_gradients_reach_predictions_only() -> None:
    p1, p2, z1, z2 = (torch.randn(5, 4, requires_grad=True) for _ in range(4))
    simsiam_loss(p1, p2, z1, z2).backward()
    assert p1.grad is not None and p2.grad is not None
    assert z1.grad is None and z2.grad is None


@pytest.mark.parametrize("shapes", [[(4, 3)] * 3 + [(5, 3)], [(4, 3)] * 3 + [(4, 2)], [(3,)] * 4, [(2, 3, 4)] * 4])
def test_simsiam_value_errors(shapes) -> None:
    with pytest.raises(ValueError):
        simsiam_loss(*(torch.ones(s) for s in shapes))
