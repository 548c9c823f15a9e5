"""Hugging Face ViT's interpolate_pos_encoding, for a grid given by the caller: class row apart, the patch rows as an image, bicubic to the new size.

Adapted from: huggingface/transformers, src/transformers/models/vit/modeling_vit.py (ViTEmbeddings.interpolate_pos_encoding: class_pos_embed = position_embeddings[:, :1], patch_pos_embed reshaped to (1, h, w, dim).permute(0, 3, 1, 2), nn.functional.interpolate(size=(new_height, new_width), mode="bicubic", align_corners=False), permuted back and viewed as (1, -1, dim)); sizes go through torch_int-like int() calls as the original's do, so no type is checked
expect: accepted
"""
import torch
from torch import nn


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.ndim != 3:
        raise ValueError(f"expected a 3-D position table, got {pos_embed.ndim}-D")
    if pos_embed.shape[0] != 1:
        raise ValueError("the position table has a batch axis of 1")
    if len(old_grid) != 2 or len(new_grid) != 2:
        raise ValueError("old_grid and new_grid are (height, width) pairs")
    h, w = (int(v) for v in old_grid)
    new_height, new_width = (int(v) for v in new_grid)
    if min(h, w, new_height, new_width) <= 0:
        raise ValueError("grid sizes must be positive")
    num_positions = pos_embed.shape[1] - 1
    if num_positions != h * w:
        raise ValueError(f"{num_positions} patch positions do not fill a {h}x{w} grid")
    class_pos_embed = pos_embed[:, :1]
    patch_pos_embed = pos_embed[:, 1:]
    dim = pos_embed.shape[-1]
    patch_pos_embed = patch_pos_embed.reshape(1, h, w, dim).permute(0, 3, 1, 2)
    patch_pos_embed = nn.functional.interpolate(patch_pos_embed.to(torch.float64), size=(new_height, new_width),
                                                mode="bicubic", align_corners=False)
    patch_pos_embed = patch_pos_embed.to(pos_embed.dtype).permute(0, 2, 3, 1).reshape(1, -1, dim)
    return torch.cat((class_pos_embed, patch_pos_embed), dim=1)
