"""timm's resample_abs_pos_embed with one prefix token, called with antialias=False.

Adapted from: huggingface/pytorch-image-models, timm/layers/pos_embed.py (resample_abs_pos_embed)
expect: accepted
"""
import torch
import torch.nn.functional as F


def resample_abs_pos_embed(posemb, new_size, old_size, num_prefix_tokens=1, interpolation="bicubic",
                           antialias=False):
    if num_prefix_tokens:
        posemb_prefix, posemb = posemb[:, :num_prefix_tokens], posemb[:, num_prefix_tokens:]
    else:
        posemb_prefix, posemb = None, posemb
    embed_dim = posemb.shape[-1]
    orig_dtype = posemb.dtype
    posemb = posemb.reshape(1, old_size[0], old_size[1], -1).permute(0, 3, 1, 2)
    posemb = F.interpolate(posemb, size=new_size, mode=interpolation, antialias=antialias, align_corners=False)
    posemb = posemb.permute(0, 2, 3, 1).reshape(1, -1, embed_dim).to(orig_dtype)
    if posemb_prefix is not None:
        posemb = torch.cat([posemb_prefix, posemb], dim=1)
    return posemb


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if not isinstance(pos_embed, torch.Tensor) or pos_embed.dim() != 3 or pos_embed.shape[0] != 1:
        raise ValueError("pos_embed must be (1, 1 + gh * gw, D)")
    for grid in (old_grid, new_grid):
        if len(grid) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in grid):
            raise ValueError("a grid is (height, width) of positive ints")
    if pos_embed.shape[1] != 1 + old_grid[0] * old_grid[1]:
        raise ValueError("pos_embed does not hold 1 + gh * gw rows")
    return resample_abs_pos_embed(pos_embed, tuple(new_grid), tuple(old_grid), antialias=False)
