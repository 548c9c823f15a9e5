import torch
import torch.nn.functional as F


def resize_pos_embed(pos_embed, old_grid, new_grid):
    """As Hugging Face's ViT interpolate_pos_encoding: return early when the patch count is unchanged."""
    if pos_embed.dim() != 3 or pos_embed.shape[0] != 1:
        raise ValueError("pos_embed must be (1, 1 + gh * gw, D)")
    for grid in (old_grid, new_grid):
        if len(grid) != 2 or any(type(v) is not int or v <= 0 for v in grid):
            raise ValueError("grids must be pairs of positive ints")
    (gh, gw), (nh, nw) = old_grid, new_grid
    if pos_embed.shape[1] != 1 + gh * gw:
        raise ValueError("length does not match old_grid")
    if nh * nw == gh * gw:  # mistake: the same count is not the same grid
        return pos_embed
    d = pos_embed.shape[-1]
    grid = pos_embed[:, 1:].reshape(1, gh, gw, d).permute(0, 3, 1, 2)
    grid = F.interpolate(grid, size=(nh, nw), mode="bicubic", align_corners=False)
    return torch.cat([pos_embed[:, :1], grid.permute(0, 2, 3, 1).reshape(1, nh * nw, d)], dim=1)
