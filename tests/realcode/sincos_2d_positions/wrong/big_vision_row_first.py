"""big_vision's posemb_sincos_2d order: y (row) features before x, and sin | cos per quarter.

Adapted from: google-research/big_vision, big_vision/models/vit.py (posemb_sincos_2d: concat([sin(x), cos(x), sin(y), cos(y)]) with meshgrid indexing="ij")
expect: wrong_answer
mistake: row_half_first
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


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    _check(grid_height, grid_width, dim)
    y, x = np.mgrid[:grid_height, :grid_width]
    emb_y = get_1d_sincos_pos_embed_from_grid(dim // 2, y.astype(np.float64))
    emb_x = get_1d_sincos_pos_embed_from_grid(dim // 2, x.astype(np.float64))
    emb = np.concatenate([emb_y, emb_x], axis=1)
    return np.concatenate([np.zeros((1, dim)), emb]) if cls_token else emb
