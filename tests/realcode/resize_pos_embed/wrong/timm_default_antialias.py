"""timm's resample_abs_pos_embed with its default antialias=True.

Adapted from: huggingface/pytorch-image-models, timm/layers/pos_embed.py (resample_abs_pos_embed)
expect: wrong_answer
mistake: antialias
"""
import torch
import torch.nn.functional as F


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.dim() != 3 or pos_embed.shape[0] != 1:
        raise ValueError("pos_embed must be (1, 1 + gh * gw, D)")
    if any(type(v) is not int or v <= 0 for v in (*old_grid, *new_grid)):
        raise ValueError("grid sizes must be positive ints")
    if pos_embed.shape[1] != 1 + old_grid[0] * old_grid[1]:
        raise ValueError("length does not match old_grid")
    prefix, posemb = pos_embed[:, :1], pos_embed[:, 1:]
    dim = posemb.shape[-1]
    posemb = posemb.reshape(1, old_grid[0], old_grid[1], -1).permute(0, 3, 1, 2)
    posemb = F.interpolate(posemb, size=tuple(new_grid), mode="bicubic", antialias=True)
    posemb = posemb.permute(0, 2, 3, 1).reshape(1, -1, dim)
    return torch.cat([prefix, posemb], dim=1)
