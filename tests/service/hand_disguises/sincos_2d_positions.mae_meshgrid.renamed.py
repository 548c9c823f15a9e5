import numpy as np


def _one_axis(d, positions):
    freqs = np.arange(d // 2, dtype=np.float64)
    freqs /= d / 2.0
    freqs = 1.0 / 10000 ** freqs
    angles = np.einsum("m,d->md", positions.reshape(-1), freqs)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    if not all(isinstance(v, int) for v in (grid_height, grid_width, dim)):
        raise ValueError("sizes must be ints")
    if dim <= 0 or dim % 4 != 0:
        raise ValueError("dim must be a positive multiple of 4")
    if grid_height <= 0 or grid_width <= 0:
        raise ValueError("grid sizes must be positive")
    ys = np.arange(grid_height, dtype=np.float64)
    xs = np.arange(grid_width, dtype=np.float64)
    mesh = np.stack(np.meshgrid(xs, ys), axis=0)
    table = np.concatenate([_one_axis(dim // 2, mesh[0]), _one_axis(dim // 2, mesh[1])], axis=1)
    if cls_token:
        table = np.concatenate([np.zeros([1, dim]), table], axis=0)
    return table
