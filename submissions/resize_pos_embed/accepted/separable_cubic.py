import math

import torch

A = -0.75  # PyTorch's cubic convolution coefficient (Keys' kernel)


def _cubic(x):
    x = abs(x)
    if x <= 1:
        return ((A + 2) * x - (A + 3)) * x * x + 1
    if x < 2:
        return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A
    return 0.0


def _weights(size_in, size_out, dtype):
    """(size_out, size_in) matrix of one bicubic resize along an axis, borders clamped as PyTorch does."""
    matrix = torch.zeros(size_out, size_in, dtype=torch.float64)
    scale = size_in / size_out
    for o in range(size_out):
        x = (o + 0.5) * scale - 0.5  # pixel centres (align_corners=False)
        left = math.floor(x)
        t = x - left
        for k in range(-1, 3):
            index = min(max(left + k, 0), size_in - 1)
            matrix[o, index] += _cubic(k - t)
    return matrix.to(dtype)


def _positive_pair(grid):
    if not isinstance(grid, (list, tuple)) or len(grid) != 2 or any(type(v) is not int or v < 1 for v in grid):
        raise ValueError(f"expected two positive ints, got {grid!r}")
    return grid


def resize_pos_embed(pos_embed, old_grid, new_grid):
    """Bicubic resize written out: one weight matrix per axis, applied with einsum (rows, then columns)."""
    if not torch.is_tensor(pos_embed) or pos_embed.dim() != 3 or pos_embed.size(0) != 1:
        raise ValueError("pos_embed must be (1, L, D)")
    gh, gw = _positive_pair(old_grid)
    nh, nw = _positive_pair(new_grid)
    if pos_embed.size(1) != 1 + gh * gw:
        raise ValueError("expected 1 + gh * gw rows")
    d = pos_embed.size(2)
    grid = pos_embed[0, 1:].reshape(gh, gw, d)
    rows = _weights(gh, nh, pos_embed.dtype)
    cols = _weights(gw, nw, pos_embed.dtype)
    resized = torch.einsum("ph,hwd,qw->pqd", rows, grid, cols)
    return torch.cat([pos_embed[:, :1], resized.reshape(1, nh * nw, d)], dim=1)
