import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    if dim < 2 or dim % 2:
        raise ValueError("dim must be even and at least 2")
    if num_positions < 1:
        raise ValueError("num_positions must be positive")
    if base <= 0:
        raise ValueError("base must be positive")
    pos = np.arange(num_positions, dtype=np.float32)[:, None]
    freqs = 1.0 / base ** (np.arange(0, dim, 2, dtype=np.float32) / dim)
    table = np.empty((num_positions, dim), dtype=np.float32)
    table[:, 0::2] = np.sin(pos * freqs)
    table[:, 1::2] = np.cos(pos * freqs)
    return table
