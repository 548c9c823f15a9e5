"""MAE's get_2d_sincos_pos_embed for a (grid_height, grid_width) grid: meshgrid(w, h), w first.

Adapted from: facebookresearch/mae, util/pos_embed.py (get_2d_sincos_pos_embed, get_2d_sincos_pos_embed_from_grid, get_1d_sincos_pos_embed_from_grid)
expect: accepted
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
    grid_h = np.arange(grid_height, dtype=np.float32)
    grid_w = np.arange(grid_width, dtype=np.float32)
    grid = np.meshgrid(grid_w, grid_h)
    grid = np.stack(grid, axis=0).reshape([2, 1, grid_height, grid_width])
    emb_h = get_1d_sincos_pos_embed_from_grid(dim // 2, grid[0].astype(np.float64))
    emb_w = get_1d_sincos_pos_embed_from_grid(dim // 2, grid[1].astype(np.float64))
    pos_embed = np.concatenate([emb_h, emb_w], axis=1)
    if cls_token:
        pos_embed = np.concatenate([np.zeros([1, dim]), pos_embed], axis=0)
    return pos_embed
