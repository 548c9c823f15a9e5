"""Hugging Face ViT's interpolate_pos_encoding with the batch axis checked but not the rank: a 2-D table of one row per cell reaches `.shape[2]`.

Adapted from: huggingface/transformers, src/transformers/models/vit/modeling_vit.py (ViTEmbeddings.interpolate_pos_encoding), with a batch-size check and no rank check: a (1, 1 + gh * gw) table raises IndexError where the statement names ValueError
expect: wrong_answer
mistake: check:rejects_two_dimensional_table_of_one_row_per_cell
"""
import torch
from torch import nn


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.shape[0] != 1:
        raise ValueError("the position table has a batch axis of 1")
    if len(old_grid) != 2 or len(new_grid) != 2 or min(*old_grid, *new_grid) < 1:
        raise ValueError("old_grid and new_grid are pairs of positive sizes")
    (h, w), (new_height, new_width) = old_grid, new_grid
    num_positions, dim = pos_embed.shape[1] - 1, pos_embed.shape[2]
    if num_positions != h * w:
        raise ValueError(f"{num_positions} patch positions do not fill a {h}x{w} grid")
    patch_pos_embed = pos_embed[:, 1:].reshape(1, h, w, dim).permute(0, 3, 1, 2)
    patch_pos_embed = nn.functional.interpolate(patch_pos_embed.to(torch.float64), size=(new_height, new_width),
                                                mode="bicubic", align_corners=False)
    patch_pos_embed = patch_pos_embed.to(pos_embed.dtype).permute(0, 2, 3, 1).reshape(1, -1, dim)
    return torch.cat((pos_embed[:, :1], patch_pos_embed), dim=1)
