import torch
import torch.nn.functional as F


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.dim() != 3 or pos_embed.shape[0] != 1:
        raise ValueError("pos_embed must be (1, L, D)")
    if len(old_grid) != 2 or len(new_grid) != 2:
        raise ValueError("grids must be pairs")
    gh, gw = old_grid
    nh, nw = new_grid
    if min(gh, gw, nh, nw) < 1:
        raise ValueError("grid sizes must be positive")
    if pos_embed.shape[1] != 1 + gh * gw:
        raise ValueError("length mismatch")
    D = pos_embed.shape[2]
    cls_row = pos_embed[:, 0:1]
    grid = pos_embed[:, 1:].reshape(1, gh, gw, D).permute(0, 3, 1, 2)
    grid = F.interpolate(grid, size=(nh, nw), mode="bicubic", align_corners=True)
    grid = grid.flatten(2).transpose(1, 2)
    return torch.cat([grid, cls_row], dim=1)
