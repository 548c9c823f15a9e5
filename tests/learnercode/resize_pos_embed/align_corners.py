import torch
import torch.nn.functional as F


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.dim() != 3 or pos_embed.size(0) != 1:
        raise ValueError("pos_embed must be (1, N, D)")
    if len(old_grid) != 2 or len(new_grid) != 2:
        raise ValueError("grids must be pairs")
    gh, gw = old_grid
    nh, nw = new_grid
    if gh <= 0 or gw <= 0 or nh <= 0 or nw <= 0:
        raise ValueError("grid sizes must be positive")
    if pos_embed.size(1) != 1 + gh * gw:
        raise ValueError("pos_embed length does not match old_grid")
    dim = pos_embed.size(-1)
    posemb_tok, posemb_grid = pos_embed[:, :1], pos_embed[0, 1:]
    posemb_grid = posemb_grid.reshape(1, gh, gw, dim).permute(0, 3, 1, 2)
    posemb_grid = F.interpolate(posemb_grid, size=(nh, nw), mode="bicubic", align_corners=True)
    posemb_grid = posemb_grid.permute(0, 2, 3, 1).reshape(1, nh * nw, dim)
    return torch.cat([posemb_tok, posemb_grid], dim=1)
