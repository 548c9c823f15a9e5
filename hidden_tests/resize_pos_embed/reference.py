"""Trusted reference for `resize_pos_embed`: class row kept, grid resized bicubically in float64."""
import torch
import torch.nn.functional as F


def _grid(value, name):
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ValueError(f"{name} must be a pair (height, width)")
    if not all(type(v) is int and v > 0 for v in value):  # type(...) is int: a bool is not a size
        raise ValueError(f"{name} must hold two positive ints, got {value!r}")
    return value[0], value[1]


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if not isinstance(pos_embed, torch.Tensor) or pos_embed.dim() != 3 or pos_embed.shape[0] != 1:
        raise ValueError("pos_embed must have shape (1, 1 + gh * gw, D)")
    gh, gw = _grid(old_grid, "old_grid")
    nh, nw = _grid(new_grid, "new_grid")
    length, dim = pos_embed.shape[1], pos_embed.shape[2]
    if length != 1 + gh * gw:
        raise ValueError(f"pos_embed has {length} rows; a {gh}x{gw} grid needs {1 + gh * gw}")
    cls, grid = pos_embed[:, :1], pos_embed[:, 1:].double()
    grid = grid.reshape(1, gh, gw, dim).permute(0, 3, 1, 2)
    grid = F.interpolate(grid, size=(nh, nw), mode="bicubic", align_corners=False)
    grid = grid.permute(0, 2, 3, 1).reshape(1, nh * nw, dim).to(pos_embed.dtype)
    return torch.cat([cls, grid], dim=1)
