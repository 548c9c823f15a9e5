import torch
import torch.nn.functional as F


def _pair(grid, name):
    if not isinstance(grid, (tuple, list)) or len(grid) != 2:
        raise ValueError(f"{name} must be (height, width)")
    for v in grid:
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError(f"{name} must hold positive ints")
    return tuple(grid)


def resize_pos_embed(pos_embed, old_grid, new_grid):
    """As timm's resample_abs_pos_embed: prefix token aside, grid to NCHW, bicubic, back to NLC."""
    if pos_embed.ndim != 3 or pos_embed.shape[0] != 1:
        raise ValueError("pos_embed must be (1, 1 + gh * gw, D)")
    gh, gw = _pair(old_grid, "old_grid")
    nh, nw = _pair(new_grid, "new_grid")
    if pos_embed.shape[1] != 1 + gh * gw:
        raise ValueError("pos_embed length does not match old_grid")
    prefix, posemb = pos_embed[:, :1], pos_embed[:, 1:]
    dim = posemb.shape[-1]
    posemb = posemb.reshape(1, gh, gw, dim).permute(0, 3, 1, 2)
    posemb = F.interpolate(posemb, size=(nh, nw), mode="bicubic", align_corners=False, antialias=False)
    posemb = posemb.permute(0, 2, 3, 1).reshape(1, -1, dim)
    return torch.cat([prefix, posemb], dim=1)
