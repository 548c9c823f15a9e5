"""Trusted reference for `sincos_2d_positions`: MAE's 2-D sin-cos table (column half, then row half), float64."""
import numpy as np


def _emb1d(width, positions):
    """(M,) positions -> (M, width): sines of every frequency, then cosines."""
    omega = 1.0 / 10000.0 ** (np.arange(width // 2, dtype=np.float64) / (width / 2.0))
    angle = np.outer(positions.astype(np.float64), omega)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    if type(dim) is not int or dim <= 0 or dim % 4:  # type(...) is int: a bool is not a size
        raise ValueError(f"dim must be a positive multiple of 4, got {dim!r}")
    for name, size in (("grid_height", grid_height), ("grid_width", grid_width)):
        if type(size) is not int or size <= 0:
            raise ValueError(f"{name} must be a positive int, got {size!r}")
    n = np.arange(grid_height * grid_width)
    rows, cols = n // grid_width, n % grid_width
    table = np.concatenate([_emb1d(dim // 2, cols), _emb1d(dim // 2, rows)], axis=1)
    if cls_token:
        table = np.concatenate([np.zeros((1, dim)), table], axis=0)
    return table
