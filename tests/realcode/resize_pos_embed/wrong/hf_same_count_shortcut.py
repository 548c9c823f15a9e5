"""Hugging Face ViT's interpolate_pos_encoding: returns the table unchanged when the patch count matches.

Adapted from: huggingface/transformers, src/transformers/models/vit/modeling_vit.py (ViTEmbeddings.interpolate_pos_encoding)
expect: wrong_answer
mistake: same_count_shortcut
"""
import torch
from torch import nn


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.dim() != 3 or pos_embed.shape[0] != 1:
        raise ValueError("pos_embed must be (1, 1 + gh * gw, D)")
    if any(type(v) is not int or v <= 0 for v in (*old_grid, *new_grid)):
        raise ValueError("grid sizes must be positive ints")
    num_positions = pos_embed.shape[1] - 1
    if num_positions != old_grid[0] * old_grid[1]:
        raise ValueError("length does not match old_grid")
    num_patches = new_grid[0] * new_grid[1]
    if num_patches == num_positions:
        return pos_embed
    class_pos_embed = pos_embed[:, :1]
    patch_pos_embed = pos_embed[:, 1:]
    dim = pos_embed.shape[-1]
    patch_pos_embed = patch_pos_embed.reshape(1, old_grid[0], old_grid[1], dim).permute(0, 3, 1, 2)
    patch_pos_embed = nn.functional.interpolate(patch_pos_embed, size=tuple(new_grid), mode="bicubic",
                                                align_corners=False)
    patch_pos_embed = patch_pos_embed.permute(0, 2, 3, 1).view(1, -1, dim)
    return torch.cat((class_pos_embed, patch_pos_embed), dim=1)
