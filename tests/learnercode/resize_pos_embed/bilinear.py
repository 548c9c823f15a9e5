import torch
import torch.nn.functional as F


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.ndim != 3 or pos_embed.shape[0] != 1:
        raise ValueError("expected (1, L, D)")
    if len(old_grid) != 2 or len(new_grid) != 2:
        raise ValueError("grid must have two sizes")
    (gh, gw), (nh, nw) = old_grid, new_grid
    if gh < 1 or gw < 1 or nh < 1 or nw < 1:
        raise ValueError("sizes must be positive")
    if pos_embed.shape[1] != gh * gw + 1:
        raise ValueError("wrong number of positions")
    cls, grid = pos_embed[:, :1], pos_embed[:, 1:]
    D = grid.shape[-1]
    grid = grid.reshape(1, gh, gw, D).permute(0, 3, 1, 2)
    grid = F.interpolate(grid, size=(nh, nw), mode="bilinear", align_corners=False)
    grid = grid.permute(0, 2, 3, 1).reshape(1, nh * nw, D)
    return torch.cat([cls, grid], dim=1)
