"""MAE's interpolate_pos_embed (extra tokens kept, grid resized bicubic), for rectangular grids.

Adapted from: facebookresearch/mae, util/pos_embed.py (interpolate_pos_embed)
expect: accepted
"""
import torch


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.ndim != 3 or pos_embed.shape[0] != 1:
        raise ValueError("pos_embed must be 3-D with batch 1")
    if any(type(v) is not int or v <= 0 for v in (*old_grid, *new_grid)) or len(old_grid) != 2 or len(new_grid) != 2:
        raise ValueError("grid sizes must be positive ints")
    (orig_h, orig_w), (new_h, new_w) = old_grid, new_grid
    num_extra_tokens = pos_embed.shape[1] - orig_h * orig_w
    if num_extra_tokens != 1:
        raise ValueError("expected exactly one class row before the grid")
    embedding_size = pos_embed.shape[-1]
    extra_tokens = pos_embed[:, :num_extra_tokens]
    pos_tokens = pos_embed[:, num_extra_tokens:]
    pos_tokens = pos_tokens.reshape(-1, orig_h, orig_w, embedding_size).permute(0, 3, 1, 2)
    pos_tokens = torch.nn.functional.interpolate(pos_tokens, size=(new_h, new_w), mode="bicubic",
                                                 align_corners=False)
    pos_tokens = pos_tokens.permute(0, 2, 3, 1).flatten(1, 2)
    return torch.cat((extra_tokens, pos_tokens), dim=1)
