"""Token n = r * grid_width + c written out with n // grid_width and n % grid_width, MAE's 1-D code per half.

Adapted from: facebookresearch/mae, util/pos_embed.py (get_1d_sincos_pos_embed_from_grid), grid by index arithmetic
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
    n = np.arange(grid_height * grid_width)
    rows, cols = n // grid_width, n % grid_width
    table = np.hstack([get_1d_sincos_pos_embed_from_grid(dim // 2, cols.astype(np.float64)),
                       get_1d_sincos_pos_embed_from_grid(dim // 2, rows.astype(np.float64))])
    return np.vstack([np.zeros((1, dim)), table]) if cls_token else table
