import numpy as np


def _emb1d(width, pos):
    omega = np.arange(width // 2, dtype=np.float32)
    omega /= width / 2.0
    omega = 1.0 / 10000 ** omega
    angle = np.outer(pos, omega)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    """Positions as float32, the dtype of the model's parameters."""
    if dim <= 0 or dim % 4:
        raise ValueError("dim must be a positive multiple of 4")
    if grid_height <= 0 or grid_width <= 0:
        raise ValueError("grid sizes must be positive")
    n = np.arange(grid_height * grid_width)
    cols = (n % grid_width).astype(np.float32)
    rows = (n // grid_width).astype(np.float32)
    table = np.concatenate([_emb1d(dim // 2, cols), _emb1d(dim // 2, rows)], axis=1)
    if cls_token:
        table = np.concatenate([np.zeros((1, dim), dtype=np.float32), table])
    return table
