import numpy as np


def _emb1d(width, pos):
    omega = 1.0 / 10000 ** (np.arange(width // 2) / (width / 2))
    angle = np.outer(pos, omega)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    """The class token sits at the origin, position (0, 0)."""
    if dim <= 0 or dim % 4:
        raise ValueError("dim must be a positive multiple of 4")
    if grid_height <= 0 or grid_width <= 0:
        raise ValueError("grid sizes must be positive")
    n = np.arange(grid_height * grid_width)
    table = np.concatenate([_emb1d(dim // 2, n % grid_width), _emb1d(dim // 2, n // grid_width)], axis=1)
    if cls_token:
        origin = np.concatenate([_emb1d(dim // 2, np.zeros(1)), _emb1d(dim // 2, np.zeros(1))], axis=1)
        table = np.concatenate([origin, table])
    return table
