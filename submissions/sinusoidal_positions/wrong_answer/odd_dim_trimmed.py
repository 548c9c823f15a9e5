import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    """Odd widths work too: the last cosine column is dropped."""
    if dim < 1:
        raise ValueError("dim must be positive")
    if num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if base <= 0:
        raise ValueError("base must be positive")
    angles = np.arange(num_positions)[:, None] / base ** (np.arange(0, dim, 2) / dim)
    table = np.zeros((num_positions, dim))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)[:, : dim // 2]
    return table
