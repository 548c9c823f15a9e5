import torch
import torch.nn.functional as F


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.dim() != 3 or pos_embed.shape[0] != 1:
        raise ValueError("bad pos_embed")
    if len(old_grid) != 2 or len(new_grid) != 2:
        raise ValueError("grids must be pairs")
    gh, gw = old_grid
    nh, nw = new_grid
    if min(gh, gw, nh, nw) <= 0:
        raise ValueError("bad grid")
    if pos_embed.shape[1] != 1 + gh * gw:
        raise ValueError("bad length")
    D = pos_embed.shape[-1]
    grid = pos_embed[:, 1:].reshape(1, gw, gh, D).permute(0, 3, 1, 2)   # (1, D, w, h)
    grid = F.interpolate(grid, size=(nw, nh), mode="bilinear", align_corners=False)
    grid = grid.permute(0, 2, 3, 1).reshape(1, -1, D)
    return torch.cat([pos_embed[:, :1], grid], dim=1)
