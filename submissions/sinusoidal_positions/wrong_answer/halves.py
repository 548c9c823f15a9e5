import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    """Sines of every frequency, then cosines of every frequency."""
    if dim < 2 or dim % 2:
        raise ValueError("dim must be even and >= 2")
    if num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if base <= 0:
        raise ValueError("base must be positive")
    angles = np.arange(num_positions)[:, None] / base ** (np.arange(0, dim, 2) / dim)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
