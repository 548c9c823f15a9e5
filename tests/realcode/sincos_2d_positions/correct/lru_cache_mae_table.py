"""MAE's 2-D table, memoised with functools.lru_cache on (grid_height, grid_width, dim) as training scripts cache fixed tables; each call gets a copy.

Adapted from: facebookresearch/mae, util/pos_embed.py (get_2d_sincos_pos_embed_from_grid, get_1d_sincos_pos_embed_from_grid: omega = 1 / 10000 ** (arange(D / 2) / (D / 2)), out = einsum('m,d->md', pos, omega), concatenate sin then cos; emb_w first, then emb_h), for a rectangular grid; no type checks, as MAE has none
expect: accepted
"""
from functools import lru_cache

import numpy as np


def get_1d_sincos_pos_embed_from_grid(embed_dim, pos):
    omega = np.arange(embed_dim // 2, dtype=np.float64)
    omega /= embed_dim / 2.0
    omega = 1.0 / 10000 ** omega
    out = np.einsum("m,d->md", pos.reshape(-1).astype(np.float64), omega)
    return np.concatenate([np.sin(out), np.cos(out)], axis=1)


@lru_cache(maxsize=32)
def _grid_table(grid_height, grid_width, dim):
    grid_w, grid_h = np.meshgrid(np.arange(grid_width), np.arange(grid_height))
    emb_w = get_1d_sincos_pos_embed_from_grid(dim // 2, grid_w)
    emb_h = get_1d_sincos_pos_embed_from_grid(dim // 2, grid_h)
    table = np.concatenate([emb_w, emb_h], axis=1)
    table.setflags(write=False)   # the cached table is shared: nobody writes into it
    return table


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    if dim <= 0 or dim % 4 != 0:
        raise ValueError("embed_dim must be a positive multiple of 4")
    if grid_height <= 0 or grid_width <= 0:
        raise ValueError("grid sizes must be positive")
    table = _grid_table(grid_height, grid_width, dim)
    if cls_token:
        return np.concatenate([np.zeros([1, dim]), table], axis=0)
    return table.copy()
