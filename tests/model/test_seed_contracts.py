"""The references of pos_embed, clip_loss and info_nce honour the worked numbers of
shared/spec/problems.md (the YAML never types expected values, so they are pinned here)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import torch

from judge.model.solution import load_function

REPO = Path(__file__).resolve().parents[2]


def reference(problem_id: str, entry_point: str):
    return load_function(REPO / "hidden_tests" / problem_id / "reference.py", entry_point)


def test_info_nce_worked_example() -> None:
    loss = reference("info_nce", "contrastive_loss")(np.array([[1.0, 0], [1, 0], [0, 1], [0, 1]]), 1.0)
    assert isinstance(loss, float) and round(loss, 4) == 0.5514


@pytest.mark.parametrize("rows", [1, 3, 0])
def test_info_nce_rejects_rows_without_positive(rows: int) -> None:
    with pytest.raises(ValueError):
        reference("info_nce", "contrastive_loss")(np.ones((rows, 2)), 1.0)


def test_clip_single_pair_and_collapsed_batch() -> None:
    clip = reference("clip_loss", "symmetric_clip_loss")
    one = clip(torch.randn(1, 4), torch.randn(1, 4), 0.07)
    assert float(one["loss"]) == pytest.approx(0.0, abs=1e-6)
    collapsed = clip(torch.ones(5, 3), torch.ones(5, 3) * 2, 0.07)
    assert float(collapsed["loss"]) == pytest.approx(math.log(5), rel=1e-6)
    assert collapsed["image_to_text_accuracy"] == pytest.approx(0.2)  # ties pick index 0


def test_clip_stable_at_tiny_temperature_in_float32() -> None:
    image = torch.randn(8, 16)
    out = reference("clip_loss", "symmetric_clip_loss")(image, image + 0.01 * torch.randn(8, 16), 1e-4)
    assert out["loss"].dtype == torch.float32 and torch.isfinite(out["loss"])


def test_pos_embed_class_token_gets_position_zero() -> None:
    tokens, cls, pos = torch.zeros(2, 3, 4), torch.full((1, 1, 4), 7.0), torch.arange(16.0).reshape(1, 4, 4)
    out = reference("pos_embed", "add_cls_and_pos_embed")(tokens, cls, pos)
    assert out.shape == (2, 4, 4)
    assert torch.equal(out[:, 0], (cls[0, 0] + pos[0, 0]).expand(2, 4))
    assert torch.equal(out[:, 1:], pos[:, 1:].expand(2, 3, 4))
