import numpy as np


def one_dim(width, pos):
    omega = 1.0 / 10000 ** (np.arange(width // 2) / (width / 2))
    angle = np.outer(pos, omega)
    out = np.zeros((len(pos), width))
    out[:, 0::2] = np.sin(angle)
    out[:, 1::2] = np.cos(angle)
    return out


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    if dim <= 0 or dim % 4:
        raise ValueError("dim must be a positive multiple of 4")
    if grid_height <= 0 or grid_width <= 0:
        raise ValueError("grid sizes must be positive")
    rows = np.repeat(np.arange(grid_height), grid_width)
    cols = np.tile(np.arange(grid_width), grid_height)
    table = np.concatenate([one_dim(dim // 2, cols), one_dim(dim // 2, rows)], axis=1)
    if cls_token:
        table = np.concatenate([table[:1], table], axis=0)
    return table
