import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    """Angles in float32 to save memory; the table itself is float64."""
    if dim < 2 or dim % 2:
        raise ValueError("dim must be even and >= 2")
    if num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if base <= 0:
        raise ValueError("base must be positive")
    positions = np.arange(num_positions, dtype=np.float32)[:, None]
    frequencies = (float(base) ** (-np.arange(0, dim, 2) / dim)).astype(np.float32)
    angles = positions * frequencies
    table = np.zeros((num_positions, dim), dtype=np.float64)
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table
