import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    """Angles as an outer product of positions and frequencies; sin and cos into alternate columns."""
    if dim < 2 or dim % 2:
        raise ValueError("dim must be even and >= 2")
    if num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if base <= 0:
        raise ValueError("base must be positive")
    frequencies = float(base) ** (-np.arange(0, dim, 2) / dim)
    angles = np.outer(np.arange(num_positions), frequencies)
    table = np.zeros((num_positions, dim))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table
