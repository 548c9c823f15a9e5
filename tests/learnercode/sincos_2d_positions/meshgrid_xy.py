import numpy as np


def emb_1d(embed_dim, pos):
    omega = np.arange(embed_dim // 2, dtype=np.float64)
    omega /= embed_dim / 2.0
    omega = 1.0 / 10000 ** omega
    out = np.outer(pos, omega)
    return np.concatenate([np.sin(out), np.cos(out)], axis=1)


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    if dim <= 0 or dim % 4 != 0:
        raise ValueError("dim must be a positive multiple of 4")
    if grid_height <= 0 or grid_width <= 0:
        raise ValueError("empty grid")
    gr, gc = np.meshgrid(np.arange(grid_height, dtype=np.float64), np.arange(grid_width, dtype=np.float64))
    table = np.concatenate([emb_1d(dim // 2, gc.reshape(-1)), emb_1d(dim // 2, gr.reshape(-1))], axis=1)
    if cls_token:
        table = np.concatenate([np.zeros((1, dim)), table], axis=0)
    return table
