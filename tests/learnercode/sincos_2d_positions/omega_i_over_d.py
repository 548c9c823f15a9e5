import numpy as np


def get_1d(d, positions):
    i = np.arange(d // 2, dtype=np.float64)
    omega = 1.0 / (10000 ** (i / d))
    angle = positions[:, None] * omega[None, :]
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    if dim <= 0 or dim % 4:
        raise ValueError("dim must be a multiple of 4")
    if grid_height < 1 or grid_width < 1:
        raise ValueError("grid must be at least 1x1")
    n = np.arange(grid_height * grid_width)
    r = (n // grid_width).astype(np.float64)
    c = (n % grid_width).astype(np.float64)
    table = np.concatenate([get_1d(dim // 2, c), get_1d(dim // 2, r)], axis=1)
    if cls_token:
        table = np.vstack([np.zeros((1, dim)), table])
    return table
