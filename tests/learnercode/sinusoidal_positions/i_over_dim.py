import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    if dim < 2 or dim % 2 != 0:
        raise ValueError("dim must be even and >= 2")
    if num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if base <= 0:
        raise ValueError("base must be positive")
    pos = np.arange(num_positions)[:, None]
    i = np.arange(dim // 2)[None, :]
    angles = pos / np.power(base, i / dim)
    table = np.zeros((num_positions, dim))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table
