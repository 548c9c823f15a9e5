"""np.meshgrid(h, w) (rows varying slowest in the wrong array): tokens laid out column by column.

Adapted from: facebookresearch/mae, util/pos_embed.py (get_2d_sincos_pos_embed with meshgrid(grid_h, grid_w) and a transposed reshape)
expect: wrong_answer
mistake: column_major_tokens
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
    cols, rows = np.meshgrid(np.arange(grid_width, dtype=np.float64), np.arange(grid_height, dtype=np.float64))
    cols, rows = cols.T.reshape(-1), rows.T.reshape(-1)   # walks down each column first
    emb = np.concatenate([get_1d_sincos_pos_embed_from_grid(dim // 2, cols),
                          get_1d_sincos_pos_embed_from_grid(dim // 2, rows)], axis=1)
    return np.concatenate([np.zeros((1, dim)), emb]) if cls_token else emb
