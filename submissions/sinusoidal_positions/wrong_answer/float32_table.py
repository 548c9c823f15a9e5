import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    """A float32 table, the dtype the model's embeddings use."""
    if dim < 2 or dim % 2:
        raise ValueError("dim must be even and >= 2")
    if num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if base <= 0:
        raise ValueError("base must be positive")
    positions = np.arange(num_positions, dtype=np.float32)[:, None]
    frequencies = np.power(np.float32(base), -np.arange(0, dim, 2, dtype=np.float32) / np.float32(dim))
    angles = positions * frequencies
    table = np.zeros((num_positions, dim), dtype=np.float32)
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table
