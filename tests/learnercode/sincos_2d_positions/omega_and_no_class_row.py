import numpy as np


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    if dim <= 0 or dim % 4:
        raise ValueError("dim must be divisible by 4")
    if grid_height <= 0 or grid_width <= 0:
        raise ValueError("grid sizes must be positive")
    d = dim // 2
    omega = 1.0 / 10000 ** (np.arange(d // 2) / d)
    table = np.zeros((grid_height * grid_width, dim))
    for r in range(grid_height):
        for c in range(grid_width):
            n = r * grid_width + c
            table[n, :d] = np.concatenate([np.sin(c * omega), np.cos(c * omega)])
            table[n, d:] = np.concatenate([np.sin(r * omega), np.cos(r * omega)])
    return table
