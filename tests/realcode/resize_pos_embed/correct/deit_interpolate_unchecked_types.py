"""DeiT's fine-tuning resize of the position table: class row kept, the grid resized bicubically; the grid sizes used as given.

Adapted from: facebookresearch/deit, main.py (interpolating the checkpoint's pos_embed: extra_tokens = pos_embed_checkpoint[:, :num_extra_tokens], pos_tokens reshaped to (-1, orig_size, orig_size, embedding_size).permute(0, 3, 1, 2), torch.nn.functional.interpolate(..., mode='bicubic', align_corners=False), flattened back and concatenated), for rectangular grids given by the caller; it checks the ranks and lengths the contract names and no argument's type
expect: accepted
"""
import torch


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.dim() != 3 or pos_embed.shape[0] != 1:
        raise ValueError("pos_embed must be (1, 1 + gh * gw, D)")
    if len(old_grid) != 2 or len(new_grid) != 2:
        raise ValueError("a grid is (height, width)")
    (orig_h, orig_w), (new_h, new_w) = old_grid, new_grid
    if min(orig_h, orig_w, new_h, new_w) < 1:
        raise ValueError("grid sizes must be at least 1")
    embedding_size = pos_embed.shape[-1]
    num_extra_tokens = 1
    if pos_embed.shape[1] != num_extra_tokens + orig_h * orig_w:
        raise ValueError("pos_embed does not match old_grid")
    extra_tokens = pos_embed[:, :num_extra_tokens]
    pos_tokens = pos_embed[:, num_extra_tokens:]
    pos_tokens = pos_tokens.reshape(-1, orig_h, orig_w, embedding_size).permute(0, 3, 1, 2)
    pos_tokens = torch.nn.functional.interpolate(pos_tokens.double(), size=(new_h, new_w), mode="bicubic",
                                                 align_corners=False)
    pos_tokens = pos_tokens.permute(0, 2, 3, 1).flatten(1, 2).to(pos_embed.dtype)
    return torch.cat((extra_tokens, pos_tokens), dim=1)
