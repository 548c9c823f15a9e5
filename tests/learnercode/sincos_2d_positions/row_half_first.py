import numpy as np


def _emb1d(d, pos):
    omega = np.arange(d // 2, dtype=np.float64) / (d / 2.0)
    omega = 1.0 / 10000 ** omega
    out = np.einsum("m,d->md", pos.reshape(-1).astype(np.float64), omega)
    return np.concatenate([np.sin(out), np.cos(out)], axis=1)


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    if dim <= 0 or dim % 4 != 0:
        raise ValueError("dim must be a positive multiple of 4")
    if grid_height <= 0 or grid_width <= 0:
        raise ValueError("grid sizes must be positive")
    rows, cols = np.meshgrid(np.arange(grid_height), np.arange(grid_width), indexing="ij")
    emb = np.concatenate([_emb1d(dim // 2, rows), _emb1d(dim // 2, cols)], axis=1)
    if cls_token:
        emb = np.concatenate([np.zeros([1, dim]), emb], axis=0)
    return emb
