"""diffusers' get_2d_sincos_pos_embed with base_size=16: positions scaled to a 16 x 16 base grid.

Adapted from: huggingface/diffusers, src/diffusers/models/embeddings.py (get_2d_sincos_pos_embed, base_size=16, interpolation_scale=1.0)
expect: wrong_answer
mistake: rescaled_to_base_grid
"""
import numpy as np


def _check(grid_height, grid_width, dim):
    if not isinstance(dim, int) or dim <= 0 or dim % 4:
        raise ValueError("dim must be a positive multiple of 4")
    if not (isinstance(grid_height, int) and isinstance(grid_width, int)) or grid_height < 1 or grid_width < 1:
        raise ValueError("grid sizes must be positive ints")


def get_1d_sincos_pos_embed_from_grid(embed_dim, pos):
    omega = np.arange(embed_dim // 2, dtype=np.float64)
    omega /= embed_dim / 2.0
    omega = 1.0 / 10000 ** omega
    out = np.einsum("m,d->md", pos.reshape(-1), omega)
    return np.concatenate([np.sin(out), np.cos(out)], axis=1)


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False, base_size=16, interpolation_scale=1.0):
    _check(grid_height, grid_width, dim)
    grid_h = np.arange(grid_height, dtype=np.float64) / (grid_height / base_size) / interpolation_scale
    grid_w = np.arange(grid_width, dtype=np.float64) / (grid_width / base_size) / interpolation_scale
    grid = np.meshgrid(grid_w, grid_h)
    emb_h = get_1d_sincos_pos_embed_from_grid(dim // 2, grid[0])
    emb_w = get_1d_sincos_pos_embed_from_grid(dim // 2, grid[1])
    emb = np.concatenate([emb_h, emb_w], axis=1)
    if cls_token:
        emb = np.concatenate([np.zeros([1, dim]), emb], axis=0)
    return emb
