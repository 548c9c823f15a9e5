"""torchvision's interpolate_embeddings: bicubic with align_corners=True.

Adapted from: pytorch/vision, torchvision/models/vision_transformer.py (interpolate_embeddings)
expect: wrong_answer
mistake: align_corners
"""
import torch
import torch.nn as nn


def resize_pos_embed(pos_embed, old_grid, new_grid):
    if pos_embed.dim() != 3 or pos_embed.shape[0] != 1:
        raise ValueError(f"Unexpected position embedding shape: {pos_embed.shape}")
    if any(type(v) is not int or v <= 0 for v in (*old_grid, *new_grid)):
        raise ValueError("grid sizes must be positive ints")
    (gh, gw), (nh, nw) = old_grid, new_grid
    n, seq_length, hidden_dim = pos_embed.shape
    if seq_length != 1 + gh * gw:
        raise ValueError("sequence length does not match the grid")
    pos_embedding_token = pos_embed[:, :1, :]
    pos_embedding_img = pos_embed[:, 1:, :]
    pos_embedding_img = pos_embedding_img.permute(0, 2, 1).reshape(1, hidden_dim, gh, gw)
    new_pos_embedding_img = nn.functional.interpolate(pos_embedding_img, size=(nh, nw), mode="bicubic",
                                                      align_corners=True)
    new_pos_embedding_img = new_pos_embedding_img.reshape(1, hidden_dim, nh * nw).permute(0, 2, 1)
    return torch.cat([pos_embedding_token, new_pos_embedding_img], dim=1)
