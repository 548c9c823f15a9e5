import torch
import torch.nn.functional as F


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.dim() != 3 or pos_embed.shape[0] != 1:
        raise ValueError("pos_embed must be (1, 1 + gh*gw, D)")
    if len(old_grid) != 2 or len(new_grid) != 2:
        raise ValueError("grids are (h, w) pairs")
    gh, gw = old_grid
    nh, nw = new_grid
    if min(gh, gw, nh, nw) < 1:
        raise ValueError("grid sizes must be >= 1")
    if pos_embed.shape[1] != 1 + gh * gw:
        raise ValueError("length does not match the old grid")
    D = pos_embed.shape[2]
    cls_pos, grid_pos = pos_embed[:, :1], pos_embed[:, 1:]
    grid_pos = grid_pos.reshape(1, D, gh, gw)
    grid_pos = F.interpolate(grid_pos, size=(nh, nw), mode="bicubic", align_corners=False)
    grid_pos = grid_pos.reshape(1, D, nh * nw).transpose(1, 2)
    return torch.cat([cls_pos, grid_pos], dim=1)
