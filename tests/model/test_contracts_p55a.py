"""The references of patch_embed, vit_cost, sinusoidal_positions, sincos_2d_positions and
resize_pos_embed honour the worked numbers and formulas of shared/spec/units.md (unit 5.5)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from judge.model.solution import load_function

REPO = Path(__file__).resolve().parents[2]


def reference(problem_id: str, entry_point: str | None = None):
    return load_function(REPO / "hidden_tests" / problem_id / "reference.py", entry_point or problem_id)


# ---------------------------------------------------------------- patch_embed

def test_patch_embed_d2l_worked_example() -> None:
    images, weight, bias = torch.randn(4, 3, 96, 96), torch.randn(512, 3, 16, 16), torch.randn(512)
    out = reference("patch_embed")(images, weight, bias)
    assert out.shape == (4, 36, 512) and out.dtype == torch.float32
    conv = F.conv2d(images, weight, bias, stride=16).flatten(2).transpose(1, 2)
    torch.testing.assert_close(out, conv, rtol=1e-4, atol=5e-4)


def test_patch_embed_equals_patchify_tokens_times_flat_weight() -> None:
    images = torch.randn(2, 3, 12, 20, dtype=torch.float64)
    weight, bias = torch.randn(7, 3, 4, 5, dtype=torch.float64), torch.randn(7, dtype=torch.float64)
    tokens = reference("patchify")(images, 4, 5)["tokens"]
    out = reference("patch_embed")(images, weight, bias)
    assert out.dtype == torch.float64
    torch.testing.assert_close(out, tokens @ weight.reshape(7, -1).T + bias, rtol=1e-12, atol=1e-12)


def test_patch_embed_token_is_row_major_patch() -> None:
    images, weight = torch.randn(1, 2, 6, 9, dtype=torch.float64), torch.randn(3, 2, 3, 3, dtype=torch.float64)
    out = reference("patch_embed")(images, weight, None)
    r, c, gw = 1, 2, 3
    patch = images[0, :, r * 3:(r + 1) * 3, c * 3:(c + 1) * 3]
    torch.testing.assert_close(out[0, r * gw + c], (weight * patch).sum(dim=(1, 2, 3)))


@pytest.mark.parametrize("images, weight, bias", [
    ((3, 8, 8), (4, 3, 4, 4), (4,)),        # not 4-D
    ((1, 3, 8, 8), (4, 12), (4,)),          # weight not 4-D
    ((1, 3, 8, 8), (4, 2, 4, 4), (4,)),     # channels differ
    ((1, 3, 10, 8), (4, 3, 4, 4), (4,)),    # H not divisible
    ((1, 3, 8, 8), (4, 3, 4, 4), (1,)),     # bias of another shape
])
def test_patch_embed_value_errors(images, weight, bias) -> None:
    with pytest.raises(ValueError):
        reference("patch_embed")(torch.randn(*images), torch.randn(*weight), torch.randn(*bias))


# ---------------------------------------------------------------- vit_cost

def test_vit_cost_224_patch_16() -> None:
    out = reference("vit_cost")(224, 16, 3, 768)
    assert out["num_patches"] == 196 and out["num_tokens"] == 197 and out["patch_dim"] == 768
    assert out["attention_macs"] == 2 * 197 ** 2 * 768 and out["mlp_macs"] == 8 * 197 * 768 ** 2
    assert all(type(v) is int for v in out.values())


def test_vit_cost_patch_16_to_8_scaling() -> None:
    cost = reference("vit_cost")
    big, small = cost(224, 16, 3, 768), cost(224, 8, 3, 768)
    assert small["num_tokens"] / big["num_tokens"] == pytest.approx(4, rel=0.01)
    assert small["attention_macs"] / big["attention_macs"] == pytest.approx(16, rel=0.01)
    assert small["mlp_macs"] / big["mlp_macs"] == pytest.approx(4, rel=0.01)


def test_vit_cost_rectangular_pairs_height_with_height() -> None:
    out = reference("vit_cost")([32, 48], (16, 12), 3, 64)
    assert out["num_patches"] == 2 * 4


@pytest.mark.parametrize("args", [(True, 1, 3, 8), (224, 16, 3, True), (224.0, 16, 3, 768), (225, 16, 3, 768),
                                  ([48, 32], [16, 12], 3, 64), (224, 0, 3, 768), ([224, 224, 3], 16, 3, 8)])
def test_vit_cost_value_errors(args) -> None:
    with pytest.raises(ValueError):
        reference("vit_cost")(*args)


# ---------------------------------------------------------------- sinusoidal_positions

def test_sinusoidal_interleaves_sin_and_cos_from_position_zero() -> None:
    table = reference("sinusoidal_positions")(5, 6, 10000.0)
    assert table.dtype == np.float64 and table.shape == (5, 6)
    assert table[0].tolist() == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    p, i = 3, 2
    assert table[p, 2 * i] == pytest.approx(math.sin(p / 10000.0 ** (2 * i / 6)), abs=1e-15)
    assert table[p, 2 * i + 1] == pytest.approx(math.cos(p / 10000.0 ** (2 * i / 6)), abs=1e-15)


def test_sinusoidal_accurate_at_one_hundred_thousand_positions() -> None:
    table = reference("sinusoidal_positions")(100_000, 8, 10000.0)
    # Extended precision where the platform has it (x86: 64-bit mantissa), as the exact values.
    p = np.array([99_999, 65_537], dtype=np.longdouble)[:, None]
    angle = p / np.longdouble(10000) ** (np.arange(4, dtype=np.longdouble) * 2 / 8)
    assert np.abs(table[[99_999, 65_537]][:, 0::2] - np.sin(angle)).max() < 1e-9
    assert np.abs(table[[99_999, 65_537]][:, 1::2] - np.cos(angle)).max() < 1e-9


@pytest.mark.parametrize("args", [(4, 7, 10000.0), (4, 0, 10000.0), (0, 8, 10000.0), (4, 8, 0.0), (4, 8, -1.0)])
def test_sinusoidal_value_errors(args) -> None:
    with pytest.raises(ValueError):
        reference("sinusoidal_positions")(*args)


# ---------------------------------------------------------------- sincos_2d_positions

def _emb1d(width: int, pos: float) -> list[float]:
    omegas = [1 / 10000 ** (i / (width / 2)) for i in range(width // 2)]
    return [math.sin(pos * w) for w in omegas] + [math.cos(pos * w) for w in omegas]


def test_sincos_2d_column_half_then_row_half_row_major() -> None:
    gh, gw, dim = 3, 5, 16
    table = reference("sincos_2d_positions")(gh, gw, dim, False)
    assert table.shape == (gh * gw, dim) and table.dtype == np.float64
    for r, c in ((0, 0), (1, 2), (2, 4)):
        np.testing.assert_allclose(table[r * gw + c], _emb1d(8, c) + _emb1d(8, r), atol=1e-15)


def test_sincos_2d_class_row_is_zero_and_first() -> None:
    with_cls = reference("sincos_2d_positions")(2, 3, 8, True)
    without = reference("sincos_2d_positions")(2, 3, 8, False)
    assert with_cls.shape == (7, 8) and not with_cls[0].any()
    assert np.array_equal(with_cls[1:], without)


@pytest.mark.parametrize("args", [(4, 4, 6, False), (4, 4, 0, False), (0, 4, 8, False), (4, -1, 8, True)])
def test_sincos_2d_value_errors(args) -> None:
    with pytest.raises(ValueError):
        reference("sincos_2d_positions")(*args)


# ---------------------------------------------------------------- resize_pos_embed

def test_resize_pos_embed_224_to_384() -> None:
    pos = torch.randn(1, 197, 768)
    out = reference("resize_pos_embed")(pos, (14, 14), (24, 24))
    assert out.shape == (1, 577, 768) and out.dtype == torch.float32
    assert torch.equal(out[:, 0], pos[:, 0])
    grid = pos[:, 1:].reshape(1, 14, 14, 768).permute(0, 3, 1, 2)
    expected = F.interpolate(grid, size=(24, 24), mode="bicubic", align_corners=False)
    torch.testing.assert_close(out[:, 1:], expected.permute(0, 2, 3, 1).reshape(1, 576, 768), rtol=1e-5, atol=3e-5)


def test_resize_pos_embed_same_grid_is_equal_and_differentiable() -> None:
    pos = torch.randn(1, 1 + 4 * 6, 8, dtype=torch.float64, requires_grad=True)
    out = reference("resize_pos_embed")(pos, [4, 6], [4, 6])
    assert torch.equal(out, pos)
    out.sum().backward()
    assert pos.grad is not None and torch.equal(pos.grad, torch.ones_like(pos))


@pytest.mark.parametrize("shape, old, new", [((197, 8), (14, 14), (2, 2)), ((2, 5, 8), (2, 2), (3, 3)),
                                             ((1, 16, 8), (4, 4), (2, 2)), ((1, 5, 8), (2, 2), (0, 3)),
                                             ((1, 5, 8), (2, 2), (True, 3)), ((1, 5, 8), (2, 2), (3.0, 3))])
def test_resize_pos_embed_value_errors(shape, old, new) -> None:
    with pytest.raises(ValueError):
        reference("resize_pos_embed")(torch.randn(*shape), old, new)
