import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    """(cos, sin) pairs: position 0 starts at (1, 0)."""
    if dim < 2 or dim % 2:
        raise ValueError("dim must be even and >= 2")
    if num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if base <= 0:
        raise ValueError("base must be positive")
    angles = np.arange(num_positions)[:, None] / base ** (np.arange(0, dim, 2) / dim)
    table = np.empty((num_positions, dim))
    table[:, 0::2] = np.cos(angles)
    table[:, 1::2] = np.sin(angles)
    return table
